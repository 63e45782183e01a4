#include "stats.hpp"

#include <algorithm>
#include <cmath>

#include "component.hpp"
#include "diagnostics.hpp"

namespace starnuma {

StatBase::StatBase(StatOwner& owner, std::string name, std::string unit, std::string description)
    : info_(new Info{std::move(name), std::move(unit), std::move(description)}) {
  if (owner.find_stat(info_->name)) report_internal("statistic '" + info_->name + "' declared twice");
  owner.stats_.push_back(this);
}

const StatBase* StatOwner::find_stat(const std::string& name) const {
  for (const StatBase* s : stats_)
    if (s->name() == name) return s;
  return nullptr;
}

nlohmann::json Average::to_json(sc_core::sc_time) const {
  return {{"count", count()}, {"mean", mean()}, {"min", min()}, {"max", max()}};
}

void Average::reset() {
  sum_ = 0;
  count_ = 0;
  min_ = std::numeric_limits<double>::infinity();
  max_ = -std::numeric_limits<double>::infinity();
}

Histogram::Histogram(StatOwner& owner, std::string name, std::string unit, std::string description, double low,
                     double width, size_t bins)
    : StatBase(owner, std::move(name), std::move(unit), std::move(description)),
      low_(low),
      width_(width),
      bins_(bins, 0) {
  if (!(width > 0) || bins == 0) report_internal("histogram '" + this->name() + "' needs bins of positive width");
}

void Histogram::sample(double v) {
  ++count_;
  sum_ += v;
  if (v < low_) {
    ++underflow_;
    return;
  }
  double idx = std::floor((v - low_) / width_);
  if (idx >= static_cast<double>(bins_.size())) {
    ++overflow_;
    return;
  }
  ++bins_[static_cast<size_t>(idx)];
}

double Histogram::quantile(double q) const {
  if (count_ == 0) return 0.0;
  double target = q * static_cast<double>(count_);
  double seen = static_cast<double>(underflow_);
  if (target <= seen) return low_;
  for (size_t i = 0; i < bins_.size(); ++i) {
    double next = seen + static_cast<double>(bins_[i]);
    if (target <= next && bins_[i] > 0)
      return low_ + width_ * (static_cast<double>(i) + (target - seen) / static_cast<double>(bins_[i]));
    seen = next;
  }
  return low_ + width_ * static_cast<double>(bins_.size());  // in the overflow
}

nlohmann::json Histogram::to_json(sc_core::sc_time) const {
  return {{"count", count()},     {"mean", count_ ? sum_ / static_cast<double>(count_) : 0.0},
          {"low", low_},          {"width", width_},
          {"bins", bins_},        {"underflow", underflow_},
          {"overflow", overflow_}};
}

void Histogram::reset() {
  std::fill(bins_.begin(), bins_.end(), 0);
  underflow_ = overflow_ = count_ = 0;
  sum_ = 0;
}

LatencyHistogram::LatencyHistogram(StatOwner& owner, std::string name, std::string description)
    : StatBase(owner, std::move(name), "ns", std::move(description)), bins_(kBins, 0) {}

uint64_t LatencyHistogram::count() const {
  uint64_t n = 0;
  for (uint64_t c : bins_) n += c;
  return n;
}

void LatencyHistogram::add_to(std::vector<uint64_t>& sum) const {
  if (sum.size() != kBins) sum.assign(kBins, 0);
  for (size_t b = 0; b < kBins; ++b) sum[b] += bins_[b];
}

double LatencyHistogram::quantile_ps(const std::vector<uint64_t>& bins, double q) {
  uint64_t total = 0;
  for (uint64_t n : bins) total += n;
  if (total == 0) return 0;
  // The rank of the sample sought (1-based), and the bin holding it.
  const double rank = std::max(1.0, std::ceil(q * static_cast<double>(total)));
  uint64_t seen = 0;
  for (size_t b = 0; b < bins.size(); ++b) {
    if (bins[b] == 0 || static_cast<double>(seen + bins[b]) < rank) {
      seen += bins[b];
      continue;
    }
    // Bin b covers [low, next bin's low); its samples are taken as spread evenly across it.
    const double low = static_cast<double>(bin_low(b));
    const double width = static_cast<double>(bin_low(b + 1)) - low;
    return low + width * (rank - static_cast<double>(seen)) / static_cast<double>(bins[b]);
  }
  return 0;  // not reached: the last bin with samples holds the rank
}

nlohmann::json LatencyHistogram::to_json(sc_core::sc_time) const {
  return {{"count", count()},
          {"p50", quantile_ps(bins_, 0.5) / 1e3},
          {"p99", quantile_ps(bins_, 0.99) / 1e3},
          {"p999", quantile_ps(bins_, 0.999) / 1e3}};
}

void LatencyHistogram::reset() { std::fill(bins_.begin(), bins_.end(), 0); }

double Rate::per_second(sc_core::sc_time elapsed) const {
  double s = elapsed.to_seconds();
  return s > 0 ? static_cast<double>(events_) / s : 0.0;
}

nlohmann::json Rate::to_json(sc_core::sc_time elapsed) const {
  return {{"events", events_}, {"per_second", per_second(elapsed)}};
}

namespace {

void dump(const sc_core::sc_object& obj, nlohmann::json& out, sc_core::sc_time elapsed) {
  const auto* owner = dynamic_cast<const StatOwner*>(&obj);
  if (!owner || !owner->reports_stats()) return;  // plain SystemC objects (ports, events) carry none
  nlohmann::json& mine = out[obj.basename()];
  mine = nlohmann::json::object();
  for (const StatBase* s : owner->stats()) mine[s->name()] = s->to_json(elapsed);
  for (const sc_core::sc_object* child : obj.get_child_objects()) {
    if (mine.contains(child->basename()))
      report_internal(std::string("statistic and component share the name '") + child->name() + "'");
    dump(*child, mine, elapsed);
  }
}

}  // namespace

nlohmann::json stats_json(const std::vector<sc_core::sc_object*>& roots, sc_core::sc_time elapsed) {
  nlohmann::json out = nlohmann::json::object();
  for (const sc_core::sc_object* r : roots) dump(*r, out, elapsed);
  return out;
}

nlohmann::json stats_json(sc_core::sc_time elapsed) { return stats_json(sc_core::sc_get_top_level_objects(), elapsed); }

namespace {
void reset_tree(sc_core::sc_object& obj, bool (*keep)(const sc_core::sc_object&)) {
  if (keep && keep(obj)) return;
  if (auto* owner = dynamic_cast<StatOwner*>(&obj)) owner->reset_stats();
  for (sc_core::sc_object* child : obj.get_child_objects()) reset_tree(*child, keep);
}
}  // namespace

void reset_all_stats(bool (*keep)(const sc_core::sc_object&)) {
  for (sc_core::sc_object* r : sc_core::sc_get_top_level_objects()) reset_tree(*r, keep);
}

nlohmann::json stats_schema_json(const StatOwner& owner) {
  nlohmann::json out = nlohmann::json::object();
  for (const StatBase* s : owner.stats()) out[s->name()] = {{"unit", s->unit()}, {"description", s->description()}};
  return out;
}

}  // namespace starnuma
