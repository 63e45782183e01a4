// One Slurm job array, as `sweep --executor slurm` and `sample --executor slurm` submit it: a task
// list and a job script in a folder of their own, one array task per line of the list, submitted
// with sbatch and followed with squeue (docs/cluster.md).
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace starnuma::cli {

struct SlurmOptions {
  std::string partition, time, memory, account;
  std::vector<std::string> extra;  // further sbatch options, passed through
  unsigned cpus_per_task = 1;
  double poll_seconds = 2;
};

// The options above on a command (`what`: each task's name in the help, "run" or "window").
void add_slurm_options(CLI::App& cmd, SlurmOptions& slurm, const std::string& what);

std::string shell_quote(const std::string& s);

class SlurmArray {
 public:
  // Writes DIR/STAMP.tasks (the lines) and DIR/STAMP.sh, whose task i runs `command` (shell) with
  // $task set to line i, and submits it. `who` names the caller in errors ("sweep", "sample").
  // Raises starnuma/input when sbatch fails or is missing.
  SlurmArray(const std::string& dir, const std::string& job_name, const std::string& who,
             const std::vector<std::string>& lines, const std::string& command, const SlurmOptions& slurm);
  const std::string& job() const { return job_; }
  const std::string& script() const { return script_; }
  // The tasks still in the queue (pending or running); unknown (squeue failed): {~0}.
  std::set<size_t> queued() const;
  // Slurm's word on a task that left the queue without a result (needs accounting; else "").
  std::string state(size_t task) const;
  // Where Slurm keeps task i's output.
  std::string log(size_t task) const;

 private:
  std::string dir_, job_, script_;
};

}  // namespace starnuma::cli
