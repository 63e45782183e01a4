// Statistics. A component declares its statistics as members, like its parameters:
//
//   Counter reads{*this, "reads", "requests", "Read requests served"};
//   Average latency{*this, "latency", "ns", "Request latency"};
//
// Updating one is a plain arithmetic operation (no allocation, no lookup) so it can sit on the
// hot path. stats_json() walks the component hierarchy and writes every statistic as nested JSON
// with sorted keys, so that two runs can be diffed.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <systemc>

namespace starnuma {

class StatOwner;

class StatBase {
 public:
  StatBase(const StatBase&) = delete;
  StatBase& operator=(const StatBase&) = delete;
  virtual ~StatBase() = default;
  const std::string& name() const { return info_->name; }
  const std::string& unit() const { return info_->unit; }
  const std::string& description() const { return info_->description; }
  // `elapsed` is the simulated time the statistic covers (for rates).
  virtual nlohmann::json to_json(sc_core::sc_time elapsed) const = 0;
  virtual void reset() = 0;

 protected:
  StatBase(StatOwner& owner, std::string name, std::string unit, std::string description);

 private:
  struct Info {
    std::string name, unit, description;
  };
  // Out of line, so that a component's counters sit next to each other in the host's caches.
  std::unique_ptr<const Info> info_;
};

class Counter : public StatBase {
 public:
  Counter(StatOwner& owner, std::string name, std::string unit, std::string description)
      : StatBase(owner, std::move(name), std::move(unit), std::move(description)) {}
  Counter& operator++() {
    ++value_;
    return *this;
  }
  Counter& operator+=(uint64_t n) {
    value_ += n;
    return *this;
  }
  uint64_t value() const { return value_; }
  nlohmann::json to_json(sc_core::sc_time) const override { return value_; }
  void reset() override { value_ = 0; }

 private:
  uint64_t value_ = 0;
};

// Mean, minimum and maximum of a sampled quantity.
class Average : public StatBase {
 public:
  Average(StatOwner& owner, std::string name, std::string unit, std::string description)
      : StatBase(owner, std::move(name), std::move(unit), std::move(description)) {}
  void sample(double v) {
    sum_ += v;
    ++count_;
    if (v < min_) min_ = v;
    if (v > max_) max_ = v;
  }
  uint64_t count() const { return count_; }
  double mean() const { return count_ ? sum_ / static_cast<double>(count_) : 0.0; }
  double min() const { return count_ ? min_ : 0.0; }
  double max() const { return count_ ? max_ : 0.0; }
  nlohmann::json to_json(sc_core::sc_time) const override;
  void reset() override;

 private:
  double sum_ = 0;
  uint64_t count_ = 0;
  double min_ = std::numeric_limits<double>::infinity();
  double max_ = -std::numeric_limits<double>::infinity();
};

// Fixed-width bins over [low, low + bins*width); samples outside land in underflow/overflow.
class Histogram : public StatBase {
 public:
  Histogram(StatOwner& owner, std::string name, std::string unit, std::string description, double low, double width,
            size_t bins);
  void sample(double v);
  uint64_t count() const { return count_; }
  uint64_t bin(size_t i) const { return bins_[i]; }
  size_t bins() const { return bins_.size(); }
  uint64_t underflow() const { return underflow_; }
  uint64_t overflow() const { return overflow_; }
  // The value below which fraction q of the samples lie, interpolated within a bin.
  double quantile(double q) const;
  nlohmann::json to_json(sc_core::sc_time) const override;
  void reset() override;

 private:
  double low_, width_;
  std::vector<uint64_t> bins_;
  uint64_t underflow_ = 0, overflow_ = 0, count_ = 0;
  double sum_ = 0;
};

// Latencies in integer picoseconds, in log-linear bins: exact below 32 ps, then 32 bins per power
// of two (each at most 1/32 of its value wide) up to 2^42 ps (4.4 s); longer ones land in the
// last bin. Sampling is a shift and an increment, so it sits on the hot path; quantiles are read
// within about 2 %. Cores keep one each; a run adds them up (add_to) for its percentiles.
class LatencyHistogram : public StatBase {
 public:
  static constexpr unsigned kSubBits = 5;
  static constexpr size_t kBins = size_t{38} << kSubBits;

  LatencyHistogram(StatOwner& owner, std::string name, std::string description);
  void sample(uint64_t ps) { ++bins_[bin_of(ps)]; }
  uint64_t count() const;  // the samples: the bins' sum
  // Adds this histogram's bins to `sum` (kBins long).
  void add_to(std::vector<uint64_t>& sum) const;
  // The nearest-rank q-quantile of bins in picoseconds: the value at which a share q of the samples
  // is reached, interpolated within its bin; 0 without samples.
  static double quantile_ps(const std::vector<uint64_t>& bins, double q);
  static size_t bin_of(uint64_t ps) {
    if (ps < (uint64_t{1} << kSubBits)) return static_cast<size_t>(ps);
    const unsigned shift = static_cast<unsigned>(63 - __builtin_clzll(ps)) - kSubBits;
    const size_t b = (size_t{shift + 1} << kSubBits) + ((ps >> shift) & ((uint64_t{1} << kSubBits) - 1));
    return b < kBins ? b : kBins - 1;
  }
  // The smallest value of bin b (its width: 1 below 64 ps, then doubling every 32 bins).
  static uint64_t bin_low(size_t b) {
    if (b < (size_t{1} << kSubBits)) return b;
    const unsigned shift = static_cast<unsigned>(b >> kSubBits) - 1;
    return ((uint64_t{1} << kSubBits) + (b & ((size_t{1} << kSubBits) - 1))) << shift;
  }
  // {count, p50, p99, p999} in ns.
  nlohmann::json to_json(sc_core::sc_time) const override;
  void reset() override;

 private:
  std::vector<uint64_t> bins_;
};

// Events per simulated second over the covered interval.
class Rate : public StatBase {
 public:
  Rate(StatOwner& owner, std::string name, std::string unit, std::string description)
      : StatBase(owner, std::move(name), std::move(unit), std::move(description)) {}
  Rate& operator+=(uint64_t n) {
    events_ += n;
    return *this;
  }
  Rate& operator++() {
    ++events_;
    return *this;
  }
  uint64_t events() const { return events_; }
  double per_second(sc_core::sc_time elapsed) const;
  nlohmann::json to_json(sc_core::sc_time elapsed) const override;
  void reset() override { events_ = 0; }

 private:
  uint64_t events_ = 0;
};

// A value computed when the statistics are written (utilization, mean wait), from state the
// component keeps anyway.
class Formula : public StatBase {
 public:
  using Fn = std::function<nlohmann::json(sc_core::sc_time elapsed)>;
  Formula(StatOwner& owner, std::string name, std::string unit, std::string description, Fn fn)
      : StatBase(owner, std::move(name), std::move(unit), std::move(description)), fn_(std::move(fn)) {}
  nlohmann::json to_json(sc_core::sc_time elapsed) const override { return fn_(elapsed); }
  void reset() override {}

 private:
  Fn fn_;
};

class StatOwner {
 public:
  virtual ~StatOwner() = default;
  const std::vector<StatBase*>& stats() const { return stats_; }
  const StatBase* find_stat(const std::string& name) const;
  // False leaves this owner and its children out of stats.json (a part that is switched off).
  virtual bool reports_stats() const { return true; }
  // Restarts every statistic (components with derived state of their own extend this).
  virtual void reset_stats() {
    for (StatBase* s : stats_) s->reset();
  }

 private:
  friend class StatBase;
  std::vector<StatBase*> stats_;
};

// Every statistic under `roots` (by default all top-level SystemC objects) as one JSON tree:
// {"nodes": {"socket0": {"memory": {"reads": 12, ...}}}}. Components without statistics are
// kept (empty objects) so the tree shows the whole hierarchy.
nlohmann::json stats_json(sc_core::sc_time elapsed);
nlohmann::json stats_json(const std::vector<sc_core::sc_object*>& roots, sc_core::sc_time elapsed);

// Restarts the statistics of every component under the top-level SystemC objects, except the
// subtrees of objects `keep` (if given) returns true for.
void reset_all_stats(bool (*keep)(const sc_core::sc_object&) = nullptr);

// The same tree's schema: name -> {unit, description}, for documentation.
nlohmann::json stats_schema_json(const StatOwner& owner);

}  // namespace starnuma
