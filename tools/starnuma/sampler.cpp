// `starnuma sample`: the Sampler runs the windows in stages (boundaries before the units that need
// their copies; with --target-error, coarse strides before fine ones), then reports the aggregate
// and what the windows could not stand for (its shortfalls).
#include "sampler.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/diagnostics.hpp"
#include "common/json_text.hpp"
#include "common/output_file.hpp"
#include "os/checkpoint.hpp"
#include "run/sampled_window.hpp"
#include "run/unit_selection.hpp"
#include "stimulus/program_mix.hpp"
#include "stimulus/workload_registry.hpp"
#include "sample_shortfalls.hpp"
#include "sampled_aggregate.hpp"
#include "subprocess.hpp"

namespace starnuma::cli {

namespace {

namespace fs = std::filesystem;

// The windows' workload, built here once: each window is forked from this process (fork_self) and
// takes it instead of building it again, which at the paper's sizes is most of a window's cost.
// Returns the host seconds it took.
double build_workload_once(const std::string& checkpoint_file) {
  const auto start = std::chrono::steady_clock::now();
  const Checkpoint c = read_checkpoint(checkpoint_file);
  if (is_program_mix(c.workload)) return 0;  // the window refuses it, and says why
  unsigned threads = 0;
  for (unsigned cores : c.cores_per_socket) threads += cores;
  const auto sockets = static_cast<unsigned>(c.cores_per_socket.size());
  keep_workload(c.workload, threads, sockets, c.seed, make_workload(c.workload, threads, sockets, c.seed));
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A unit's distance from its boundary, in the mean thread's instructions (none before it).
uint64_t from_boundary(uint64_t unit_at, uint64_t boundary_at) { return unit_at - std::min(unit_at, boundary_at); }

// Each unit's --copies-done: how many of its boundary's copies a continuous run would have started
// by the unit, read from the boundary's window (its copies' starts in the mean thread's
// instructions from the phase's start; copies_started_by), at the unit's distance from the
// boundary in the pass: the window copies the rest from its start, through its warm-up, so that
// its measurement meets their traffic as a continuous run's does.
void unit_copies_done(const fs::path& manifest_path, const nlohmann::ordered_json& manifest,
                      const std::vector<std::pair<uint64_t, uint64_t>>& held,
                      const std::vector<std::string>& window_out, std::vector<std::string>& copies_done) try {
  std::map<uint64_t, nlohmann::ordered_json> boundary;  // phase: its window's migration record
  std::map<uint64_t, uint64_t> boundary_at = boundary_positions(manifest);
  for (size_t k = 0; k < held.size(); ++k) {
    if (held[k].second != 0) continue;
    const nlohmann::ordered_json w = read_json(fs::path(window_out[k]) / "stats.json", "a window's results");
    if (w.contains("migration") && !w["migration"]["per_phase"].empty())
      boundary[held[k].first] = w["migration"]["per_phase"][0];
  }
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> unit_at;
  for (const auto& u : manifest.value("units", nlohmann::ordered_json::array()))
    unit_at[{u.at("phase").get<uint64_t>(), u.at("unit").get<uint64_t>()}] = u.at("mean_instructions");
  for (size_t k = 0; k < held.size(); ++k) {
    if (held[k].second == 0) continue;
    const auto b = boundary.find(held[k].first);
    if (b == boundary.end()) continue;  // the phase's window moved nothing: neither does the unit
    const nlohmann::ordered_json& r = b->second;
    // Past the next boundary a continuous run starts no more of the phase's copies (it drops them).
    const auto next = boundary_at.find(held[k].first + 1);
    const uint64_t length = next != boundary_at.end() ? from_boundary(next->second, boundary_at[held[k].first])
                                                      : std::numeric_limits<uint64_t>::max();
    const uint64_t offset = std::min(from_boundary(unit_at.at(held[k]), boundary_at[held[k].first]), length);
    copies_done[k] = std::to_string(copies_started_by(
        r.value("copies_started_at_instructions", std::vector<uint64_t>{}),
        r.value("instructions_observed", uint64_t{0}), r.value("pages_to_copy", uint64_t{0}), offset));
  }
} catch (const nlohmann::json::exception& e) {
  report_error(msg::kInput, manifest_path.string() + ": " + e.what() +
                                " (written by an older starnuma? make the checkpoints again)");
}
// The checkpoints a manifest lists, in the execution's order: a boundary (unit 0), then the units
// inside the phase after it; each file's path and what it holds, (phase, unit).
void list_checkpoints(const fs::path& dir, const nlohmann::ordered_json& manifest, std::vector<std::string>& files,
                      std::vector<std::pair<uint64_t, uint64_t>>& held) {
  try {
    std::vector<std::tuple<uint64_t, uint64_t, std::string>> listed;
    for (const char* list : {"phases", "units"})
      for (const auto& p : manifest.value(list, nlohmann::ordered_json::array()))
        listed.emplace_back(p.at("phase").get<uint64_t>(), p.value("unit", uint64_t{0}),
                            (dir / p.at("file").get<std::string>()).string());
    std::sort(listed.begin(), listed.end());
    for (const auto& [phase, unit, file] : listed) {
      files.push_back(file);
      held.emplace_back(phase, unit);
    }
  } catch (const nlohmann::json::exception& e) {
    report_error(msg::kInput, (dir / "manifest.json").string() + ": " + e.what());
  }
}

// One `sample`: the windows, each its own forked `starnuma run --checkpoint`, `jobs` at once, in
// stages (boundaries before the units that need their copies; with --target-error, coarse
// strides before fine ones), then the aggregate.
class Sampler {
 public:
  explicit Sampler(const SampleArgs& sa) : sa_(sa), dir_(sa.checkpoints) {
    manifest_ =
        read_json(dir_ / "manifest.json", "the checkpoints' manifest (not a folder `starnuma checkpoint` wrote?)");
    list_checkpoints(dir_, manifest_, files_, held_);
    if (files_.empty()) report_error(msg::kInput, (dir_ / "manifest.json").string() + ": lists no checkpoints");
    find_next_boundaries();
    const uint64_t units = manifest_.value("units_per_phase", uint64_t{0});
    const uint64_t every = manifest_.value("unit_every", uint64_t{0});
    const bool at_random = manifest_.value("unit_jitter", false);
    const std::vector<uint64_t> at = every ? unit_positions() : std::vector<uint64_t>(held_.size());
    const std::vector<uint64_t> stretches = at_random ? unit_positions(true) : at;
    for (size_t k = 0; k < held_.size(); ++k) {
      // Units over the work: the boundaries' windows time the copies, the units alone estimate.
      estimate_.push_back(!every || held_[k].second != 0);
      places_.push_back(every ? (stretches[k] + every / 2) / every
                              : grid_place(held_[k].first, held_[k].second, units));
      if (estimate_.back()) estimate_places_.push_back(places_.back());
    }
    strides_ = sa.target_error > 0 ? stride_chain(estimate_places_, every ? 0 : units) : std::vector<uint64_t>{1};
    // Where the windows leave gaps, those measuring a phase's start are a stratum every stride runs
    // (units at random points have none).
    starts_phase_.assign(held_.size(), false);
    if (every && sa.instructions < every && !at_random) try {
        const PhaseStarts ps = phase_starts(manifest_, sa.warmup, sa.instructions);
        for (size_t k = 0; k < held_.size(); ++k) starts_phase_[k] = ps.starts.count(held_[k]) > 0;
      } catch (const nlohmann::json::exception& e) {
        report_error(msg::kInput, (dir_ / "manifest.json").string() + ": " + e.what() +
                                      " (written by an older starnuma? make the checkpoints again)");
      }
    window_out_.resize(files_.size());
    copies_done_.resize(files_.size());
    copies_to_.resize(files_.size());
    if (every && sa.common_span) time_copies(at);
    // The checkpoints carry LLCs when the pass warmed them (manifest "llcs").
    const bool carried = manifest_.contains("llcs");
    if (sa.warm_llcs_given && sa.warm_llcs && !carried)
      report_error(msg::kUsage, "--warm-llcs: the checkpoints in " + sa.checkpoints +
                                    " carry no LLCs (made with checkpoint --no-warm-llcs; make them again without it)");
    warm_llcs_ = sa.warm_llcs_given ? sa.warm_llcs : carried;
  }
  int run();

 private:
  // Each checkpoint's place in the mean thread's instructions (the manifest's), in files_' order.
  // (`stretches`: where their stretches start, which units at random points record; else where they are)
  std::vector<uint64_t> unit_positions(bool stretches = false) const;
  // Each boundary's window times its phase's copies as far as its furthest unit reads them
  // (unit_copies_done: its distance from the boundary), instead of extrapolating from its own
  // window's: the copies' pace follows the phase's IPC, which the window's start need not have.
  void time_copies(const std::vector<uint64_t>& at);
  // The units whose windows cross their next boundary, and where (next_boundary_).
  void find_next_boundaries();
  // Runs the windows at `stride` not run yet: their boundaries, then their units.
  void run_stride(uint64_t stride);
  void launch(size_t k);
  void reap_one();
  // The stage's windows queued for Slurm, as one job array, followed until each has its results.
  void run_on_slurm();
  // The windows run so far, each its stats.json checked against what the manifest says it holds.
  std::vector<nlohmann::ordered_json> results() const;
  void clean_up() const {
    std::error_code ec;
    if (sa_.out.empty()) fs::remove_all(out_, ec);
  }
  void print(const nlohmann::ordered_json& result) const;
  // How the windows were placed and warmed (sampled.json "method").
  nlohmann::ordered_json method(const std::vector<nlohmann::ordered_json>& windows) const;

  const SampleArgs& sa_;
  const fs::path dir_;
  nlohmann::ordered_json manifest_;
  std::vector<std::string> files_;
  std::vector<std::pair<uint64_t, uint64_t>> held_;  // what the manifest says each file holds: (phase, unit)
  std::vector<uint64_t> places_, strides_;
  std::vector<bool> estimate_;             // a window in the estimate (not a boundary's, with units over the work)
  std::vector<bool> starts_phase_;         // a unit's window measuring a phase's start, run at every stride
  std::vector<uint64_t> estimate_places_;  // those windows' places
  fs::path out_;
  unsigned jobs_ = 1;
  std::vector<std::string> window_out_;      // empty: not run
  std::vector<std::string> copies_done_;     // a unit's --copies-done, from its boundary's window
  std::vector<uint64_t> copies_to_;          // a boundary's --time-copies-to (0: none)
  std::vector<NextBoundary> next_boundary_;  // a unit's --next-boundary (no file: none)
  std::string trace_;                        // the recorded streams the pass read (manifest "trace"), if any
  bool warm_llcs_ = false;                   // the windows start with the checkpoints' LLCs
  std::vector<pid_t> running_;
  std::vector<size_t> running_index_;
  std::vector<std::vector<std::string>> slurm_args_;  // --executor slurm: the stage's windows, and which
  std::vector<size_t> slurm_index_;
  int failed_ = 0;
  size_t failed_index_ = 0;
};

void Sampler::launch(size_t k) {
  window_out_[k] = (out_ / ("window-" + std::to_string(k + 1))).string();
  std::vector<std::string> a{"starnuma",
                             "run",
                             sa_.platform.platform,
                             "--checkpoint",
                             files_[k],
                             "--instructions",
                             std::to_string(sa_.instructions),
                             "--warmup",
                             std::to_string(sa_.warmup),
                             "--out",
                             window_out_[k],
                             "--no-progress",
                             "--json",
                             "--detailed-sockets",
                             std::to_string(sa_.detailed_sockets)};
  // Every choice explicit, so a window means the same whatever run's defaults.
  a.push_back(sa_.common_span ? "--common-span" : "--per-thread-budgets");
  a.push_back(sa_.warm_tlbs ? "--warm-tlbs" : "--no-warm-tlbs");
  a.push_back(warm_llcs_ ? "--warm-llcs" : "--no-warm-llcs");
  if (!copies_done_[k].empty()) a.insert(a.end(), {"--copies-done", copies_done_[k]});
  if (const NextBoundary& next = next_boundary_[k]; !next.file.empty())
    a.insert(a.end(), {"--next-boundary", next.file, "--next-boundary-after", std::to_string(next.after)});
  if (copies_to_[k] > sa_.instructions) a.insert(a.end(), {"--time-copies-to", std::to_string(copies_to_[k])});
  if (!trace_.empty()) a.insert(a.end(), {"--trace-in", trace_});
  for (const auto& set : sa_.platform.sets) a.insert(a.end(), {"--set", set});
  if (sa_.executor == "slurm") {
    slurm_args_.push_back(std::move(a));
    slurm_index_.push_back(k);
    return;
  }
  while (running_.size() >= jobs_) reap_one();
  running_.push_back(fork_self(a));
  running_index_.push_back(k);
}

void Sampler::run_on_slurm() {
  if (slurm_args_.empty()) return;
  // Compute nodes run this binary and read these paths: a shared file system, absolute paths.
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  std::vector<std::string> lines;
  for (std::vector<std::string>& a : slurm_args_) {
    a[0] = self;
    std::string line;
    for (const std::string& arg : a) line += (line.empty() ? "" : " ") + shell_quote(arg);
    lines.push_back(line);
  }
  const SlurmArray array((out_ / "slurm").string(), "starnuma-sample", "sample", lines, "eval \"exec $task\"",
                         sa_.slurm);
  std::cerr << "sample: Slurm job " << array.job() << ", " << lines.size() << " windows (script " << array.script()
            << ")\n";
  std::vector<int> absent(lines.size(), 0);  // polls a window has been out of the queue without results
  for (size_t left = lines.size(); left > 0;) {
    const std::set<size_t> queued = array.queued();
    const bool known = !queued.count(~size_t{0});
    for (size_t i = 0; i < lines.size(); ++i) {
      if (absent[i] < 0) continue;
      const size_t k = slurm_index_[i];
      if (fs::exists(fs::path(window_out_[k]) / "stats.json")) {
        absent[i] = -1;
        --left;
        continue;
      }
      // Out of the queue two polls in a row and no results: the window failed (its error in the log).
      if (known && !queued.count(i) && ++absent[i] >= 2) {
        std::cerr << "sample: the window of " << files_[k] << " (Slurm task " << array.job() << "_" << i
                  << ") ended without results" << array.state(i) << "; its log: " << array.log(i) << "\n";
        if (!failed_) {
          failed_ = 1;
          failed_index_ = k;
        }
        absent[i] = -1;
        --left;
      }
    }
    if (left > 0) std::this_thread::sleep_for(std::chrono::duration<double>(sa_.slurm.poll_seconds));
  }
  slurm_args_.clear();
  slurm_index_.clear();
}

void Sampler::reap_one() {
  const int code = wait_for(running_.front());
  if (code && !failed_) {
    failed_ = code;
    failed_index_ = running_index_.front();
  }
  running_.erase(running_.begin());
  running_index_.erase(running_index_.begin());
}

std::vector<uint64_t> Sampler::unit_positions(bool stretches) const {
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> at;
  try {
    for (const auto& u : manifest_.at("units"))
      at[{u.at("phase"), u.at("unit")}] = stretches ? u.at("stretch_from") : u.at("mean_instructions");
  } catch (const nlohmann::json::exception& e) {
    report_error(msg::kInput, (dir_ / "manifest.json").string() + ": " + e.what());
  }
  std::vector<uint64_t> positions;
  for (const auto& h : held_) positions.push_back(h.second ? at[h] : 0);
  return positions;
}

void Sampler::find_next_boundaries() {
  next_boundary_.resize(files_.size());
  try {
    const auto crossing = next_boundaries(manifest_, sa_.warmup + sa_.instructions);
    for (size_t k = 0; k < held_.size(); ++k)
      if (const auto c = crossing.find(held_[k]); c != crossing.end())
        next_boundary_[k] = {(dir_ / c->second.file).string(), c->second.after};
  } catch (const nlohmann::json::exception& e) {
    report_error(msg::kInput, (dir_ / "manifest.json").string() + ": " + e.what() +
                                  " (written by an older starnuma? make the checkpoints again)");
  }
}

void Sampler::time_copies(const std::vector<uint64_t>& at) {
  const std::map<uint64_t, uint64_t> boundary_at = boundary_positions(manifest_);
  std::map<uint64_t, uint64_t> furthest;  // phase: its furthest unit's distance from the boundary
  for (size_t k = 0; k < held_.size(); ++k) {
    const auto b = boundary_at.find(held_[k].first);
    if (held_[k].second && b != boundary_at.end())
      furthest[b->first] = std::max(furthest[b->first], from_boundary(at[k], b->second));
  }
  for (size_t k = 0; k < held_.size(); ++k)
    if (const auto f = furthest.find(held_[k].first); held_[k].second == 0 && f != furthest.end())
      copies_to_[k] = f->second;
}

void Sampler::run_stride(uint64_t stride) {
  // Boundaries first: a unit's window needs its boundary's to know which copies are in flight.
  for (const bool units : {false, true}) {
    if (units && !failed_) unit_copies_done(dir_ / "manifest.json", manifest_, held_, window_out_, copies_done_);
    for (size_t k = 0; k < files_.size() && !failed_; ++k)
      if ((held_[k].second != 0) == units && (!estimate_[k] || starts_phase_[k] || places_[k] % stride == 0) &&
          window_out_[k].empty())
        launch(k);
    while (!running_.empty()) reap_one();
    run_on_slurm();
  }
}

std::vector<nlohmann::ordered_json> Sampler::results() const {
  std::vector<nlohmann::ordered_json> windows;
  for (size_t k = 0; k < files_.size(); ++k) {
    if (window_out_[k].empty()) continue;
    nlohmann::ordered_json j = read_json(fs::path(window_out_[k]) / "stats.json", "a window's results");
    // Of a window's statistics tree the aggregate keeps the coherence counters (summed_coherence)
    // and each core's instructions, cycles and barriers (thread_drift).
    nlohmann::ordered_json coherence = j["stats"].value("coherence", nlohmann::ordered_json::object());
    nlohmann::ordered_json cores = core_counts(j["stats"]);
    j["stats"] = {{"coherence", std::move(coherence)}, {"cores", std::move(cores)}};
    // A file replaced or swapped since the pass would time another phase under this one's name.
    const std::pair<uint64_t, uint64_t> holds{j.value("checkpoint_phase", uint64_t{0}),
                                              j.value("checkpoint_unit", uint64_t{0})};
    if (holds != held_[k]) {
      clean_up();
      const auto name = [](const std::pair<uint64_t, uint64_t>& h) {
        return "phase " + std::to_string(h.first) + (h.second ? " unit " + std::to_string(h.second) : "");
      };
      report_error(msg::kInput, files_[k] + ": holds " + name(holds) + ", the manifest says " + name(held_[k]) +
                                    " (checkpoint files swapped or replaced since the pass: make them again)");
    }
    if (!estimate_[k]) j["in_estimate"] = false;
    windows.push_back(std::move(j));
  }
  return windows;
}

int Sampler::run() {
  const bool keep = !sa_.out.empty();
  if (keep) {  // --out is replaced whole: it must not hold the input, nor be inside it
    const fs::path in = fs::weakly_canonical(dir_), to = fs::weakly_canonical(sa_.out);
    const auto within = [](const fs::path& inner, const fs::path& outer) {
      const auto [o, i] = std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end());
      return o == outer.end();
    };
    if (within(in, to) || within(to, in))
      report_error(msg::kUsage, "--out " + sa_.out + " and --checkpoints " + sa_.checkpoints +
                                    ": --out is replaced whole, so it may neither hold nor lie inside the checkpoints");
  }
  std::optional<OutputFolder> folder;  // all or nothing: built beside --out, renamed over it at the end
  if (keep) folder.emplace(sa_.out, "sampled.json");
  out_ =
      keep ? fs::path(folder->file("")) : fs::temp_directory_path() / ("starnuma-sample-" + std::to_string(getpid()));
  jobs_ = sa_.jobs ? sa_.jobs : std::max(1u, std::thread::hardware_concurrency());
  // Recorded streams: each window opens the trace and seeks in it; there is no workload to build.
  trace_ = manifest_.value("trace", std::string());
  // On Slurm each window builds its own: the windows are not this process's children.
  const double build_seconds = trace_.empty() && sa_.executor == "local" ? build_workload_once(files_.front()) : 0.0;

  // The pilot: the coarsest stride taking at least kPilotWindows; then, while the interval is
  // wider than the target, the coarsest finer stride taking the windows its spread says it needs.
  constexpr size_t kPilotWindows = 8;
  size_t at = 0;
  while (at + 1 < strides_.size() && windows_at(estimate_places_, strides_[at]) < kPilotWindows) ++at;
  nlohmann::ordered_json result;
  std::vector<nlohmann::ordered_json> windows;  // each run window's results, read once per stride
  std::vector<uint64_t> strides_run;
  for (;;) {
    run_stride(strides_[at]);
    strides_run.push_back(strides_[at]);
    if (failed_) {
      clean_up();
      std::cerr << "sample: the window of " << files_[failed_index_] << " failed (above)\n";
      return failed_;
    }
    try {
      windows = results();
      result = aggregate(windows, sa_.confidence, manifest_, sa_.warmup, sa_.instructions);
    } catch (const nlohmann::json::exception& e) {
      clean_up();
      report_error(msg::kInput, (dir_ / "manifest.json").string() + ": " + e.what() +
                                    " (written by an older starnuma? make the checkpoints again)");
    }
    const auto& c = result["confidence"];
    if (at + 1 == strides_.size()) break;
    uint64_t needed = 0;  // no interval yet (one window): the next stride
    if (c.contains("ipc")) {
      const double got = c["ipc"]["relative_half_width"].get<double>();
      if (got <= sa_.target_error) break;
      needed = units_needed(c["units"].get<size_t>(), got, sa_.target_error);
    }
    ++at;
    while (at + 1 < strides_.size() && windows_at(estimate_places_, strides_[at]) < needed) ++at;
  }
  result["checkpoints"] = sa_.checkpoints;
  result["instructions_per_window"] = sa_.instructions;
  result["warmup_per_window"] = sa_.warmup;
  result["windows_available"] = files_.size();
  result["method"] = method(windows);
  result["strides"] = strides_run;
  // The host's cost: the windows' own, and the one build they shared (a window that could not
  // take it built its own: host_workload_shared false in its stats.json).
  result["host_seconds"] = result["host_seconds"].get<double>() + build_seconds;
  result["host_build_seconds"] = build_seconds;
  if (trace_.empty()) {
    size_t unshared = 0;
    for (const auto& w : windows) unshared += !w.value("host_workload_shared", false);
    result["host_workload_builds"] = 1 + unshared;
  } else {  // the windows read the recording: nothing built, unless a thread ran past it
    uint64_t past = 0, built = 0;
    for (const auto& w : windows) {
      const uint64_t threads = w.value("threads_generated_past_recording", uint64_t{0});
      past += threads;
      built += threads > 0;
    }
    result["host_workload_builds"] = built;
    result["trace"] = trace_;
    result["threads_generated_past_recording"] = past;
  }
  if (strides_run.back() == 1) report_target_error(result, sa_.target_error, estimate_places_.size());
  report_unfinished_copies(result, copies_by_next_boundary(windows, manifest_));
  report_thread_drift(result, thread_drift(windows, manifest_));
  report_lead_mismatch(result, manifest_, sa_.warmup);
  if (keep) {
    write_file_atomically((out_ / "sampled.json").string(), json_text(result) + "\n");
    folder->commit();
  } else {
    clean_up();
  }
  if (sa_.json) std::cout << json_text(result) << '\n';
  else print(result);
  return 0;
}

nlohmann::ordered_json Sampler::method(const std::vector<nlohmann::ordered_json>& windows) const {
  // A window's own clock can end a poll short of where the pass's said it crosses (docs/decisions.md,
  // "A unit that ends before its boundary").
  const auto before = std::count_if(windows.begin(), windows.end(), [](const nlohmann::ordered_json& w) {
    return w.contains("checkpoint_next_boundary") && !w["checkpoint_next_boundary"]["crossed"].get<bool>();
  });
  const char* units = manifest_.contains("unit_every")        ? "over the work"
                      : manifest_.value("units_per_phase", 0) ? "inside each phase"
                                                              : "none (the boundaries' windows alone)";
  return {{"units", units},
          {"timed_start", manifest_.value("timed_start", uint64_t{0})},
          {"measured_over", sa_.common_span ? "common span" : "per-thread budgets"},
          {"warm_tlbs", sa_.warm_tlbs},
          {"warm_llcs", warm_llcs_},
          {"units_crossing_a_boundary", std::count_if(next_boundary_.begin(), next_boundary_.end(),
                                                      [](const NextBoundary& n) { return !n.file.empty(); })},
          {"units_ending_before_their_boundary", before},
          {"units_past_the_workloads_end", manifest_.value("units_past_the_workloads_end", uint64_t{0})}};
}

void Sampler::print(const nlohmann::ordered_json& result) const {
  std::cout << std::fixed << result["workload"].get<std::string>() << " on " << result["platform"].get<std::string>()
            << ": " << result["windows"] << " of " << files_.size() << " windows of " << sa_.instructions
            << " instructions per thread (after " << sa_.warmup << " of warm-up)"
            << (sa_.common_span ? ", each over a common span" : "") << "\n\n"
            << "window  IPC     AMAT (ns)  pages moved  to pool  in flight\n";
  for (const auto& w : result["per_window"])
    std::cout << std::left << std::setw(8) << window_name(w) << std::setw(8) << std::setprecision(3)
              << w["ipc"].get<double>() << std::setw(11) << std::setprecision(1) << w["amat_ns"].get<double>()
              << std::setw(13) << w["pages_moved"].get<uint64_t>() << std::setw(9) << w["to_pool"].get<uint64_t>()
              << w["copies_in_flight"].get<uint64_t>()
              << (w.value("in_estimate", true) ? "" : "  (times the copies; not in the estimate)") << '\n';
  const auto interval = [&result](const char* key, int digits) {
    std::ostringstream text;
    const auto& c = result["confidence"];
    if (c.contains(key))
      text << std::fixed << " (" << level_text(c["level"].get<double>()) << " %: " << std::setprecision(digits)
           << c[key]["low"].get<double>() << "-" << c[key]["high"].get<double>() << ")";
    return text.str();
  };
  std::cout << "\nIPC " << std::setprecision(3) << result["ipc"].get<double>() << interval("ipc", 3) << ", AMAT "
            << std::setprecision(1) << result["amat_ns"].get<double>() << " ns" << interval("amat_ns", 1) << " = "
            << result["amat_unloaded_ns"].get<double>() << " unloaded + " << result["amat_contention_ns"].get<double>()
            << " contention; " << result["migration"]["pages_moved"] << " pages moved in the execution, "
            << std::setprecision(0) << 100 * result["migration"]["to_pool_fraction"].get<double>() << " % to the pool ("
            << result["windows_copies"]["pages_moved"] << " copies in the windows)\n";
  if (result.contains("phase_starts")) {
    const auto& starts = result["phase_starts"];
    if (starts["stratified"].get<bool>())
      std::cout << std::setprecision(2) << "The " << starts["measured"]
                << " windows measuring a phase's start stand for their own stretch, the others "
                << starts["weight_of_the_rest"].get<double>() << " spacings each (docs/sampling.md)\n";
    const auto unmeasured = starts["unmeasured"].get<uint64_t>();
    if (unmeasured && !starts["units_at_random_points"].get<bool>())
      std::cout << "note: " << unmeasured << " of the " << starts["in_span"]
                << " phase starts among the units fall in no window's measurement (checkpoint --unit-lead "
                << sa_.warmup << " measures each; docs/sampling.md, \"The phases' starts, a stratum\")\n";
  }
  for (const auto& s : result["shortfalls"]) std::cout << "WARNING: " << s.get<std::string>() << '\n';
}
}  // namespace

int sample(const SampleArgs& sa) {
  if (sa.executor == "slurm" && sa.out.empty())
    report_error(msg::kUsage,
                 "--executor slurm: give --out FOLDER, on a file system the compute nodes share (the windows write "
                 "their results there)");
  return Sampler(sa).run();
}

}  // namespace starnuma::cli
