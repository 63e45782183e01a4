// Where a sweep's runs execute: child processes on this machine (--executor local) or a Slurm job
// array (--executor slurm). Both start `starnuma sweep-task RUNDIR` per run and ingest RUNDIR as
// each finishes, so results are the same whichever ran them.
#pragma once

#include <string>
#include <vector>

#include "sweep/slurm_array.hpp"
#include "sweep/results_db.hpp"

namespace starnuma::cli {

struct PendingRun {
  std::string name, key, dir, stats_path;  // dir: absolute; stats_path: relative to the sweep folder
};

struct ExecutorOutcome {
  unsigned done = 0, failed = 0;
};

// Keeps `jobs` runs going until every one has finished; a progress display on stderr.
ExecutorOutcome run_local(ResultsDb& db, const std::vector<PendingRun>& runs, unsigned jobs, bool progress);
// Submits the runs as one job array with sbatch from `sweep_dir`/slurm/, follows it with squeue and
// the runs' result files, and ingests each run as it finishes.
ExecutorOutcome run_slurm(ResultsDb& db, const std::vector<PendingRun>& runs, const std::string& sweep_dir,
                          const std::string& sweep_name, const SlurmOptions& slurm, bool progress);

}  // namespace starnuma::cli
