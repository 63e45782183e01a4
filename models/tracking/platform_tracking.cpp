#include "tracking/platform_tracking.hpp"

#include <cmath>

#include "fabric/fabric.hpp"
#include "fabric/fabric.hpp"
#include "tracking/socket_tracking.hpp"

namespace starnuma {

namespace {

// The platform-wide choices must be the same on every socket: they shape the one shared region.
void check_same(const SocketTracking& first, const SocketTracking& t) {
  auto differs = [&](const char* key, const std::string& a, const std::string& b) {
    if (a != b)
      report_error(msg::kConfig, t.path() + "." + key + ": " + b + " differs from " + first.path() + "." + key + " (" +
                                     a + "): every socket shares one metadata region");
  };
  differs("impl", first.find_param("impl")->value_text(), t.find_param("impl")->value_text());
  differs("counter_bits", std::to_string(first.counter_bits()), std::to_string(t.counter_bits()));
  differs("region_size", format_size(first.region_size()), format_size(t.region_size()));
  differs("metadata_home", first.metadata_home(), t.metadata_home());
  differs("active", first.find_param("active")->value_text(), t.find_param("active")->value_text());
}

}  // namespace

std::unique_ptr<PlatformTracking> PlatformTracking::attach(Fabric& fabric, std::vector<TrackedSocket> sockets) {
  std::unique_ptr<PlatformTracking> p = region_only(fabric, std::move(sockets));
  if (!p) return p;
  unsigned first_core = 0;
  for (size_t s = 0; s < p->sockets_.size(); ++s) {
    const TrackedSocket& sock = p->sockets_[s];
    sock.tracking->attach({&fabric, s, static_cast<unsigned>(p->sockets_.size()), first_core, sock.cores, sock.cycle_fs,
                           p->metadata_.get()});
    sock.observe(sock.tracking);
    first_core += sock.cores;
  }
  p->attached_ = true;
  return p;
}

std::unique_ptr<PlatformTracking> PlatformTracking::region_only(Fabric& fabric, std::vector<TrackedSocket> sockets) {
  if (sockets.empty() || sockets[0].tracking->impl() == TrackingImpl::None) {
    for (const TrackedSocket& s : sockets)
      if (s.tracking->impl() != TrackingImpl::None) check_same(*sockets[0].tracking, *s.tracking);
    return nullptr;
  }
  const SocketTracking& first = *sockets[0].tracking;
  for (const TrackedSocket& s : sockets) check_same(first, *s.tracking);

  std::unique_ptr<PlatformTracking> p(new PlatformTracking);
  TrackerConfig tc;
  tc.sockets = 16;  // the RTL's sharer field; wider only for platforms with more sockets
  while (tc.sockets < sockets.size()) tc.sockets *= 2;
  tc.counter_bits = first.counter_bits();
  const uint64_t region = first.region_size().bytes();
  if (region % kPageBytes != 0)
    report_error(msg::kConfig,
                 first.path() + ".region_size: " + format_size(first.region_size()) + " is not whole 4 KiB pages");
  tc.pages_per_region = region / kPageBytes;
  uint64_t end = 0;
  for (const Fabric::Range& r : fabric.address_map()) end = std::max(end, r.base + r.size);
  const uint64_t regions = (end + region - 1) / region;

  // Home: by name, or the pool (equally far from every socket: one CXL hop), else the first socket.
  const auto& map = fabric.address_map();
  const std::string& home = first.metadata_home();
  p->home_range_ = map.size();
  for (size_t r = 0; r < map.size() && p->home_range_ == map.size(); ++r) {
    const bool socket = map[r].node->is_requester();
    if (home == "auto" ? !socket : map[r].name == home) p->home_range_ = r;
  }
  if (home == "auto" && p->home_range_ == map.size()) {
    for (size_t r = 0; r < map.size(); ++r)
      if (map[r].node == &fabric.requester_node(0)) p->home_range_ = r;
  }
  if (p->home_range_ == map.size()) {
    std::string names;
    for (const Fabric::Range& r : map) names += (names.empty() ? "" : ", ") + r.name;
    report_error(msg::kConfig,
                 first.path() + ".metadata_home: no node '" + home + "' with memory (auto or one of " + names + ")");
  }
  const TrackerUpdateModel layout(tc);
  p->reserved_ = (regions * layout.entry_bytes() + kPageBytes - 1) / kPageBytes * kPageBytes;
  const Fabric::Range& r = map[p->home_range_];
  if (p->reserved_ > r.size)
    report_error(msg::kConfig, first.path() + ".metadata_home: the metadata region (" +
                                   format_size(Size::from_bytes(p->reserved_)) + ") does not fit in " + r.name +
                                   "'s memory");
  tc.meta_base = r.base + r.size - p->reserved_;
  p->metadata_ = std::make_shared<TrackerMetadata>(tc, regions);
  p->sockets_ = std::move(sockets);
  return p;
}

void PlatformTracking::idle() {
  idle_ = true;
  for (const TrackedSocket& s : sockets_) s.observe(nullptr);
}

bool PlatformTracking::always_active() const { return sockets_[0].tracking->always_active(); }

void PlatformTracking::finish() {
  if (!attached_) return;
  for (const TrackedSocket& s : sockets_) s.tracking->finish();
}

}  // namespace starnuma
