#include "common/mem_access.hpp"

#include <utility>

namespace starnuma {

void PathTrace::add(std::string where, std::string what, Time t) {
  steps.push_back({std::move(where), std::move(what), t});
}

}  // namespace starnuma
