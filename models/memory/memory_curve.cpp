#include "memory/memory_curve.hpp"

#include <algorithm>
#include <cmath>
#include <queue>
#include <random>

namespace starnuma {

namespace {

struct Driver {
  Ddr5Controller& ddr;
  const MemoryCurveOptions& o;
  std::mt19937_64 rng;
  uint64_t lines, next_line = 0;
  std::vector<double> read_latencies;
  int64_t first = -1, last = 0;

  Driver(Ddr5Controller& c, const MemoryCurveOptions& opt)
      : ddr(c), o(opt), rng(opt.seed), lines(c.capacity().bytes() / kLineBytes) {
    read_latencies.reserve(o.requests);
  }
  double uniform() { return (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53; }
  // One access at `at` (ps); returns when its data is on the bus (reads) or it was accepted (writes).
  int64_t issue(int64_t at) {
    const uint64_t line = o.random ? rng() % lines : next_line++ % lines;
    const bool write = o.write_fraction > 0 && uniform() < o.write_fraction;
    const Time done = ddr.access(Time::from_ps(at), write ? MemOp::Write : MemOp::Read, line * kLineBytes, nullptr);
    if (!write) read_latencies.push_back((done - Time::from_ps(at)).ns());
    if (first < 0) first = at;
    last = std::max(last, done.ps() + (write ? 0 : ddr.burst_time().ps()));
    return done.ps();
  }
  MemoryCurvePoint result(double load) {
    MemoryCurvePoint p;
    p.load = load;
    const double span = static_cast<double>(last - first);
    p.achieved_gbps = span > 0 ? static_cast<double>(o.requests * kLineBytes) / span * 1e3 : 0;
    p.bus_utilization = ddr.bus_utilization(Time::from_ps(last - first));
    if (!read_latencies.empty()) {
      double sum = 0;
      for (double l : read_latencies) sum += l;
      p.mean_read_latency_ns = sum / static_cast<double>(read_latencies.size());
      const size_t k = std::min(read_latencies.size() - 1,
                                static_cast<size_t>(std::ceil(0.99 * static_cast<double>(read_latencies.size()))) - 1);
      std::nth_element(read_latencies.begin(), read_latencies.begin() + static_cast<std::ptrdiff_t>(k),
                       read_latencies.end());
      p.p99_read_latency_ns = read_latencies[k];
    }
    return p;
  }
};

}  // namespace

std::vector<MemoryCurvePoint> measure_memory_curve(Ddr5Controller& controller, const MemoryCurveOptions& o) {
  std::vector<MemoryCurvePoint> points;
  const double peak = controller.peak_bandwidth().gb_per_s();
  const int64_t start = 1'000'000;  // 1 us: clear of time 0
  for (double load : o.loads) {
    controller.clear();
    controller.reset_stats();
    Driver d(controller, o);
    const double mean_gap_ps = kLineBytes / (load * peak) * 1e3;
    double t = static_cast<double>(start);
    for (uint64_t i = 0; i < o.requests; ++i) {
      t += -std::log(d.uniform()) * mean_gap_ps;
      d.issue(static_cast<int64_t>(t));
    }
    MemoryCurvePoint p = d.result(load);
    p.offered_gbps = load * peak;
    points.push_back(p);
  }
  if (o.outstanding > 0) {
    controller.clear();
    controller.reset_stats();
    Driver d(controller, o);
    std::priority_queue<int64_t, std::vector<int64_t>, std::greater<int64_t>> slots;
    for (unsigned k = 0; k < o.outstanding; ++k) slots.push(start);
    for (uint64_t i = 0; i < o.requests; ++i) {
      const int64_t at = slots.top();
      slots.pop();
      slots.push(d.issue(at));
    }
    MemoryCurvePoint p = d.result(0);
    p.offered_gbps = peak;
    points.push_back(p);
  }
  return points;
}

}  // namespace starnuma
