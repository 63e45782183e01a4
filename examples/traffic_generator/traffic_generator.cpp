// An example plug-in: a traffic generator as a plain TLM-2.0 initiator. It moves `requests`
// transactions of `size` bytes to one memory node, sequential or random lines, either in a closed
// loop (`outstanding` transactions in flight, each reissued when it completes) or at a constant
// rate (one every `interval`). Loosely timed: it issues with annotated delays and follows TLM's
// global quantum (the platform's) with a quantum keeper. Registered as the initiator type
// `example_traffic`; a platform file uses it as
//   plugins: [libstarnuma_example_traffic.so]
//   initiators: {gen: {type: example_traffic, at: socket0, target: pool}}
// and the run's stats.json reports what it got under initiators.gen (docs/plugins.md).
#include <algorithm>
#include <functional>
#include <queue>
#include <random>
#include <vector>

#include <stdexcept>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "plugin/plugin_api.hpp"

class TrafficGenerator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<TrafficGenerator> socket{"socket"};

  TrafficGenerator(sc_core::sc_module_name n, starnuma::plugin::Params& p)
      : sc_module(n),
        target_(p.memory_node("target", "pool", "Memory node the traffic goes to")),
        write_(p.choice("op", "read|write", "read or write") == "write"),
        random_(p.choice("pattern", "sequential|random", "sequential lines, or random lines of the node") == "random"),
        size_(p.size("size", 64, "Bytes per transaction (whole lines)")),
        requests_(p.integer("requests", 100000, "Transactions to issue")),
        outstanding_(p.integer("outstanding", 16, "Closed loop: transactions in flight")),
        interval_(p.time("interval", 0, "Open loop: one transaction every interval (0: closed loop)")),
        start_(p.time("start", 1000, "When the first transaction issues")),
        seed_(p.integer("seed", 1, "Seed of the random pattern")) {
    // What the parameters' types cannot say: thrown, the command ends naming the node and this.
    if (size_ < 64 || size_ > 4096 || size_ % 64 != 0)
      throw std::invalid_argument("size " + std::to_string(size_) + " B: whole 64-byte lines, 64 B to 4 KiB");
    if (requests_ < 1 || requests_ > (int64_t{1} << 40))
      throw std::invalid_argument("requests " + std::to_string(requests_) + ": from 1 to 2^40");
    if (outstanding_ < 1 || outstanding_ > 65536)
      throw std::invalid_argument("outstanding " + std::to_string(outstanding_) + ": from 1 to 65536");
    SC_THREAD(run);
  }

 private:
  SC_HAS_PROCESS(TrafficGenerator);

  void run() {
    if (target_.size < size_) return;  // `starnuma list` describing the parameters: no node yet
    std::mt19937_64 rng(static_cast<uint64_t>(seed_));
    const uint64_t slots = target_.size / size_;
    std::vector<unsigned char> data(size_);
    tlm::tlm_generic_payload t;
    t.set_data_ptr(data.data());
    t.set_data_length(static_cast<unsigned>(size_));
    t.set_streaming_width(static_cast<unsigned>(size_));
    t.set_command(write_ ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    // When each slot may issue next: the closed loop's transactions in flight, or the open
    // loop's next arrival.
    std::priority_queue<sc_core::sc_time, std::vector<sc_core::sc_time>, std::greater<>> free;
    const bool closed = interval_ == sc_core::SC_ZERO_TIME;
    for (int64_t k = 0; k < (closed ? outstanding_ : 1); ++k) free.push(start_);
    tlm_utils::tlm_quantumkeeper keeper;
    for (int64_t i = 0; i < requests_; ++i) {
      const sc_core::sc_time issue = free.top();
      free.pop();
      // Run ahead of the simulation by at most a quantum.
      if (issue > sc_core::sc_time_stamp() + keeper.get_global_quantum()) wait(issue - sc_core::sc_time_stamp());
      const uint64_t slot = random_ ? rng() % slots : static_cast<uint64_t>(i) % slots;
      t.set_address(target_.base + slot * size_);
      t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_core::sc_time delay = issue - sc_core::sc_time_stamp();
      socket->b_transport(t, delay);
      if (t.is_response_error()) SC_REPORT_ERROR(name(), t.get_response_string().c_str());
      free.push(closed ? sc_core::sc_time_stamp() + delay : issue + interval_);
    }
  }

  starnuma::plugin::AddressRange target_;
  bool write_, random_;
  uint64_t size_;
  int64_t requests_, outstanding_;
  sc_core::sc_time interval_, start_;
  int64_t seed_;
};

STARNUMA_REGISTER_TLM_INITIATOR(TrafficGenerator, "example_traffic",
                                "Example plug-in: a traffic generator moving lines to one memory node, in a closed "
                                "loop or at a constant rate");
