#include "debug/transactions.hpp"

#include <nlohmann/json.hpp>

#include "common/diagnostics.hpp"
#include "common/output_file.hpp"
#include "debug/time_window.hpp"
#include "common/text.hpp"

namespace starnuma {

namespace {

// Trace Event times are microseconds; ours are picoseconds, kept exact as decimals.
double us(int64_t ps) { return static_cast<double>(ps) / 1e6; }

uint64_t address_bound(const std::string& text, const std::string& option) {
  try {
    size_t used = 0;
    const uint64_t v = std::stoull(text, &used, 0);
    if (used == text.size()) return v;
  } catch (const std::exception&) {
  }
  report_error(msg::kUsage, option + ": '" + text + "' is not an address (decimal, or hex with 0x)");
}

}  // namespace

TransactionOptions transaction_options(const std::string& path, uint64_t every, const std::string& addresses,
                                       const std::vector<std::string>& sockets, const std::string& window) {
  TransactionOptions o;
  o.path = path;
  if (every == 0) report_error(msg::kUsage, "--trace-every: give 1 (every miss) or more");
  o.every = every;
  if (!addresses.empty()) {
    const size_t colon = addresses.find(':');
    if (colon == std::string::npos)
      report_error(msg::kUsage, "--trace-addresses " + addresses + ": expected LOW:HIGH (e.g. 0x1000000:0x2000000)");
    if (colon > 0) o.low = address_bound(addresses.substr(0, colon), "--trace-addresses");
    if (colon + 1 < addresses.size()) o.high = address_bound(addresses.substr(colon + 1), "--trace-addresses");
    if (o.high <= o.low) report_error(msg::kUsage, "--trace-addresses " + addresses + ": an empty range");
  }
  if (!window.empty()) parse_time_window("--trace-window", window, o.start_ps, o.end_ps);
  o.sockets = sockets;
  check_output_path(path);
  return o;
}

TransactionTrace::TransactionTrace(TransactionOptions options, const std::vector<std::string>& socket_names)
    : options_(std::move(options)), seen_(socket_names.size(), 0), wanted_(socket_names.size(), true) {
  if (!options_.sockets.empty()) {
    for (size_t s = 0; s < socket_names.size(); ++s) wanted_[s] = false;
    for (const std::string& name : options_.sockets) {
      bool found = false;
      for (size_t s = 0; s < socket_names.size(); ++s)
        if (socket_names[s] == name) wanted_[s] = found = true;
      if (!found)
        report_error(msg::kUsage, "--trace-sockets: no socket '" + name + "' (sockets: " + join(socket_names) + ")");
    }
  }
}

std::pair<int, int> TransactionTrace::track(const std::string& where) {
  auto it = threads_.find(where);
  if (it != threads_.end()) return it->second;
  const std::string top = where.substr(0, where.find('.'));
  auto [p, added] = processes_.emplace(top, static_cast<int>(processes_.size()) + 1);
  if (added) {
    nlohmann::ordered_json m{{"ph", "M"}, {"name", "process_name"}, {"pid", p->second}, {"args", {{"name", top}}}};
    events_ += (events_.empty() ? "" : ",\n") + m.dump();
  }
  const int tid = static_cast<int>(threads_.size()) + 1;
  threads_.emplace(where, std::make_pair(p->second, tid));
  nlohmann::ordered_json m{
      {"ph", "M"}, {"name", "thread_name"}, {"pid", p->second}, {"tid", tid}, {"args", {{"name", where}}}};
  events_ += ",\n" + m.dump();
  return {p->second, tid};
}

void TransactionTrace::record(const std::string& core, bool store, uint64_t vaddr, uint64_t paddr,
                              const char* path_class, Time lookup_from, Time lookup_end, Time issue, Time done) {
  const uint64_t id = ++transactions_;
  struct Slice {
    std::string where, name;
    const char* cat;
    int64_t from_ps, dur_ps;
  };
  std::vector<Slice> slices;
  slices.push_back({core, "L1, L2 and LLC lookups", "caches", lookup_from.ps(), (lookup_end - lookup_from).ps()});
  if (issue > lookup_end)
    slices.push_back({core, "waiting for an LLC miss slot", "caches", lookup_end.ps(), (issue - lookup_end).ps()});
  int64_t t = issue.ps();
  for (const PathStep& step : scratch_.steps) {
    if (step.time.ps() <= 0) continue;
    slices.push_back({step.where, step.what, "memory", t, step.time.ps()});
    t += step.time.ps();
  }
  if (t != done.ps())
    report_internal("transaction trace: the steps of a miss add up to " + std::to_string(t - issue.ps()) +
                    " ps, its latency is " + std::to_string((done - issue).ps()) + " ps");

  // The whole transaction on its core's track, then its steps, a flow arrow through them.
  const auto [core_pid, core_tid] = track(core);
  nlohmann::ordered_json whole{{"ph", "X"},
                               {"name", std::string(store ? "write " : "read ") + hex(paddr) + " (" + path_class + ")"},
                               {"cat", "transaction"},
                               {"ts", us(lookup_from.ps())},
                               {"dur", us((done - lookup_from).ps())},
                               {"pid", core_pid},
                               {"tid", core_tid},
                               {"args",
                                {{"transaction", id},
                                 {"op", store ? "write" : "read"},
                                 {"virtual_address", hex(vaddr)},
                                 {"physical_address", hex(paddr)},
                                 {"path", path_class},
                                 {"issue_ns", issue.ns()},
                                 {"latency_ns", (done - issue).ns()}}}};
  events_ += ",\n" + whole.dump();
  for (size_t i = 0; i < slices.size(); ++i) {
    const Slice& x = slices[i];
    const auto [pid, tid] = track(x.where);
    nlohmann::ordered_json e{{"ph", "X"},           {"name", x.name}, {"cat", x.cat}, {"ts", us(x.from_ps)},
                             {"dur", us(x.dur_ps)}, {"pid", pid},     {"tid", tid},   {"args", {{"transaction", id}}}};
    events_ += ",\n" + e.dump();
    const char* phase = i == 0 ? "s" : i + 1 == slices.size() ? "f" : "t";
    nlohmann::ordered_json f{{"ph", phase}, {"name", "transaction"}, {"cat", "flow"},
                             {"id", id},    {"ts", us(x.from_ps)},   {"pid", pid},
                             {"tid", tid}};
    if (i > 0) f["bp"] = "e";
    events_ += ",\n" + f.dump();
  }
}

void TransactionTrace::write() const {
  std::string out =
      "{\"displayTimeUnit\": \"ns\",\n\"otherData\": {\"generator\": \"starnuma run "
      "--trace-transactions\", \"every\": " +
      std::to_string(options_.every) + ", \"transactions\": " + std::to_string(transactions_) +
      "},\n\"traceEvents\": [\n" + events_ + "\n]}\n";
  write_file_atomically(options_.path, out);
}

}  // namespace starnuma
