#include "debug/waves.hpp"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>

#include "common/component.hpp"
#include "common/diagnostics.hpp"
#include "common/host_memory_limit.hpp"
#include "common/interrupt_cleanup.hpp"
#include "common/output_file.hpp"
#include "debug/time_window.hpp"
#include "gtkwave/fstapi.h"

namespace starnuma {

namespace {

uint64_t mask(unsigned width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::vector<std::string> split_scope(const std::string& scope) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= scope.size()) {
    const size_t dot = std::min(scope.find('.', start), scope.size());
    if (dot > start) parts.push_back(scope.substr(start, dot - start));
    start = dot + 1;
  }
  return parts;
}

// VCD's short identifiers: base 94 over the printable characters.
std::string vcd_id(size_t i) {
  std::string id;
  do {
    id += static_cast<char>('!' + i % 94);
    i /= 94;
  } while (i);
  return id;
}

}  // namespace

WaveOptions wave_options(const std::string& path, const std::string& window, const std::vector<std::string>& filters) {
  WaveOptions o;
  o.path = path;
  if (!ends_with(path, ".fst") && !ends_with(path, ".vcd"))
    report_error(msg::kUsage, "--waves " + path + ": the file's extension says its format, .fst or .vcd");
  if (!window.empty()) parse_time_window("--waves-window", window, o.start_ps, o.end_ps);
  for (const std::string& f : filters)
    if (f.empty()) report_error(msg::kUsage, "--waves-filter: an empty pattern");
  o.filters = filters;
  check_output_path(path);
  return o;
}

Waves::Waves(WaveOptions options) : options_(std::move(options)), budget_(host_memory_limit() / 2) {}

bool Waves::wants(const std::string& scope) const {
  if (options_.filters.empty()) return true;
  for (const std::string& f : options_.filters)
    if (fnmatch(f.c_str(), scope.c_str(), 0) == 0 || fnmatch((f + ".*").c_str(), scope.c_str(), 0) == 0) return true;
  return false;
}

Waves::Signal Waves::declare(const std::string& scope, const std::string& name, unsigned width, bool level) {
  if (!wants(scope)) return kOff;
  vars_.push_back(Var{scope, name, std::clamp(width, 1u, 64u), level});
  return static_cast<Signal>(vars_.size() - 1);
}

Waves::Signal Waves::level(const std::string& scope, const std::string& name, unsigned width) {
  return declare(scope, name, width, true);
}
Waves::Signal Waves::value(const std::string& scope, const std::string& name, unsigned width) {
  return declare(scope, name, width, false);
}

void Waves::record(Signal s, int64_t t, int64_t v) {
  if (t >= options_.end_ps) return;
  Var& var = vars_[static_cast<size_t>(s)];
  if (t < options_.start_ps) {  // folded into the value the window opens with
    if (var.level) {
      var.initial += v;
    } else if (t >= var.initial_t) {
      var.initial = v;
      var.initial_t = t;
    }
    return;
  }
  // Growing the list holds the old and the new one (three times the old) for a moment.
  if (events_.size() == events_.capacity() && 3 * events_.capacity() * sizeof(Event) > budget_)
    report_error(msg::kUsage,
                 "--waves: the run's changes would take more than half the host memory this command may "
                 "use (" +
                     std::to_string(events_.size()) +
                     " changes held until the file is written): "
                     "give a --waves-window or a --waves-filter (docs/debugging.md)");
  events_.push_back(Event{t, v, static_cast<uint32_t>(s)});
}

template <class Init, class Emit>
void Waves::replay(Init init, Emit emit) const {
  std::vector<int64_t> now(vars_.size()), shown(vars_.size());
  for (size_t s = 0; s < vars_.size(); ++s) {
    now[s] = shown[s] = vars_[s].initial;
    init(s, static_cast<uint64_t>(now[s]) & mask(vars_[s].width));
  }
  std::vector<uint32_t> touched;
  for (size_t i = 0; i < events_.size();) {
    const int64_t t = events_[i].t;
    touched.clear();
    for (; i < events_.size() && events_[i].t == t; ++i) {
      const Event& e = events_[i];
      now[e.s] = vars_[e.s].level ? now[e.s] + e.v : e.v;
      touched.push_back(e.s);
    }
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (uint32_t s : touched) {
      if (now[s] == shown[s]) continue;  // up and down again at the same time
      shown[s] = now[s];
      emit(t, s, static_cast<uint64_t>(now[s]) & mask(vars_[s].width));
    }
  }
}

void Waves::write() {
  // Stable: a value set twice at the same time keeps its last setting.
  std::stable_sort(events_.begin(), events_.end(), [](const Event& a, const Event& b) { return a.t < b.t; });
  const std::string tmp = options_.path + ".partial-" + std::to_string(getpid());
  std::error_code ec;
  const std::filesystem::path target(options_.path);  // its folders, as check_output_path allowed
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), ec);
  if (ec) report_error(msg::kInput, "--waves " + options_.path + ": cannot create its folder (" + ec.message() + ")");
  TemporaryFileGuard guard(tmp);
  if (ends_with(options_.path, ".fst")) write_fst(tmp);
  else write_vcd(tmp);
  std::filesystem::rename(tmp, options_.path, ec);
  if (ec) report_error(msg::kInput, "--waves " + options_.path + ": cannot write it (" + ec.message() + ")");
}

// Opens and closes scopes around the variables, in scope order (VCD and FST declare alike).
template <class Open, class Close, class Declare>
void Waves::declare_in_scope_order(Open open, Close close, Declare declare) const {
  std::vector<size_t> order(vars_.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return vars_[a].scope < vars_[b].scope; });
  std::vector<std::string> current;
  for (size_t i : order) {
    const std::vector<std::string> parts = split_scope(vars_[i].scope);
    size_t common = 0;
    while (common < current.size() && common < parts.size() && current[common] == parts[common]) ++common;
    for (; current.size() > common; current.pop_back()) close();
    for (size_t k = common; k < parts.size(); ++k) {
      open(parts[k]);
      current.push_back(parts[k]);
    }
    declare(i);
  }
  for (; !current.empty(); current.pop_back()) close();
}

void Waves::write_vcd(const std::string& path) const {
  std::ofstream out(path, std::ios::trunc);
  if (!out) report_error(msg::kInput, "--waves " + options_.path + ": cannot write " + path);
  out << "$comment starnuma platform waves (docs/debugging.md) $end\n$timescale 1ps $end\n";
  declare_in_scope_order(
      [&](const std::string& s) { out << "$scope module " << s << " $end\n"; }, [&] { out << "$upscope $end\n"; },
      [&](size_t i) {
        out << "$var wire " << vars_[i].width << ' ' << vcd_id(i) << ' ' << vars_[i].name << " $end\n";
      });
  out << "$enddefinitions $end\n";
  auto value = [&](size_t s, uint64_t v) {
    if (vars_[s].width == 1) {
      out << (v ? '1' : '0') << vcd_id(s) << '\n';
      return;
    }
    std::string bits;
    do {
      bits += static_cast<char>('0' + (v & 1));
      v >>= 1;
    } while (v);
    std::reverse(bits.begin(), bits.end());
    out << 'b' << bits << ' ' << vcd_id(s) << '\n';
  };
  int64_t last = -1;
  out << '#' << options_.start_ps << "\n$dumpvars\n";
  replay([&](size_t s, uint64_t v) { value(s, v); },
         [&](int64_t t, size_t s, uint64_t v) {
           if (t != last) {
             if (last < 0) out << "$end\n";
             out << '#' << t << '\n';
             last = t;
           }
           value(s, v);
         });
  if (last < 0) out << "$end\n";
  out.flush();
  if (!out) report_error(msg::kInput, "--waves " + options_.path + ": cannot write " + path);
}

void Waves::write_fst(const std::string& path) const {
  void* fst = fstWriterCreate(path.c_str(), 1);
  if (!fst) report_error(msg::kInput, "--waves " + options_.path + ": cannot write " + path);
  fstWriterSetTimescale(fst, -12);
  fstWriterSetPackType(fst, FST_WR_PT_LZ4);
  fstWriterSetComment(fst, "starnuma platform waves (docs/debugging.md)");
  std::vector<fstHandle> handles(vars_.size());
  declare_in_scope_order([&](const std::string& s) { fstWriterSetScope(fst, FST_ST_VCD_MODULE, s.c_str(), nullptr); },
                         [&] { fstWriterSetUpscope(fst); },
                         [&](size_t i) {
                           handles[i] = fstWriterCreateVar(fst, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, vars_[i].width,
                                                           vars_[i].name.c_str(), 0);
                         });
  fstWriterEmitTimeChange(fst, static_cast<uint64_t>(options_.start_ps));
  int64_t last = options_.start_ps;
  replay([&](size_t s, uint64_t v) { fstWriterEmitValueChange64(fst, handles[s], vars_[s].width, v); },
         [&](int64_t t, size_t s, uint64_t v) {
           if (t != last) {
             fstWriterEmitTimeChange(fst, static_cast<uint64_t>(t));
             last = t;
           }
           fstWriterEmitValueChange64(fst, handles[s], vars_[s].width, v);
         });
  fstWriterClose(fst);
}

namespace {

void attach_under(sc_core::sc_object& object, Waves& waves) {
  if (auto* c = dynamic_cast<Component*>(&object)) c->attach_waves(waves);
  for (sc_core::sc_object* child : object.get_child_objects()) attach_under(*child, waves);
}

}  // namespace

void attach_waves(Waves& waves) {
  for (sc_core::sc_object* top : sc_core::sc_get_top_level_objects()) attach_under(*top, waves);
}

}  // namespace starnuma
