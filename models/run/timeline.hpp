// Per memory node, over simulated time: the bandwidth it served and the pages it holds (the
// companion papers' timeline figures: LACX's per-node bandwidth, the HPC pooling study's
// footprint). Sampled from the cores' quantum boundaries, which only read: a SystemC process of
// its own would change the order of the cores at equal times, and with it the results, so a run
// gives the same numbers with and without its timeline. Resolution: one quantum.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

#include "fabric/fabric.hpp"
#include "paging/page_map.hpp"

namespace starnuma {

class Timeline {
 public:
  static constexpr size_t kMaxSamples = 100000;  // a longer run keeps its first samples and says so

  Timeline(const Fabric& fabric, const PageMap& pages, sc_core::sc_time interval);
  // Records every interval that has ended by now (called at the cores' quantum boundaries).
  void poll() {
    if (sc_core::sc_time_stamp() >= next_) record_until(sc_core::sc_time_stamp());
  }
  // After the run: the intervals up to `end`, the last one partial.
  void finish(sc_core::sc_time end);
  // {"interval_ns", "time_ns": end of each sample, "nodes": {NAME: {"bandwidth_GBps", "pages"}},
  //  "truncated"}
  nlohmann::ordered_json to_json() const;

 private:
  void record_until(sc_core::sc_time now);
  void sample(sc_core::sc_time at);

  const Fabric& fabric_;
  const PageMap& pages_;
  sc_core::sc_time interval_, next_, last_;
  std::vector<uint64_t> last_requests_;
  std::vector<double> time_ns_;
  std::vector<std::vector<double>> bandwidth_;  // per node, per sample (GB/s)
  std::vector<std::vector<uint64_t>> pages_on_;
  bool truncated_ = false;
};

}  // namespace starnuma
