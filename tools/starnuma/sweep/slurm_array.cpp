#include "sweep/slurm_array.hpp"

#include <chrono>
#include <filesystem>
#include <sstream>

#include <CLI/CLI.hpp>

#include "common/diagnostics.hpp"
#include "common/output_file.hpp"
#include "subprocess.hpp"

namespace starnuma::cli {

namespace fs = std::filesystem;

void add_slurm_options(CLI::App& cmd, SlurmOptions& slurm, const std::string& what) {
  cmd.add_option("--partition", slurm.partition, "slurm: partition (sbatch --partition)");
  cmd.add_option("--time", slurm.time, "slurm: time limit per " + what + " (sbatch --time)");
  cmd.add_option("--mem", slurm.memory, "slurm: memory per " + what + " (sbatch --mem)");
  cmd.add_option("--account", slurm.account, "slurm: account (sbatch --account)");
  cmd.add_option("--cpus-per-task", slurm.cpus_per_task, "slurm: CPUs per " + what)->check(CLI::Range(1u, 1024u));
  cmd.add_option("--sbatch-option", slurm.extra, "slurm: another sbatch option, passed through (repeatable)")
      ->allow_extra_args(false);
  cmd.add_option("--poll", slurm.poll_seconds, "slurm: seconds between looks at the queue")
      ->check(CLI::Range(0.1, 3600.0))
      ->capture_default_str();
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

SlurmArray::SlurmArray(const std::string& dir, const std::string& job_name, const std::string& who,
                       const std::vector<std::string>& lines, const std::string& command, const SlurmOptions& slurm)
    : dir_(dir) {
  fs::create_directories(dir);
  // Submissions within one second share a stamp: a counter keeps their files apart.
  std::string stamp = std::to_string(
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count());
  for (unsigned k = 1; fs::exists(dir + "/" + stamp + ".sh"); ++k)
    stamp = stamp.substr(0, stamp.find('-')) + "-" + std::to_string(k);
  std::string tasks;
  for (const std::string& l : lines) tasks += l + "\n";
  write_file_atomically(dir + "/" + stamp + ".tasks", tasks);
  std::string s = "#!/bin/bash\n# " + job_name + ": one array task per line of " + stamp + ".tasks (docs/cluster.md)\n";
  s += "#SBATCH --job-name=" + job_name + "\n";
  s += "#SBATCH --array=0-" + std::to_string(lines.size() - 1) + "\n";
  s += "#SBATCH --output=" + dir + "/%A_%a.out\n";
  s += "#SBATCH --cpus-per-task=" + std::to_string(slurm.cpus_per_task) + "\n";
  if (!slurm.partition.empty()) s += "#SBATCH --partition=" + slurm.partition + "\n";
  if (!slurm.time.empty()) s += "#SBATCH --time=" + slurm.time + "\n";
  if (!slurm.memory.empty()) s += "#SBATCH --mem=" + slurm.memory + "\n";
  if (!slurm.account.empty()) s += "#SBATCH --account=" + slurm.account + "\n";
  s += "set -eu\ntask=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" " + shell_quote(dir + "/" + stamp + ".tasks") + ")\n";
  s += command + "\n";
  script_ = dir + "/" + stamp + ".sh";
  write_file_atomically(script_, s);

  std::vector<std::string> sbatch{"sbatch", "--parsable"};
  sbatch.insert(sbatch.end(), slurm.extra.begin(), slurm.extra.end());
  sbatch.push_back(script_);
  std::string out, err;
  const int rc = run_program(sbatch, out, err);
  if (rc != 0)
    report_error(msg::kInput, who + ": sbatch " +
                                  std::string(rc == 127 ? "could not be started (is Slurm installed and on PATH?)"
                                                        : "failed (exit code " + std::to_string(rc) + ")") +
                                  (err.empty() ? "" : ": " + err));
  job_ = out.substr(0, out.find_first_of(";\n"));
}

std::set<size_t> SlurmArray::queued() const {
  std::string out, err;
  std::set<size_t> ids;
  if (run_program({"squeue", "-h", "-r", "-j", job_, "-o", "%K"}, out, err) != 0) return {~size_t{0}};
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty() && line.find_first_not_of("0123456789") == std::string::npos) ids.insert(std::stoul(line));
  return ids;
}

std::string SlurmArray::state(size_t task) const {
  std::string out, err;
  if (run_program({"sacct", "-n", "-P", "-X", "-j", job_ + "_" + std::to_string(task), "-o", "State,ExitCode"}, out,
                  err) != 0)
    return "";
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out.empty() ? "" : " (sacct: " + out + ")";
}

std::string SlurmArray::log(size_t task) const { return dir_ + "/" + job_ + "_" + std::to_string(task) + ".out"; }

}  // namespace starnuma::cli
