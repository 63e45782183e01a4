#include "run/timeline.hpp"

#include <cmath>

#include "memory/memory_home.hpp"

namespace starnuma {

Timeline::Timeline(const Fabric& fabric, const PageMap& pages, sc_core::sc_time interval)
    : fabric_(fabric),
      pages_(pages),
      interval_(interval),
      next_(sc_core::sc_time_stamp() + interval),
      last_(sc_core::sc_time_stamp()),
      last_requests_(fabric.address_map().size(), 0),
      bandwidth_(fabric.address_map().size()),
      pages_on_(fabric.address_map().size()) {
  for (size_t k = 0; k < last_requests_.size(); ++k) last_requests_[k] = fabric_.requests_to(k);
}

void Timeline::record_until(sc_core::sc_time now) {
  while (now >= next_) {
    sample(next_);
    next_ += interval_;
  }
}

void Timeline::sample(sc_core::sc_time at) {
  if (time_ns_.size() >= kMaxSamples) {
    truncated_ = true;
    return;
  }
  const double seconds = (at - last_).to_seconds();
  time_ns_.push_back(std::round(at.to_seconds() * 1e12) / 1e3);  // ns to the picosecond
  for (size_t k = 0; k < last_requests_.size(); ++k) {
    // Every request moves one 64-byte line (a read's data back, or a write's to the home).
    const uint64_t requests = fabric_.requests_to(k);
    bandwidth_[k].push_back(seconds > 0 ? static_cast<double>(requests - last_requests_[k]) * 64 / seconds / 1e9 : 0.0);
    last_requests_[k] = requests;
    pages_on_[k].push_back(pages_.pages_on(k));
  }
  last_ = at;
}

void Timeline::finish(sc_core::sc_time end) {
  record_until(end);
  if (end > last_) sample(end);
}

nlohmann::ordered_json Timeline::to_json() const {
  nlohmann::ordered_json j;
  j["interval_ns"] = std::round(interval_.to_seconds() * 1e12) / 1e3;
  j["time_ns"] = time_ns_;
  nlohmann::ordered_json nodes = nlohmann::ordered_json::object();
  for (size_t k = 0; k < bandwidth_.size(); ++k)
    nodes[fabric_.address_map()[k].name] = {{"bandwidth_GBps", bandwidth_[k]}, {"pages", pages_on_[k]}};
  j["nodes"] = nodes;
  j["truncated"] = truncated_;
  return j;
}

}  // namespace starnuma
