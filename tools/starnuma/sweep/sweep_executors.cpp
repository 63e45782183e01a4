#include "sweep/sweep_executors.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "common/diagnostics.hpp"
#include "common/output_file.hpp"
#include "subprocess.hpp"
#include "sweep/sweep_task.hpp"

namespace starnuma::cli {
namespace fs = std::filesystem;
namespace {

std::string duration(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char b[32];
  if (s >= 3600) std::snprintf(b, sizeof b, "%ldh%02ldm", s / 3600, s / 60 % 60);
  else if (s >= 60) std::snprintf(b, sizeof b, "%ldm%02lds", s / 60, s % 60);
  else std::snprintf(b, sizeof b, "%lds", s);
  return b;
}

// One line on stderr: runs done, failed, running, and the time left at the pace so far. On a
// terminal it is redrawn in place; otherwise a line per finished run.
class Progress {
 public:
  Progress(size_t total, bool enabled)
      : total_(total), enabled_(enabled), tty_(isatty(STDERR_FILENO)), start_(std::chrono::steady_clock::now()) {}
  ~Progress() {
    if (enabled_ && tty_ && drawn_) std::fputc('\n', stderr);
  }
  void finished(const std::string& name, const Ingested& r) {
    (r.done ? done_ : failed_) += 1;
    last_ = name + (r.done ? "" : " FAILED") + " (" + duration(r.host_seconds) + ")";
    changed_ = true;
  }
  // Shows the state with `running` runs going: redrawn in place on a terminal; otherwise a line
  // when a run has finished since the last one.
  void show(size_t running) {
    if (!enabled_ || (!tty_ && !changed_) || (tty_ && !changed_ && running == running_ && drawn_)) return;
    running_ = running;
    changed_ = false;
    const size_t finished = done_ + failed_;
    std::string eta = finished == total_ ? "0s" : "-";
    if (finished > 0 && finished < total_) {
      // The pace so far (wall time per finished run) over the runs left.
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
      eta = duration(elapsed / static_cast<double>(finished) * static_cast<double>(total_ - finished));
    }
    std::fprintf(stderr, "%s[%zu/%zu] done %zu, failed %zu, running %zu, ETA %s%s%s", tty_ ? "\r\033[K" : "", finished,
                 total_, done_, failed_, running_, eta.c_str(), last_.empty() ? "" : "  last: ", last_.c_str());
    if (!tty_) std::fputc('\n', stderr);
    std::fflush(stderr);
    drawn_ = true;
  }
  ExecutorOutcome outcome() const { return {static_cast<unsigned>(done_), static_cast<unsigned>(failed_)}; }

 private:
  size_t total_;
  bool enabled_, tty_, drawn_ = false, changed_ = false;
  std::chrono::steady_clock::time_point start_;
  size_t done_ = 0, failed_ = 0, running_ = ~size_t{0};
  std::string last_;
};

}  // namespace

ExecutorOutcome run_local(ResultsDb& db, const std::vector<PendingRun>& runs, unsigned jobs, bool progress) {
  Progress shown(runs.size(), progress);
  std::map<pid_t, const PendingRun*> running;
  size_t next = 0;
  while (next < runs.size() || !running.empty()) {
    while (running.size() < jobs && next < runs.size()) {
      const PendingRun& r = runs[next++];
      db.mark_running(r.name, "local");
      running[spawn_self_to({"starnuma", "sweep-task", r.dir}, "/dev/null", r.dir + "/task.log")] = &r;
    }
    shown.show(running.size());
    int code = 0;
    const pid_t pid = wait_any(code);
    auto it = running.find(pid);
    if (it == running.end()) {
      if (pid < 0) report_internal("sweep: lost track of its runs");
      continue;
    }
    const PendingRun& r = *it->second;
    running.erase(it);
    const std::string missing =
        "the task ended (exit code " + std::to_string(code) + ") without a result; its log: " + r.dir + "/task.log";
    shown.finished(r.name, ingest_run(db, r.dir, r.name, r.key, r.stats_path, missing));
  }
  shown.show(0);
  return shown.outcome();
}

ExecutorOutcome run_slurm(ResultsDb& db, const std::vector<PendingRun>& runs, const std::string& sweep_dir,
                          const std::string& sweep_name, const SlurmOptions& slurm, bool progress) {
  if (runs.empty()) return {};
  // The binary must be reachable from the compute nodes at this path (a shared file system).
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  std::vector<std::string> dirs;
  for (const PendingRun& r : runs) dirs.push_back(r.dir);
  const SlurmArray array(sweep_dir + "/slurm", "starnuma-" + sweep_name, "sweep", dirs,
                         "exec " + shell_quote(self) + " sweep-task \"$task\"", slurm);
  const std::string& job = array.job();
  if (progress)
    std::fprintf(stderr, "sweep: Slurm job %s, %zu array tasks (script %s)\n", job.c_str(), runs.size(),
                 array.script().c_str());
  for (const PendingRun& r : runs) db.mark_running(r.name, "slurm:" + job);

  Progress shown(runs.size(), progress);
  std::vector<bool> open(runs.size(), true);
  std::vector<int> absent(runs.size(), 0);  // polls a task has been out of the queue without a result
  for (size_t left = runs.size(); left > 0;) {
    const std::set<size_t> queued = array.queued();
    const bool known = !queued.count(~size_t{0});
    for (size_t i = 0; i < runs.size(); ++i) {
      if (!open[i]) continue;
      const PendingRun& r = runs[i];
      Ingested in = ingest_run(db, r.dir, r.name, r.key, r.stats_path, "");
      // Out of the queue for two polls in a row and still no result: the task died (time limit,
      // memory, node failure) before writing one.
      if (!in.finished && known && !queued.count(i) && ++absent[i] >= 2)
        in = ingest_run(db, r.dir, r.name, r.key, r.stats_path,
                        "Slurm task " + job + "_" + std::to_string(i) + " left the queue without a result" +
                            array.state(i) + "; its log: " + array.log(i));
      if (!in.finished) continue;
      open[i] = false;
      --left;
      shown.finished(r.name, in);
    }
    shown.show(known ? queued.size() : 0);
    if (left > 0) std::this_thread::sleep_for(std::chrono::duration<double>(slurm.poll_seconds));
  }
  return shown.outcome();
}

}  // namespace starnuma::cli
