// The tracking hardware of every socket, attached for one run: builds the shared metadata region
// (one entry per region of the whole physical address space, reserved at the top of the
// `metadata_home` node's memory) and hooks each socket's SocketTracking onto its cores' events.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "tracking/tracker_metadata.hpp"

namespace starnuma {

class Fabric;
class SocketTracking;
class TlbObserver;

// What the platform's tracking needs of one socket, handed down by the socket layer above
// (tracked_sockets, socket/socket.hpp), in the fabric's requester order.
struct TrackedSocket {
  SocketTracking* tracking;
  unsigned cores;
  int64_t cycle_fs;                           // one core cycle
  std::function<void(TlbObserver*)> observe;  // the observer of the socket's cores' TLB events
};

class PlatformTracking {
 public:
  // Null when every socket has `tracking.impl: none` (then nothing is observed or reserved).
  static std::unique_ptr<PlatformTracking> attach(Fabric& fabric, std::vector<TrackedSocket> sockets);
  // The metadata region alone, the sockets left as they are (a functional pass counts without them).
  static std::unique_ptr<PlatformTracking> region_only(Fabric& fabric, std::vector<TrackedSocket> sockets);

  // Address range (index into the fabric's address map) whose top holds the metadata, and how
  // many bytes of it are reserved (page-aligned): the OS places no page there.
  size_t home_range() const { return home_range_; }
  uint64_t reserved_bytes() const { return reserved_; }
  const std::shared_ptr<TrackerMetadata>& metadata() const { return metadata_; }
  // The OS leaves the hardware off for this run (tracking.active: auto, and no migration decides
  // by the trackers): no annex counts, flushes or updates; the region stays reserved.
  void idle();
  bool active() const { return !idle_; }
  // tracking.active: always (the hardware runs whether or not a migration reads it).
  bool always_active() const;
  // After the run: delivers held events, checks every flush reached its tracker.
  void finish();

 private:
  PlatformTracking() = default;
  std::vector<TrackedSocket> sockets_;
  bool attached_ = false;
  bool idle_ = false;
  size_t home_range_ = 0;
  uint64_t reserved_ = 0;
  std::shared_ptr<TrackerMetadata> metadata_;
};

}  // namespace starnuma
