// JSON as text for the user: invalid UTF-8 in a string (a description or a file name in another
// encoding) becomes U+FFFD instead of failing the output after a whole simulation.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace starnuma {

template <class Json>
std::string json_text(const Json& j, int indent = 2) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace starnuma
