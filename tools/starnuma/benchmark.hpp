// `starnuma benchmark` and its two other modes, each in its own file.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace starnuma::cli {

// `scale` multiplies every case's instruction count (1: the documented benchmark).
int benchmark(const std::string& platforms_dir, double scale, bool json);
// Stream generation alone, per workload (`scale` multiplies the 20 M operations read from each).
int benchmark_generators(const std::vector<std::string>& workloads, double scale, bool json);
// `--host-memory`: latency of a random load on this host against the data's size (`scale`
// multiplies the 20 M loads timed per size).
int benchmark_host_memory(double scale, bool json);
// The host's latency of a random dependent load over `bytes` of data, in ns, over `loads` loads.
double host_load_ns(size_t bytes, size_t loads);
std::vector<std::string> default_generator_cases();  // every workload, default parameters

}  // namespace starnuma::cli
