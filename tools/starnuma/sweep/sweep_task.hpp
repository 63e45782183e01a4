// One run of a sweep as its own process, the same under every executor: `starnuma sweep-task
// RUNDIR` performs the commands of RUNDIR/task.json and writes RUNDIR/result.json last, atomically;
// the sweep then ingests the folder into the database. A run without a result.json of its own key
// did not finish.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "sweep/results_db.hpp"
#include "sweep/sweep_spec.hpp"

namespace starnuma::cli {

// Writes RUNDIR/task.json for `run` with `key`.
void write_task(const std::string& run_dir, const SweepRun& run, const std::string& key);
// `starnuma sweep-task RUNDIR`.
int sweep_task(const std::string& run_dir);

struct Ingested {
  bool finished = false;  // a result.json of this key exists
  bool done = false;      // and the run succeeded
  double host_seconds = 0;
  std::string error;  // a failure's exit code and stderr tail
};
// Reads the run's result into the database; `stats_path` is relative to the sweep folder.
// `missing`: what to say when the task left no result (the executor knows why).
Ingested ingest_run(ResultsDb& db, const std::string& run_dir, const std::string& name, const std::string& key,
                    const std::string& stats_path, const std::string& missing);

// The last `lines` lines of a text file (empty if none).
std::string file_tail(const std::string& path, size_t lines);
// The whole file (empty if it cannot be read).
std::string read_text(const std::string& path);

}  // namespace starnuma::cli
