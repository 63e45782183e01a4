// Intel Memory Latency Checker's measurements as its text shows them: the idle latency matrix,
// the bandwidth matrix, the peak injection bandwidths per read-write mix and the loaded-latency
// table. `starnuma mlc` writes the model's in this form and `starnuma calibrate` reads a real
// machine's (docs/hardware.md), so both go through the one format.
#pragma once

#include <string>
#include <vector>

namespace starnuma {

struct MlcMatrix {
  std::vector<int> rows, columns;           // NUMA node numbers: requesters, memory nodes
  std::vector<std::vector<double>> values;  // [row][column]; NaN where MLC printed none
  bool empty() const { return rows.empty(); }
};

struct MlcMix {
  std::string name;  // as MLC prints it: "ALL Reads", "3:1 Reads-Writes", ...
  double mb_per_s = 0;
};

struct MlcLoadedPoint {
  long delay = 0;  // MLC: the traffic threads' delay loop; starnuma mlc: each requester's mean gap in ns
  double latency_ns = 0, mb_per_s = 0;
};

struct MlcReport {
  std::vector<std::string> notes;  // lines before the first section (version, command line, ...)
  MlcMatrix idle_latency_ns;
  MlcMatrix bandwidth_mb_per_s;
  std::vector<MlcMix> peak_injection;
  std::string loaded_traffic;  // the loaded-latency section's "Using ... traffic type" line, if any
  std::vector<MlcLoadedPoint> loaded_latency;
};

// The mixes `--peak_injection_bandwidth` prints, with each one's share of writes in memory traffic
// (MLC counts a store's read for ownership among the reads). "Stream-triad like" (two read
// streams and one non-temporal write stream) is the same 2:1 traffic at the memory.
struct MlcMixShare {
  const char* name;
  double write_fraction;
};
const std::vector<MlcMixShare>& mlc_mixes();

// MLC's text (tab-separated, as v3.x prints it).
std::string mlc_text(const MlcReport& report);

// Reads MLC's output: any of the sections above, in any order, other lines ignored. A section
// whose rows cannot be read is a starnuma/input error naming `source`, the line and what was
// expected; text with none of the sections is one too.
MlcReport parse_mlc(const std::string& text, const std::string& source);

}  // namespace starnuma
