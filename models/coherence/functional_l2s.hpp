// Each core's private L2 in a functional pass (run/functional_pass.hpp), in front of its socket's
// LLC (functional_llcs.hpp) as a timed core's L2 is: an access it serves never reaches the LLC, so
// the LLC's recency, and what it keeps, follow its L2s' misses as a timed LLC's do. With coherent
// LLCs the LLC is inclusive (as the timed LLC is under coherence): a line leaving a socket's LLC
// leaves its cores' L2s. What the L2s hold at a unit is what a window's L2s start from
// (docs/sampling.md, "Functional warming of the L2s").
#pragma once

#include <cstdint>
#include <vector>

#include "cache/cache_array.hpp"
#include "coherence/functional_llcs.hpp"

namespace starnuma {

class FunctionalL2s {
 public:
  struct Geometry {
    uint64_t lines;
    unsigned ways;
    Replacement replacement;
    size_t socket;  // the thread's core's
  };
  // One L2 per thread, of `threads[t]`.
  FunctionalL2s(const std::vector<Geometry>& threads, size_t sockets, uint64_t seed);

  // Whether thread `t`'s L2 holds `line` (a hit: its recency updated).
  bool serves(size_t t, uint64_t line) { return l2s_[t].access(line, false); }
  // `line`, which missed thread `t`'s L2, enters it after its LLC access (a victim leaves silently:
  // the LLC's copy carries the line's state).
  void fill(size_t t, uint64_t line) { l2s_[t].fill(line, false); }
  // `line` left socket `s`'s LLC: it leaves its cores' L2s.
  void drop(size_t s, uint64_t line) {
    for (const unsigned t : socket_threads_[s]) l2s_[t].invalidate(line);
  }
  void prefetch(size_t t, uint64_t line) const { l2s_[t].prefetch(line); }
  // Each thread's L2, set by set, each set's least recent line first: line << 2 | E (clean).
  std::vector<CacheContents::Llc> contents() const;

 private:
  std::vector<CacheArray> l2s_;
  std::vector<std::vector<unsigned>> socket_threads_;
};

}  // namespace starnuma
