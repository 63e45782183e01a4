// Host throughput of the workload generators: operations per second of the fill() loop of a
// workload's only thread, after its initialisation (produced untimed). Not a test; the figures
// are in docs/workloads.md:
//   ./build/tests/generator_rate [operations] [workload ...]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <systemc>

#include "common/diagnostics.hpp"
#include "stimulus/workload_registry.hpp"

int sc_main(int argc, char** argv) {
  starnuma::install_report_handler();
  const uint64_t operations = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000;
  std::vector<std::string> workloads(argv + std::min(argc, 2), argv + argc);
  if (workloads.empty()) workloads = {"stream", "gups", "vecsum", "kv"};
  try {
    for (const std::string& text : workloads) {
      // One thread, so its stream holds the whole run.
      auto w = starnuma::make_workload(text, 1, 1, 1);
      auto s = w->stream(0);
      std::vector<starnuma::StreamOp> batch(256);
      bool measuring = !w->initialises();
      while (!measuring) {  // skip the initialisation, one operation at a time
        if (s->fill(batch.data(), 1) == 0) break;
        measuring = batch[0].kind == starnuma::StreamOp::Kind::Barrier && batch[0].starts_measurement;
      }
      uint64_t done = 0, memory = 0, checksum = 0;
      const auto start = std::chrono::steady_clock::now();
      while (done < operations) {
        const size_t k = s->fill(batch.data(), batch.size());
        if (k == 0) break;
        for (size_t i = 0; i < k; ++i) {
          checksum += batch[i].address;
          memory += batch[i].kind != starnuma::StreamOp::Kind::Barrier;
        }
        done += k;
      }
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::printf("%-10s %12llu ops %8.3f s %8.1f M ops/s %8.1f M addresses/s (checksum %llx)\n", text.c_str(),
                  static_cast<unsigned long long>(done), seconds, done / seconds / 1e6, memory / seconds / 1e6,
                  static_cast<unsigned long long>(checksum));
    }
  } catch (const sc_core::sc_report& r) {
    std::fprintf(stderr, "%s\n", r.get_msg());
    return 1;
  }
  return 0;
}
