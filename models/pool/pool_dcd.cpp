#include "pool/pool_dcd.hpp"

#include "common/bits.hpp"
#include "common/text.hpp"

namespace starnuma {

using namespace literals;

namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> w;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    const size_t start = i;
    while (i < s.size() && s[i] != ' ') ++i;
    if (i > start) w.push_back(s.substr(start, i - start));
  }
  return w;
}

// One event, "add|release SIZE at TIME|phase N"; its error, or empty.
std::string parse_event(std::string_view text, DcdEvent& e) {
  const std::vector<std::string_view> w = words(text);
  const bool by_phase = w.size() == 5 && w[3] == "phase";
  if ((w.size() != 4 && !by_phase) || (w[0] != "add" && w[0] != "release") || w[2] != "at")
    return "is not 'add SIZE at TIME', 'release SIZE at TIME' or '... at phase N'";
  e.kind = w[0] == "add" ? DcdEvent::Kind::Add : DcdEvent::Kind::Release;
  const Parsed<Size> size = parse_size(w[1]);
  if (!size) return size.error;
  if (size.value->bytes() == 0) return "moves no capacity";
  e.bytes = size.value->bytes();
  e.at_phase = by_phase;
  if (by_phase) {
    const Parsed<int64_t> n = parse_integer(w[4]);
    if (!n || *n.value < 1) return "names phase '" + std::string(w[4]) + "'; phases count from 1";
    e.phase = static_cast<uint64_t>(*n.value);
  } else {
    const Parsed<Time> t = parse_time(w[3]);
    if (!t) return t.error;
    e.at = *t.value;
  }
  e.text = std::string(trimmed(text));
  return {};
}

}  // namespace

DcdSchedule parse_dcd_schedule(std::string_view text) {
  DcdSchedule s;
  if (trimmed(text).empty()) return s;
  size_t start = 0;
  for (size_t k = 1;; ++k) {
    const size_t end = text.find(';', start);
    const std::string_view one = text.substr(start, end == std::string_view::npos ? end : end - start);
    DcdEvent e;
    if (const std::string bad = parse_event(one, e); !bad.empty()) {
      s.error = "event " + std::to_string(k) + " ('" + std::string(trimmed(one)) + "') " + bad;
      return s;
    }
    s.events.push_back(std::move(e));
    if (end == std::string_view::npos) return s;
    start = end + 1;
  }
}

PoolDcd::PoolDcd(const ScopeContext& c, Size device_capacity)
    : ParamScope(c),
      enabled_(*this, "enabled", false,
               "Dynamic capacity (CXL 3.x DCD; docs/cxl-device.md): the OS may use only the capacity the device "
               "has given it (initial, then the schedule's adds and releases); the OS moves pages out of a "
               "released extent before the release completes"),
      block_(*this, "block", 2_MiB,
             "The extent granule: every size given or taken is a multiple of it (a power of two, at least a "
             "4 KiB page)",
             between(4_KiB, 1_GiB)),
      initial_(*this, "initial", 0_B,
               "Capacity online when the run starts, from the bottom of the device (a DCD starts with none "
               "until the fabric manager adds some)"),
      schedule_(*this, "schedule", "",
                "Events in order, separated by ';': 'add SIZE at TIME', 'release SIZE at TIME', or '... at "
                "phase N' (when the mean thread has run N phases' instructions, os.phase_instructions). "
                "A release takes the top of what is online") {
  if (!is_power_of_two(block())) error_at("block", "must be a power of two, not " + block_.value_text());
  const DcdSchedule parsed = parse_dcd_schedule(schedule_.get());
  if (!parsed.error.empty()) error_at("schedule", parsed.error);
  events_ = parsed.events;
  if (initial() % block()) error_at("initial", "must be a multiple of block (" + block_.value_text() + ")");
  if (initial() > device_capacity.bytes())
    error_at("initial", "is more than the device's " + format_size(device_capacity));
  for (size_t k = 0; k < events_.size(); ++k)
    if (events_[k].bytes % block())
      error_at("schedule", "event " + std::to_string(k + 1) + " ('" + events_[k].text +
                               "') moves a size that is not a multiple of block (" + block_.value_text() + ")");
  if (!enabled() && (initial() || !events_.empty()))
    error_at(initial() ? "initial" : "schedule", "sets dynamic capacity, which needs enabled: true");
}

}  // namespace starnuma
