// The command line of the sweeps: `sweep`, `sweep-task` (one run, as an executor starts it) and
// `report` (docs/sweeps.md, docs/reports.md).
#include <algorithm>
#include <thread>

#include "cli.hpp"
#include "sweep/sweep.hpp"
#include "sweep/sweep_task.hpp"

namespace starnuma::cli {

Command add_sweep(CLI::App& app) {
  auto a = std::make_shared<SweepArgs>();
  SweepArgs& sw = *a;
  sw.jobs = std::max(1u, std::thread::hardware_concurrency());
  CLI::App* cmd = app.add_subcommand("sweep",
                                     "Run a sweep file's runs (here or on a Slurm cluster) into DIR/sweep.db, "
                                     "resuming what is not done (docs/sweeps.md)");
  cmd->add_option("spec", sw.spec, "Sweep YAML file")->required()->check(CLI::ExistingFile);
  cmd->add_option("--out", sw.out, "Sweep folder: sweep.db, runs/NAME/, platforms/")->required();
  cmd->add_option("--executor", sw.executor, "local (child processes) or slurm (an sbatch job array)")
      ->check(CLI::IsMember({"local", "slurm"}))
      ->capture_default_str();
  cmd->add_option("--jobs", sw.jobs, "local: runs at once (default: the host's cores)")->check(CLI::Range(1u, 4096u));
  cmd->add_option("--attempts", sw.attempts, "Attempts a run gets before a failure is final")
      ->check(CLI::Range(1u, 100u))
      ->capture_default_str();
  cmd->add_flag("--dry-run", sw.dry_run, "Check every run and list them with their status; run nothing");
  cmd->add_option("--only", sw.only,
                  "Only the runs whose names match this glob (e.g. 'sampled-*': one part again after a model "
                  "change; the others are left as they are)");
  cmd->add_flag("!--no-progress", sw.progress, "No progress display on stderr");
  add_slurm_options(*cmd, sw.slurm, "run");
  return {cmd, [a] { return sweep(*a); }};
}

Command add_sweep_task(CLI::App& app) {
  auto dir = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("sweep-task", "One run of a sweep, as its executor starts it (internal)");
  cmd->group("");  // not for users: listed nowhere
  cmd->add_option("run_dir", *dir, "The run's folder")->required();
  return {cmd, [dir] { return sweep_task(*dir); }};
}

Command add_report(CLI::App& app) {
  auto a = std::make_shared<ReportArgs>();
  CLI::App* cmd =
      app.add_subcommand("report", "Figures and tables of a sweep's results: HTML, Markdown or PNG (docs/reports.md)");
  cmd->add_option("dir", a->dir, "Sweep folder")->required();
  cmd->add_option("--format", a->format, "html (one self-contained page), md or png")
      ->check(CLI::IsMember({"html", "md", "png"}))
      ->capture_default_str();
  cmd->add_option("--out", a->out, "Report folder (default: DIR/report)");
  return {cmd, [a] { return report(*a); }};
}

}  // namespace starnuma::cli
