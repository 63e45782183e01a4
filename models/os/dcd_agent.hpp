// The OS's side of a pool device's dynamic capacity (pool/pool_dcd.hpp; docs/cxl-device.md,
// "Dynamic capacity"): a kernel thread on a core of `os.os_socket`, beside the migration thread,
// that takes the device's events in the order they are written, each when its time or phase comes
// and the one before it has completed:
//   - Add Capacity: the frames go online at once (first touch, placement and migration may use them);
//   - Release Capacity: the OS stops placing pages in the extent (the top of what is online), then
//     moves every page in it out, as Linux's memory offlining does, synchronously one after another:
//     `os.page_cycles` of its core, then the copy line by line through the fabric; a page goes to a
//     free frame of its own node below the extent if there is one, else to the socket memory with
//     the most free pages that every socket reaches. The release completes when the extent holds
//     nothing, copies of other movers included; the frontier then moves in.
// A release that the rest of memory cannot absorb when it comes is refused (the run goes on and
// says so). The page map's invariants are checked at every event, and every page that was in a
// released extent must be placed elsewhere when it completes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "os/kernel_context.hpp"
#include "os/page_mover.hpp"
#include "pool/pool_dcd.hpp"

namespace starnuma {

class DcdAgent {
 public:
  struct Setup : KernelContext {
    size_t node = 0;     // the device's node in the page map
    std::string device;  // its name, for reports
    const PoolDcd* dcd = nullptr;
    uint64_t device_bytes = 0;  // the device's whole capacity (its range)
  };
  explicit DcdAgent(Setup setup);

  void start();  // spawns the thread (before sc_start)
  const std::string& device() const { return s_.device; }
  // The device's events and what became of each, for the run's summary.
  nlohmann::ordered_json report() const;
  // One sentence per event that did not complete, for the run's shortfalls.
  std::vector<std::string> shortfalls() const;

 private:
  struct Record {
    std::string status = "pending";  // pending, done, refused, incomplete
    std::string reason;              // why refused or incomplete
    double start_ns = -1, end_ns = -1;
    uint64_t pages_in_extent = 0, pages_moved = 0, moved_within = 0, moved_by_others = 0, online_after = 0;
  };
  void run();
  bool due(const DcdEvent& e, int64_t now);  // advances the phases' clock
  int64_t due_fs(const DcdEvent& e) const;   // when a time event is due (INT64_MAX for a phase event)
  void add(const DcdEvent& e, Record& r);
  // Starts a release; false when refused.
  bool begin_release(const DcdEvent& e, Record& r);
  // The next page of the release moved (true), or nothing to do before `wake` (false).
  bool release_step(int64_t now, Record& r, int64_t& wake);
  // A destination with room for a page of the extent; npos when none.
  size_t destination() const;
  // The sockets' memories every socket reaches: where a page of the device may go whoever uses it
  // (on a fabric of separate hosts, none but what they lend).
  std::vector<size_t> shared_socket_memories() const;
  void finish_release(Record& r);
  void check(const std::string& when) const;

  Setup s_;
  PageMover mover_;
  uint64_t frames_per_block_ = 0;
  std::vector<Record> records_;
  // The release under way.
  std::vector<uint64_t> extent_pages_;
  size_t next_page_ = 0;
  int64_t os_free_fs_ = 0;
};

}  // namespace starnuma
