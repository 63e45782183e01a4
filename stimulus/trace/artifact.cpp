#include "stimulus/trace/artifact.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <system_error>

#include "common/diagnostics.hpp"
#include "stimulus/trace/champsim.hpp"
#include "stimulus/trace/memtrace.hpp"

namespace starnuma::trace {

namespace fs = std::filesystem;

namespace {

// Decimal digits at s[at..] up to `end`; false if none or on overflow.
bool number(const std::string& s, size_t& at, size_t end, uint64_t& v) {
  const size_t start = at;
  v = 0;
  for (; at < end && s[at] >= '0' && s[at] <= '9'; ++at) {
    if (v > (UINT64_MAX - 9) / 10) return false;
    v = v * 10 + static_cast<uint64_t>(s[at] - '0');
  }
  return at > start;
}

// "champsim_T_P.trace[.xz]" or "mtrace_tT_P.out": the thread and phase.
bool parse_name(const std::string& name, bool& champsim, uint64_t& thread, uint64_t& phase) {
  size_t at = 0, end = name.size();
  std::string tail;
  if (name.rfind("champsim_", 0) == 0) {
    champsim = true;
    at = 9;
    tail = name.size() > 3 && name.compare(name.size() - 3, 3, ".xz") == 0 ? ".trace.xz" : ".trace";
  } else if (name.rfind("mtrace_t", 0) == 0) {
    champsim = false;
    at = 8;
    tail = ".out";
  } else {
    return false;
  }
  if (end < at + tail.size() || name.compare(end - tail.size(), tail.size(), tail) != 0) return false;
  end -= tail.size();
  if (!number(name, at, end, thread) || at == end || name[at++] != '_') return false;
  return number(name, at, end, phase) && at == end;
}

// "0-3 5 7-9", or "none".
std::string ranges(const std::vector<unsigned>& v) {
  std::string out;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    out += (out.empty() ? "" : " ") + std::to_string(v[i]) + (j > i ? "-" + std::to_string(v[j]) : "");
    i = j + 1;
  }
  return out.empty() ? "none" : out;
}

}  // namespace

bool is_trace_directory(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

ArtifactSet find_artifact_set(const std::string& dir, unsigned threads, std::optional<uint64_t> phase,
                              const std::vector<bool>& detailed) {
  // phase -> thread -> its files (ChampSim, memory-access)
  std::map<uint64_t, std::map<uint64_t, std::pair<std::string, std::string>>> found;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    bool champsim = false;
    uint64_t t = 0, p = 0;
    if (!parse_name(name, champsim, t, p)) continue;
    std::string& slot = champsim ? found[p][t].first : found[p][t].second;
    // Both a plain and an xz ChampSim trace: the xz one, as the artifact's run scripts take.
    if (slot.empty() || name.size() > fs::path(slot).filename().string().size()) slot = it->path().string();
  }
  if (ec) report_error(msg::kInput, dir + ": cannot read the directory: " + ec.message());
  if (found.empty())
    report_error(msg::kInput, dir + ": no artifact traces (champsim_T_P.trace[.xz] or mtrace_tT_P.out) in it");
  std::string phases;
  for (const auto& kv : found) phases += (phases.empty() ? "" : ", ") + std::to_string(kv.first);
  if (!phase) {
    if (found.size() > 1)
      report_error(msg::kUsage, dir + ": the trace set holds phases " + phases + "; say which with --trace-phase");
    phase = found.begin()->first;
  }
  const auto p = found.find(*phase);
  if (p == found.end())
    report_error(msg::kInput,
                 dir + ": no traces of phase " + std::to_string(*phase) + " (it holds phases " + phases + ")");
  const uint64_t set_threads = p->second.rbegin()->first + 1;
  if (set_threads != threads)
    report_error(msg::kInput, dir + ": phase " + std::to_string(*phase) + " has traces of " +
                                  std::to_string(set_threads) + " threads (0 to " + std::to_string(set_threads - 1) +
                                  "); this run has " + std::to_string(threads) + " (one per core of the platform)");
  ArtifactSet set;
  set.dir = dir;
  set.phase = *phase;
  std::vector<unsigned> champsim_threads, memtrace_threads;
  for (unsigned t = 0; t < threads; ++t) {
    const auto f = p->second.find(t);
    const std::string none;
    const std::string& cs = f == p->second.end() ? none : f->second.first;
    const std::string& mt = f == p->second.end() ? none : f->second.second;
    if (cs.empty() && mt.empty())
      report_error(msg::kInput, dir + ": thread " + std::to_string(t) + " has no trace of phase " +
                                    std::to_string(*phase) + " (champsim_" + std::to_string(t) + "_" +
                                    std::to_string(*phase) + ".trace[.xz] or mtrace_t" + std::to_string(t) + "_" +
                                    std::to_string(*phase) + ".out)");
    const bool use_champsim = !cs.empty() && (mt.empty() || (t < detailed.size() && detailed[t]));
    set.files.push_back(use_champsim ? cs : mt);
    set.champsim.push_back(use_champsim);
    (use_champsim ? champsim_threads : memtrace_threads).push_back(t);
  }
  set.description = "artifact:" + dir + " phase " + std::to_string(*phase) + " (ChampSim: " + ranges(champsim_threads) +
                    "; memory accesses: " + ranges(memtrace_threads) + ")";
  return set;
}

ArtifactWorkload::ArtifactWorkload(ArtifactSet set) : set_(std::move(set)) {
  for (unsigned t = 0; t < threads(); ++t) stream(t);  // opening checks a plain file's size
}

std::unique_ptr<ThreadStream> ArtifactWorkload::stream(unsigned thread) const {
  if (set_.champsim[thread]) return std::make_unique<ChampSimStream>(set_.files[thread], thread, kSharedSpace);
  return std::make_unique<MemTraceStream>(set_.files[thread], set_.phase * kArtifactPhaseInstructions);
}

void read_page_owners(const std::string& path, const std::function<void(uint64_t, uint64_t, uint64_t)>& each) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) report_error(msg::kInput, path + ": not a regular file (a page-owner file)");
  std::ifstream in(path);
  if (!in) report_error(msg::kInput, path + ": cannot open");
  std::string text;
  for (uint64_t line = 1; std::getline(in, text); ++line) {
    if (!text.empty() && text.back() == '\r') text.pop_back();
    size_t at = text.find_first_not_of(" \t");
    if (at == std::string::npos) continue;
    uint64_t page = 0, owner = 0;
    const bool ok = number(text, at, text.size(), page) && at < text.size() && (text[at] == ' ' || text[at] == '\t') &&
                    (at = text.find_first_not_of(" \t", at)) != std::string::npos &&
                    number(text, at, text.size(), owner) && text.find_first_not_of(" \t", at) == std::string::npos;
    if (!ok)
      report_error(msg::kInput, path + ": line " + std::to_string(line) +
                                    ": expected '<virtual page> <owner>' (two "
                                    "decimal numbers), got '" +
                                    text.substr(0, 80) + "'");
    each(line, page, owner);
  }
  if (in.bad()) report_error(msg::kInput, path + ": read error");
}

}  // namespace starnuma::trace
