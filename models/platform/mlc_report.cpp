#include "platform/mlc_report.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "common/diagnostics.hpp"

namespace starnuma {

const std::vector<MlcMixShare>& mlc_mixes() {
  static const std::vector<MlcMixShare> mixes{{"ALL Reads", 0.0},
                                              {"3:1 Reads-Writes", 0.25},
                                              {"2:1 Reads-Writes", 1.0 / 3},
                                              {"1:1 Reads-Writes", 0.5},
                                              {"Stream-triad like", 1.0 / 3}};
  return mixes;
}

namespace {

std::string fixed(double x, int digits) {
  char s[64];
  std::snprintf(s, sizeof s, "%.*f", digits, x);
  return s;
}

void matrix_text(std::ostringstream& out, const MlcMatrix& m, int digits) {
  out << "\t\tNuma node\nNuma node";
  for (int c : m.columns) out << '\t' << std::string(6 - std::min<size_t>(6, std::to_string(c).size()), ' ') << c;
  out << '\n';
  for (size_t r = 0; r < m.rows.size(); ++r) {
    const std::string id = std::to_string(m.rows[r]);
    out << std::string(8 - std::min<size_t>(8, id.size()), ' ') << id;
    for (double v : m.values[r]) out << '\t' << (std::isnan(v) ? std::string("     -") : fixed(v, digits));
    out << '\n';
  }
}

// The whitespace-separated words of a line.
std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> w;
  for (std::string s; in >> s;) w.push_back(s);
  return w;
}

bool number(const std::string& s, double& x) {
  if (s == "-") {
    x = NAN;
    return true;
  }
  char* end = nullptr;
  x = std::strtod(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size() && std::isfinite(x);
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

std::string trimmed(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

class Parser {
 public:
  Parser(const std::string& text, const std::string& source) : source_(source) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines_.push_back(line);
    }
  }

  MlcReport parse() {
    bool any = false;
    while (at_ < lines_.size()) {
      const std::string line = trimmed(lines_[at_]);
      ++at_;
      if (starts_with(line, "Measuring idle latencies")) {
        report_.idle_latency_ns = matrix(line);
      } else if (starts_with(line, "Measuring Memory Bandwidths between nodes")) {
        report_.bandwidth_mb_per_s = matrix(line);
      } else if (starts_with(line, "Measuring Peak Injection Memory Bandwidths")) {
        peak_injection(line);
      } else if (starts_with(line, "Measuring Loaded Latencies")) {
        loaded_latency(line);
      } else {
        if (!any && !line.empty()) report_.notes.push_back(line);
        continue;
      }
      any = true;
    }
    if (!any)
      fail(0,
           "no section of Intel MLC's output (\"Measuring idle latencies\", \"Measuring Peak Injection Memory "
           "Bandwidths\", \"Measuring Loaded Latencies\", \"Measuring Memory Bandwidths between nodes\")");
    return report_;
  }

 private:
  [[noreturn]] void fail(size_t line, const std::string& what) const {
    report_error(msg::kInput, source_ + (line ? ":" + std::to_string(line) : std::string()) + ": " + what);
  }

  // The header "Numa node  0  1 ..." and rows "k  v v ...", up to the first other line.
  MlcMatrix matrix(const std::string& section) {
    const size_t start = at_;
    MlcMatrix m;
    for (; at_ < lines_.size(); ++at_) {
      const std::vector<std::string> w = words(lines_[at_]);
      if (w.size() >= 3 && w[0] == "Numa" && w[1] == "node") {
        for (size_t k = 2; k < w.size(); ++k) {
          double c;
          if (!number(w[k], c) || c != std::floor(c)) fail(at_ + 1, "a NUMA node number, not '" + w[k] + "'");
          m.columns.push_back(static_cast<int>(c));
        }
        ++at_;
        break;
      }
      if (starts_with(trimmed(lines_[at_]), "Measuring")) break;
    }
    if (m.columns.empty()) fail(start, "'" + section + "' has no \"Numa node 0 1 ...\" header");
    for (; at_ < lines_.size(); ++at_) {
      const std::vector<std::string> w = words(lines_[at_]);
      double id;
      if (w.empty() || !number(w[0], id)) break;
      if (w.size() != m.columns.size() + 1)
        fail(at_ + 1, "a row of " + std::to_string(m.columns.size()) + " values after its node number, not " +
                          std::to_string(w.size() - 1));
      std::vector<double> row;
      for (size_t k = 1; k < w.size(); ++k) {
        double v;
        if (!number(w[k], v)) fail(at_ + 1, "a number, not '" + w[k] + "'");
        row.push_back(v);
      }
      m.rows.push_back(static_cast<int>(id));
      m.values.push_back(std::move(row));
    }
    if (m.rows.empty()) fail(start, "'" + section + "' has no rows");
    return m;
  }

  // "ALL Reads        :	158844.5" lines.
  void peak_injection(const std::string& section) {
    const size_t start = at_;
    for (; at_ < lines_.size(); ++at_) {
      const std::string line = trimmed(lines_[at_]);
      if (starts_with(line, "Measuring")) break;
      const size_t colon = line.rfind(':');
      if (colon == std::string::npos) {
        if (line.empty() && !report_.peak_injection.empty()) break;
        continue;
      }
      double v;
      if (!number(trimmed(line.substr(colon + 1)), v))
        fail(at_ + 1, "a bandwidth in MB/sec after '" + trimmed(line.substr(0, colon)) + " :'");
      report_.peak_injection.push_back({trimmed(line.substr(0, colon)), v});
    }
    if (report_.peak_injection.empty()) fail(start, "'" + section + "' has no \"NAME : MB/sec\" lines");
  }

  // Rows "delay  latency  bandwidth" after the "=====" line.
  void loaded_latency(const std::string& section) {
    const size_t start = at_;
    for (; at_ < lines_.size(); ++at_) {
      const std::string line = trimmed(lines_[at_]);
      if (starts_with(line, "Using") && line.find("traffic type") != std::string::npos) report_.loaded_traffic = line;
      if (starts_with(line, "=====")) break;
      if (starts_with(line, "Measuring")) fail(at_ + 1, "'" + section + "' has no \"=====\" line before its rows");
    }
    for (++at_; at_ < lines_.size(); ++at_) {
      const std::vector<std::string> w = words(lines_[at_]);
      double delay;
      if (w.empty() || !number(w[0], delay)) break;
      MlcLoadedPoint p;
      if (w.size() != 3 || !number(w[1], p.latency_ns) || !number(w[2], p.mb_per_s))
        fail(at_ + 1, "a row \"delay latency(ns) bandwidth(MB/sec)\"");
      p.delay = static_cast<long>(delay);
      report_.loaded_latency.push_back(p);
    }
    if (report_.loaded_latency.empty()) fail(start, "'" + section + "' has no rows");
  }

  std::string source_;
  std::vector<std::string> lines_;
  size_t at_ = 0;
  MlcReport report_;
};

}  // namespace

std::string mlc_text(const MlcReport& r) {
  std::ostringstream out;
  for (const std::string& n : r.notes) out << n << '\n';
  if (!r.idle_latency_ns.empty()) {
    out << "\nMeasuring idle latencies for random access (in ns)...\n";
    matrix_text(out, r.idle_latency_ns, 1);
  }
  if (!r.peak_injection.empty()) {
    out << "\nMeasuring Peak Injection Memory Bandwidths for the system\n"
           "Bandwidths are in MB/sec (1 MB/sec = 1,000,000 Bytes/sec)\n"
           "Using traffic with the following read-write ratios\n";
    for (const MlcMix& m : r.peak_injection) {
      std::string name = m.name;
      name.resize(std::max<size_t>(17, name.size()), ' ');
      out << name << ":\t" << fixed(m.mb_per_s, 1) << '\n';
    }
  }
  if (!r.bandwidth_mb_per_s.empty()) {
    out << "\nMeasuring Memory Bandwidths between nodes within system\n"
           "Bandwidths are in MB/sec (1 MB/sec = 1,000,000 Bytes/sec)\n"
           "Using Read-only traffic type\n";
    matrix_text(out, r.bandwidth_mb_per_s, 1);
  }
  if (!r.loaded_latency.empty()) {
    out << "\nMeasuring Loaded Latencies for the system\n";
    if (!r.loaded_traffic.empty()) out << r.loaded_traffic << '\n';
    out << "Inject\tLatency\tBandwidth\nDelay\t(ns)\tMB/sec\n==========================\n";
    for (const MlcLoadedPoint& p : r.loaded_latency) {
      char delay[32];
      std::snprintf(delay, sizeof delay, " %05ld", p.delay);
      const std::string bw = fixed(p.mb_per_s, 1);
      out << delay << '\t' << fixed(p.latency_ns, 2) << '\t' << std::string(9 - std::min<size_t>(9, bw.size()), ' ')
          << bw << '\n';
    }
  }
  return out.str();
}

MlcReport parse_mlc(const std::string& text, const std::string& source) { return Parser(text, source).parse(); }

}  // namespace starnuma
