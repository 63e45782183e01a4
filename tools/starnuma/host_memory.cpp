// `starnuma benchmark --host-memory`: how long a load takes on this host as the data it reaches at
// random grows, the figure that bounds the simulator's miss-heavy throughput. The simulated caches'
// tag stores (4 MiB of L2s and 8 MiB of LLCs on the 64-core platform) are read at random, so the
// size at which a random load leaves the host's caches decides what each simulated miss costs.
//
// A dependent chase through one random cycle over the buffer's cache lines: each load's address
// comes from the previous load, so nothing overlaps and the time per load is the latency.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "benchmark.hpp"
#include "common/json_text.hpp"

namespace starnuma::cli {

double host_load_ns(size_t bytes, size_t loads) {
  const size_t lines = bytes / 64;
  std::vector<uint64_t> next(lines * 8);  // one 64-bit link at the start of each 64-byte line
  std::vector<uint64_t> order(lines);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937_64(1));
  for (size_t i = 0; i < lines; ++i) next[order[i] * 8] = order[(i + 1) % lines] * 8;
  uint64_t at = 0;
  for (size_t i = 0; i < lines; ++i) at = next[at];  // warm up: every line once
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < loads; ++i) at = next[at];
  const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  volatile uint64_t sink = at;  // keeps the chase
  (void)sink;
  return ns / static_cast<double>(loads);
}

int benchmark_host_memory(double scale, bool json) {
  const size_t loads = std::max<size_t>(1000, static_cast<size_t>(20'000'000 * scale));
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  if (!json) std::cout << "random dependent loads over a buffer of:\n";
  for (size_t mib : {1, 2, 4, 8, 12, 16, 32, 64}) {
    const double ns = host_load_ns(mib << 20, loads);
    out.push_back({{"MiB", mib}, {"ns_per_load", ns}});
    if (!json) std::cout << "  " << mib << " MiB: " << std::to_string(ns).substr(0, 5) << " ns\n" << std::flush;
  }
  if (json) std::cout << json_text(out) << '\n';
  return 0;
}

}  // namespace starnuma::cli
