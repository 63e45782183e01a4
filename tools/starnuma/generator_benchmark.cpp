// `starnuma benchmark --generators`: how fast each workload produces its streams, with no
// simulation behind them: 64 threads (16 sockets x 4 cores, as the scaled platforms run them)
// read their streams in turn, 1024 operations at a time. A generator must stay well above the
// rate the simulator consumes operations (a few million per second), so it is never the
// bottleneck of a run.
#include <chrono>
#include <iomanip>
#include <iostream>

#include <nlohmann/json.hpp>

#include "benchmark.hpp"
#include "common/json_text.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma::cli {

std::vector<std::string> default_generator_cases() {
  std::vector<std::string> cases;
  for (const WorkloadType* w : WorkloadRegistry::instance().all()) cases.push_back(w->name);
  return cases;
}

int benchmark_generators(const std::vector<std::string>& workloads, double scale, bool json) {
  constexpr unsigned kThreads = 64, kSockets = 16, kBatch = 1024;
  const auto wanted = static_cast<uint64_t>(20e6 * scale);
  nlohmann::ordered_json report = nlohmann::ordered_json::array();
  if (!json)
    std::cout << std::left << std::setw(28) << "workload" << std::right << std::setw(12) << "set-up (s)"
              << std::setw(14) << "operations" << std::setw(18) << "M operations/s" << '\n';
  std::vector<StreamOp> batch(kBatch);
  for (const std::string& name : workloads) {
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    auto workload = make_workload(name, kThreads, kSockets, 1);
    std::vector<std::unique_ptr<ThreadStream>> streams;
    for (unsigned t = 0; t < kThreads; ++t) streams.push_back(workload->stream(t));
    const auto ready = clock::now();
    uint64_t operations = 0;
    for (bool any = true; any && operations < wanted;) {
      any = false;
      for (auto& s : streams) {
        const size_t n = s->fill(batch.data(), kBatch);
        any |= n > 0;
        for (size_t i = 0; i < n; ++i) operations += batch[i].kind != StreamOp::Kind::Barrier;
      }
    }
    const double setup = std::chrono::duration<double>(ready - start).count();
    const double seconds = std::chrono::duration<double>(clock::now() - ready).count();
    const double rate = static_cast<double>(operations) / seconds;
    report.push_back(
        {{"workload", name}, {"setup_seconds", setup}, {"operations", operations}, {"operations_per_second", rate}});
    if (!json)
      std::cout << std::left << std::setw(28) << name << std::right << std::fixed << std::setprecision(2)
                << std::setw(12) << setup << std::setw(14) << operations << std::setw(18) << rate / 1e6 << std::endl;
  }
  if (json) std::cout << json_text(report) << '\n';
  return 0;
}

}  // namespace starnuma::cli
