// `starnuma benchmark` and its two other modes, each in its own file.
#pragma once

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
std::vector<std::string> default_generator_cases();  // every workload, default parameters

}  // namespace starnuma::cli
