// A hint to the host: start bringing the cache line at `p` into its caches. No effect on the model.
//
// Not __builtin_prefetch: GCC counts it as free of side effects, so a function that only
// prefetches is found "pure", and once inlined its void call is deleted as dead code. That
// silently removed every set prefetch of the lookahead (docs/performance.md). An asm statement
// is kept.
#pragma once

namespace starnuma {

inline void host_prefetch(const void* p) {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  asm volatile("prefetcht0 %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p);
#endif
}

}  // namespace starnuma
