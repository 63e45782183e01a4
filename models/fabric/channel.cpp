#include "fabric/channel.hpp"

namespace starnuma {

Channel::Channel(StatOwner& owner, const std::string& direction, Bandwidth bandwidth, Time latency)
    : bandwidth_(bandwidth),
      latency_(latency),
      ps_per_byte_(1e12 / bandwidth.bytes_per_s()),
      messages_(owner, direction + "_messages", "messages", "Messages sent in direction " + direction),
      bytes_(owner, direction + "_bytes", "B", "Bytes sent in direction " + direction),
      queued_(owner, direction + "_queued", "messages", "Messages that waited for the link to free"),
      utilization_stat_(owner, direction + "_utilization", "fraction", "Busy fraction of the simulated time",
                        [this](sc_core::sc_time t) { return utilization(Time::from_ps(static_cast<int64_t>(t.to_seconds() * 1e12 + 0.5))); }),
      wait_stat_(owner, direction + "_mean_wait", "ns", "Mean queueing wait per message",
                 [this](sc_core::sc_time) { return mean_wait_ns(); }) {}

double Channel::utilization(Time elapsed) const {
  return elapsed.ps() > 0 ? static_cast<double>(busy_ps_) / static_cast<double>(elapsed.ps()) : 0.0;
}

double Channel::mean_wait_ns() const {
  return messages_.value() ? static_cast<double>(wait_ps_) / 1e3 / static_cast<double>(messages_.value()) : 0.0;
}

}  // namespace starnuma
