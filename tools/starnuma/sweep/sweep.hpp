// `starnuma sweep SPEC.yaml --out DIR` and `starnuma report DIR` (docs/sweeps.md, docs/reports.md).
#pragma once

#include <string>

#include "sweep/sweep_executors.hpp"

namespace starnuma::cli {

struct SweepArgs {
  std::string spec, out;
  std::string executor = "local";
  unsigned jobs = 1;      // local: runs at once
  unsigned attempts = 3;  // a failed run is retried until it has failed this often
  bool dry_run = false, progress = true;
  std::string only;  // a glob: only the runs it names (one part again after a model change)
  SlurmOptions slurm;
};
// Checks every run of the sweep file, then runs what is not done on the chosen executor.
int sweep(const SweepArgs& args);

struct ReportArgs {
  std::string dir, format = "html", out;
};
// Draws a sweep's results (tools/report/report.py); returns only on failure.
int report(const ReportArgs& args);

}  // namespace starnuma::cli
