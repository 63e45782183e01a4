#include "coherence/checker.hpp"

#include "common/text.hpp"

namespace starnuma {

void InvariantChecker::violation(const std::string& what) {
  if (violations_++ == 0) first_ = what;
}

void InvariantChecker::load(uint64_t block, size_t socket, uint64_t observed) {
  ++checks_;
  const uint64_t want = latest(block);
  if (observed != want)
    violation("socket " + std::to_string(socket) + " loaded version " + std::to_string(observed) + " of block " +
              hex(block * 64) + ", the latest is " + std::to_string(want));
}

void InvariantChecker::uncached_hit(uint64_t block, size_t socket) {
  ++checks_;
  violation("socket " + std::to_string(socket) + " hit block " + hex(block * 64) + " in its caches without holding it");
}

void InvariantChecker::holders(uint64_t block, unsigned exclusive, unsigned shared, bool covered) {
  ++checks_;
  if (exclusive > 1 || (exclusive == 1 && shared > 0))
    violation("block " + hex(block * 64) + " has " + std::to_string(exclusive) + " E/M and " + std::to_string(shared) +
              " S copies");
  if (!covered) violation("block " + hex(block * 64) + " has a copy the directory does not list");
}

}  // namespace starnuma
