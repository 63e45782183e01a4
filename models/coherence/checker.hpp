// The coherence invariant checker. After every transaction, for the block it touched:
// - single writer or multiple readers: at most one socket holds the block E or M, and then no
//   socket holds it S;
// - the directory covers every copy (an E/M holder is the owner, an S holder a sharer);
// - data value: every store is globally ordered and gets the block's next version number; every
//   load must observe the latest version (the copy it reads carries the version it was filled with).
// It looks at the sockets' actual copies, not at the directory's view, so a transition that
// forgets a copy shows up here.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

namespace starnuma {

class InvariantChecker {
 public:
  // The version a store to `block` writes (the next in the block's global order).
  uint64_t store(uint64_t block) { return ++latest_[block]; }
  uint64_t latest(uint64_t block) const {
    auto it = latest_.find(block);
    return it == latest_.end() ? 0 : it->second;
  }
  void load(uint64_t block, size_t socket, uint64_t observed);
  // A socket's cache hit on a block the socket does not hold (its caches kept a stale copy).
  void uncached_hit(uint64_t block, size_t socket);
  // exclusive: holders in E or M; shared: holders in S; covered: the directory lists them all.
  void holders(uint64_t block, unsigned exclusive, unsigned shared, bool covered);

  uint64_t checks() const { return checks_; }
  uint64_t violations() const { return violations_; }
  const std::string& first_violation() const { return first_; }

 private:
  void violation(const std::string& what);
  std::unordered_map<uint64_t, uint64_t> latest_;
  uint64_t checks_ = 0, violations_ = 0;
  std::string first_;
};

}  // namespace starnuma
