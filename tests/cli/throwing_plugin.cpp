// A plug-in whose registration throws (a static initialiser, run inside dlopen): loading it must be
// an exit 1 naming the library and the exception, not std::terminate.
#include <stdexcept>

namespace {
const bool registered = [] {
  throw std::runtime_error("this plug-in cannot register");
  return true;
}();
}  // namespace
