// `starnuma benchmark`: host throughput of the simulator on standard cases, each a `starnuma run`
// child process timed with its peak memory (wait4), one after another so each has one core:
//   - simulated instructions per host second, L1-friendly workload, 64-core scaled StarNUMA;
//   - LLC-miss transactions per host second, miss-heavy workload, same platform;
//   (both, and the 2x run, the fastest of three end-to-end runs: the machine may be shared)
//   - host time against simulated instructions (1x and 2x) and against socket count (4..32);
//   - the tracking hardware: the same run with impl: rtl and impl: model (runs alternating, min of
//     3 each);
//   - what converged timing costs: the miss-heavy case at the default quantum against 1 us;
//   - coherence: sharing with oracle placement, on against off, and on with one detailed socket
//     (the paper's modelling) against every socket detailed (runs alternating, min of 3 each);
//   - page walks in memory against fixed-latency walks, on the miss-heavy case;
//   - the sampled evaluation's functional pass (docs/sampling.md): memory accesses per second, with
//     the trackers' TLBs and annexes and with perfect knowledge, generating the streams, and with
//     the trackers reading them from a recording;
//   - the host's latency of a random load over 4 and 64 MiB, at the start and at the end, the
//     context the figures above move with.
// The cases run without coherence and with fixed-latency page walks, as before the paper's
// platforms turned them on, so their figures compare across versions; each has its own line.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "benchmark.hpp"
#include "cli.hpp"
#include "common/diagnostics.hpp"
#include "common/json_text.hpp"

namespace starnuma::cli {

namespace {

struct Measured {
  double seconds = 0;
  long rss_kib = 0;
  nlohmann::json summary;
};

// `json`: the child prints its summary as JSON (else its output is kept as text).
Measured run_child(const std::vector<std::string>& args, bool json = true) {
  int out[2];
  if (pipe(out) != 0) report_internal("benchmark: pipe failed");
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) report_internal("benchmark: fork failed");
  if (pid == 0) {
    dup2(out[1], 1);
    close(out[0]);
    close(out[1]);
    std::vector<std::string> a = args;
    std::vector<char*> argv;
    for (auto& s : a) argv.push_back(s.data());
    argv.push_back(nullptr);
    execv("/proc/self/exe", argv.data());
    _exit(2);
  }
  close(out[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = read(out[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
  close(out[0]);
  int status = 0;
  struct rusage usage {};
  wait4(pid, &status, 0, &usage);
  Measured m;
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  m.rss_kib = usage.ru_maxrss;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) report_internal("benchmark: a run failed: " + text);
  m.summary = json ? nlohmann::json::parse(text) : nlohmann::json(text);
  return m;
}

// The fastest of `n` runs: the machine may be shared, and interference only ever slows a run.
Measured best_of(int n, const std::vector<std::string>& args) {
  Measured best = run_child(args);
  for (int i = 1; i < n; ++i) {
    Measured m = run_child(args);
    if (m.seconds < best.seconds) best = std::move(m);
  }
  return best;
}

// Cases compared by a ratio: `n` rounds that run each case in turn, so the host's drift from one
// minute to the next (this kind of machine is shared) falls on every case alike; for each case the
// summary of its run with the least simulation time (`host_seconds`: without building the workload).
double seconds_of(const nlohmann::json& summary) { return summary["host_seconds"].get<double>(); }
std::vector<nlohmann::json> least_simulation_interleaved(int n, const std::vector<std::vector<std::string>>& cases) {
  std::vector<nlohmann::json> best(cases.size());
  for (int i = 0; i < n; ++i)
    for (size_t k = 0; k < cases.size(); ++k) {
      nlohmann::json summary = run_child(cases[k]).summary;
      if (best[k].is_null() || seconds_of(summary) < seconds_of(best[k])) best[k] = std::move(summary);
    }
  return best;
}

std::vector<std::string> run_args(const std::string& platform, const std::string& workload, uint64_t instructions,
                                  const std::vector<std::string>& sets = {}) {
  std::vector<std::string> a{
      "starnuma",      "run",   platform, "--workload", workload, "--instructions", std::to_string(instructions),
      "--no-progress", "--json"};
  for (const auto& s : sets) {
    a.push_back("--set");
    a.push_back(s);
  }
  return a;
}

// The engine's floor as it has always been measured: no coherence, fixed-latency walks and no
// tracking hardware (the platform's T16 trackers are measured on their own).
const std::string kNoCoherence = "coherence.enabled=false", kFixedWalks = "topology.socket.core.page_walk.model=fixed",
                  kNoTracking = "topology.socket.tracking.impl=none";
const std::string kMissWorkload = "uniform:footprint=1GiB";

// One benchmark's run: its platform, scale, output and the report it fills case by case.
struct Bench {
  std::string platform;
  double scale;
  bool json;
  nlohmann::ordered_json report;
  void say(const std::string& line) const {
    if (!json) std::cout << line << std::flush;
  }
  uint64_t miss_n() const { return static_cast<uint64_t>(200000 * scale); }
};

// Instructions and transactions per second, and how host time grows with instructions and sockets;
// returns the miss-heavy case, the reference of the others.
Measured bench_throughput(Bench& b) {
  const uint64_t l1_n = static_cast<uint64_t>(4000000 * b.scale), miss_n = b.miss_n();
  const std::string l1_workload = "local:footprint=16KiB", miss_workload = kMissWorkload;
  b.say("L1-friendly (" + l1_workload + ", " + std::to_string(l1_n) +
        " instructions per thread, 64 cores, min of 3) ... ");
  Measured l1 = best_of(3, run_args(b.platform, l1_workload, l1_n, {kNoCoherence, kFixedWalks, kNoTracking}));
  const double mips = l1.summary["instructions"].get<double>() / l1.seconds / 1e6;
  b.say(std::to_string(mips).substr(0, 6) + " M instructions/s, " + std::to_string(l1.rss_kib / 1024) + " MiB\n");
  b.report["l1_friendly"] = {{"workload", l1_workload},
                             {"host_seconds", l1.seconds},
                             {"instructions", l1.summary["instructions"]},
                             {"instructions_per_second", mips * 1e6},
                             {"peak_rss_MiB", l1.rss_kib / 1024.0}};

  b.say("miss-heavy (" + miss_workload + ", " + std::to_string(miss_n) + " instructions per thread, min of 3) ... ");
  Measured miss = best_of(3, run_args(b.platform, miss_workload, miss_n, {kNoCoherence, kFixedWalks, kNoTracking}));
  const double tps = miss.summary["llc_misses"].get<double>() / miss.seconds;
  b.say(std::to_string(tps / 1e6).substr(0, 5) + " M LLC-miss transactions/s, " + std::to_string(miss.rss_kib / 1024) +
        " MiB\n");
  b.report["miss_heavy"] = {{"workload", miss_workload},
                            {"host_seconds", miss.seconds},
                            {"llc_misses", miss.summary["llc_misses"]},
                            {"transactions_per_second", tps},
                            {"mips", miss.summary["instructions"].get<double>() / miss.seconds / 1e6},
                            {"peak_rss_MiB", miss.rss_kib / 1024.0}};

  b.say("twice the instructions (min of 3) ... ");
  Measured twice =
      best_of(3, run_args(b.platform, miss_workload, 2 * miss_n, {kNoCoherence, kFixedWalks, kNoTracking}));
  const double growth = twice.seconds / miss.seconds;
  b.say("host time x" + std::to_string(growth).substr(0, 4) + " (linear: x2.00)\n");
  b.report["instruction_scaling"] = {
      {"host_seconds_1x", miss.seconds}, {"host_seconds_2x", twice.seconds}, {"ratio", growth}};

  nlohmann::ordered_json sockets = nlohmann::ordered_json::array();
  double per_thread_16 = 0;
  for (unsigned chassis : {1u, 2u, 4u, 8u}) {
    b.say(std::to_string(chassis * 4) + " sockets ... ");
    Measured m = run_child(run_args(b.platform, miss_workload, miss_n,
                                    {"topology.chassis=" + std::to_string(chassis), "topology.pool.heads=32",
                                     kNoCoherence, kFixedWalks, kNoTracking}));
    const double per_thread = m.seconds / (chassis * 16.0);  // 4 sockets x 4 cores per chassis
    if (chassis == 4) per_thread_16 = per_thread;
    sockets.push_back({{"sockets", chassis * 4},
                       {"host_seconds", m.seconds},
                       {"host_seconds_per_thread", per_thread},
                       {"peak_rss_MiB", m.rss_kib / 1024.0}});
    b.say(std::to_string(m.seconds).substr(0, 5) + " s, " + std::to_string(m.rss_kib / 1024) + " MiB\n");
  }
  for (auto& s : sockets) s["per_thread_vs_16_sockets"] = s["host_seconds_per_thread"].get<double>() / per_thread_16;
  b.report["socket_scaling"] = sockets;

  return miss;
}

void bench_tracking(Bench& b) {
  // Tracking: the Verilated RTL against the C++ models on one run (docs/tracking.md); the least of
  // three runs each, as the machine is shared.
  const uint64_t track_n = static_cast<uint64_t>(200000 * b.scale);
  const std::string track_workload = "kv";  // thrashes the STLB: its annexes flush often, so the RTL works
  const char* const impls[2] = {"model", "rtl"};
  b.say("tracking impl: model and rtl (" + track_workload + ", " + std::to_string(track_n) +
        " instructions per thread, alternating, min of 3 each) ... ");
  std::vector<std::vector<std::string>> track_cases;
  for (const char* impl : impls)
    track_cases.push_back(run_args(b.platform, track_workload, track_n,
                                   {std::string("topology.socket.tracking.impl=") + impl,
                                    "topology.socket.tracking.active=always", kNoCoherence, kFixedWalks}));
  const std::vector<nlohmann::json> tracked = least_simulation_interleaved(3, track_cases);
  const double best[2] = {seconds_of(tracked[0]), seconds_of(tracked[1])};
  b.say(std::to_string(best[0]).substr(0, 5) + " s and " + std::to_string(best[1]).substr(0, 5) + " s\n");
  b.report["tracking"] = {{"workload", track_workload},
                          {"instructions", track_n},
                          {"model_host_seconds", best[0]},
                          {"rtl_host_seconds", best[1]},
                          {"rtl_over_model", best[1] / best[0]}};
  b.say("tracking rtl / model: x" + std::to_string(best[1] / best[0]).substr(0, 4) + " (target <= x1.50)\n");
}

void bench_quantum(Bench& b, const Measured& miss) {
  const uint64_t miss_n = b.miss_n();
  const std::string miss_workload = kMissWorkload;
  // Converged timing: the default quantum (the largest at which results converge) against 1 us.
  b.say("miss-heavy at a 1 us quantum (min of 3) ... ");
  Measured coarse = best_of(
      3, run_args(b.platform, miss_workload, miss_n, {kNoCoherence, kFixedWalks, kNoTracking, "platform.quantum=1us"}));
  b.say(std::to_string(coarse.seconds).substr(0, 5) + " s: the default quantum costs x" +
        std::to_string(miss.seconds / coarse.seconds).substr(0, 4) + "\n");
  b.report["quantum"] = {{"default_host_seconds", miss.seconds},
                         {"one_us_host_seconds", coarse.seconds},
                         {"default_over_one_us", miss.seconds / coarse.seconds}};
}

void bench_coherence(Bench& b) {
  // Coherence on the workload that exercises it most (docs/coherence.md), off and on, and on with
  // the paper's modelling (its artifact's): socket 0 detailed, the others light.
  const uint64_t coh_n = static_cast<uint64_t>(200000 * b.scale);
  b.say("coherence off, on, and on with one detailed socket (sharing, oracle, " + std::to_string(coh_n) +
        " instructions per thread, alternating, min of 3 each) ... ");
  std::vector<std::vector<std::string>> coh_cases;
  for (int k = 0; k < 3; ++k) {
    coh_cases.push_back(run_args(b.platform, "sharing", coh_n,
                                 {k ? "coherence.enabled=true" : kNoCoherence, kFixedWalks, kNoTracking}));
    coh_cases.back().insert(coh_cases.back().end(), {"--placement", "oracle"});
  }
  coh_cases[2].insert(coh_cases[2].end(), {"--detailed-sockets", "1"});
  const std::vector<nlohmann::json> coh_runs = least_simulation_interleaved(3, coh_cases);
  const double coh[2] = {seconds_of(coh_runs[0]), seconds_of(coh_runs[1])};
  const double mixed = seconds_of(coh_runs[2]);
  b.say(std::to_string(coh[0]).substr(0, 5) + " s, " + std::to_string(coh[1]).substr(0, 5) + " s, " +
        std::to_string(mixed).substr(0, 5) + " s\n");
  // Coherence changes what is simulated (invalidated copies miss again): the host time per LLC miss
  // tells the cost of each miss from the cost of having more of them.
  const double misses[2] = {coh_runs[0]["llc_misses"].get<double>(), coh_runs[1]["llc_misses"].get<double>()};
  const double per_miss = (coh[1] / misses[1]) / (coh[0] / misses[0]);
  b.report["coherence"] = {{"workload", "sharing"},
                           {"off_host_seconds", coh[0]},
                           {"on_host_seconds", coh[1]},
                           {"on_over_off", coh[1] / coh[0]},
                           {"off_llc_misses", misses[0]},
                           {"on_llc_misses", misses[1]},
                           {"on_over_off_per_llc_miss", per_miss}};
  b.say("coherence on / off: x" + std::to_string(coh[1] / coh[0]).substr(0, 4) + " (target <= x2); it simulates x" +
        std::to_string(misses[1] / misses[0]).substr(0, 4) + " the LLC misses, each x" +
        std::to_string(per_miss).substr(0, 4) + " the host time\n");
  b.say("one detailed socket (coherence on, --detailed-sockets 1): x" + std::to_string(mixed / coh[1]).substr(0, 4) +
        " the all-detailed coherent time\n");
  b.report["one_detailed_socket"] = {{"workload", "sharing"},
                                     {"host_seconds", mixed},
                                     {"all_detailed_host_seconds", coh[1]},
                                     {"over_all_detailed", mixed / coh[1]}};
}

void bench_page_walks(Bench& b, const Measured& miss) {
  const uint64_t miss_n = b.miss_n();
  const std::string miss_workload = kMissWorkload;
  // Page walks through the caches and memory (docs/cores.md): more work per demand miss (walk
  // reads, and their own misses), so both the time and the transactions including the walker's.
  b.say("page walks in memory (miss-heavy, min of 3) ... ");
  Measured walks = best_of(3, run_args(b.platform, miss_workload, miss_n, {kNoCoherence}));
  const double walk_misses = walks.summary["page_walks"]["llc_misses"].get<double>();
  const double walk_tps = (walks.summary["llc_misses"].get<double>() + walk_misses) / walks.seconds;
  b.say(std::to_string(walks.seconds).substr(0, 5) + " s: x" +
        std::to_string(walks.seconds / miss.seconds).substr(0, 4) + " the fixed walks' time, " +
        std::to_string(walk_tps / 1e6).substr(0, 5) + " M LLC-miss transactions/s (the walker's included)\n");
  b.report["page_walks"] = {{"fixed_host_seconds", miss.seconds},
                            {"memory_host_seconds", walks.seconds},
                            {"memory_over_fixed", walks.seconds / miss.seconds},
                            {"walker_llc_misses", walk_misses},
                            {"transactions_per_second", walk_tps}};
}

void bench_functional_pass(Bench& b) {
  // The functional pass: accesses per second of the pass itself (the graph's generation excluded,
  // the streams' production included), then the same streams read alone in the pass's turns
  // (--streams-only), and from the two the pass's own work. Best of three each. Then the same
  // pass reading the streams from a recording of them (checkpoint --trace-in, docs/sampling.md,
  // "Recorded streams"): the figure, streams included.
  const unsigned pass_phases = std::max(1u, static_cast<unsigned>(20 * b.scale));
  constexpr uint64_t kPhaseInstructions = 250000;
  const std::string pass_workload = "bfs:scale=18,trials=100";
  const std::string scratch = "/tmp/starnuma-benchmark-pass-" + std::to_string(getpid());
  const std::string out = scratch + "/checkpoints", recording = scratch + "/streams.snt";
  std::filesystem::create_directories(scratch);
  const auto pass_args = [&](const std::string& knowledge, bool streams_only, bool recorded, bool warming = false,
                             bool l2s = false, const std::string& pace = "turns") {
    std::vector<std::string> a{"starnuma",
                               "checkpoint",
                               b.platform,
                               "--checkpoints",
                               std::to_string(pass_phases),
                               "--no-progress",
                               "--json",
                               "--set",
                               "os.phase_instructions=" + std::to_string(kPhaseInstructions),
                               "--set",
                               "os.policy=" + knowledge};
    if (recorded) a.insert(a.end(), {"--trace-in", recording});
    else a.insert(a.end(), {"--workload", pass_workload});
    if (knowledge == "tracker") a.insert(a.end(), {"--set", "topology.socket.tracking.impl=model"});
    if (streams_only) a.push_back("--streams-only");
    else a.insert(a.end(), {"--out", out});
    // Every choice explicit, as the figures before the units' defaults measured them: the plain pass
    // (boundaries, LLCs not coherent) or the warming one (coherent LLCs and units); neither times a
    // start, and the threads take equal turns unless a case asks for the clock.
    if (!streams_only) a.insert(a.end(), {"--timed-start", "0", "--pace", pace});
    if (warming) a.insert(a.end(), {"--warm-llcs", "--unit-every", std::to_string(kPhaseInstructions / 5)});
    else if (!streams_only) a.insert(a.end(), {"--no-warm-llcs", "--boundaries-only"});
    if (l2s) a.push_back("--warm-l2s");
    return a;
  };
  uint64_t furthest = 0;  // the furthest thread's instructions where a live pass ended
  const auto least_pass_seconds = [&](const std::vector<std::string>& args, double& accesses) {
    double best = 1e300;
    for (int i = 0; i < 3; ++i) {
      const Measured m = run_child(args);
      best = std::min(best, m.summary["pass_seconds"].get<double>());
      accesses = m.summary["accesses"].get<double>();
      furthest = std::max(furthest, m.summary.value("furthest_instructions", uint64_t{0}));
    }
    std::error_code ec;
    std::filesystem::remove_all(out, ec);
    return best;
  };
  const auto mps = [](double per_second) { return std::to_string(per_second / 1e6).substr(0, 5); };
  nlohmann::ordered_json passes = nlohmann::ordered_json::object();
  double accesses = 0;
  b.say("the streams alone, in the pass's turns (" + pass_workload + ", " + std::to_string(pass_phases) +
        " phases of 250000 instructions, best of 3) ... ");
  const double streams = least_pass_seconds(pass_args("perfect", true, false), accesses);
  b.say(mps(accesses / streams) + " M operations/s\n");
  passes["streams_alone_per_second"] = accesses / streams;
  for (const std::string knowledge : {"tracker", "perfect"}) {
    b.say("functional pass (" + knowledge + " knowledge, best of 3) ... ");
    const double seconds = least_pass_seconds(pass_args(knowledge, false, false), accesses);
    const double own = seconds > streams ? accesses / (seconds - streams) : 0.0;
    b.say(mps(accesses / seconds) + " M accesses/s; its own work without the streams' " + mps(own) + " M accesses/s\n");
    passes[knowledge] = {
        {"accesses", accesses}, {"accesses_per_second", accesses / seconds}, {"own_work_accesses_per_second", own}};
  }
  // As the units' method runs it (docs/sampling.md): the LLCs kept coherent and checkpointed, a
  // unit every fifth of a phase.
  b.say("functional pass warming the LLCs, a unit every " + std::to_string(kPhaseInstructions / 5) +
        " instructions (tracker knowledge, best of 3) ... ");
  const double warming = least_pass_seconds(pass_args("tracker", false, false, true), accesses);
  b.say(mps(accesses / warming) + " M accesses/s\n");
  passes["warming_with_units"] = {{"accesses", accesses}, {"accesses_per_second", accesses / warming}};
  b.say("the same, the cores' L2s warmed too (--warm-l2s, best of 3) ... ");
  const double with_l2s = least_pass_seconds(pass_args("tracker", false, false, true, true), accesses);
  b.say(mps(accesses / with_l2s) + " M accesses/s\n");
  passes["warming_l2s_with_units"] = {{"accesses", accesses}, {"accesses_per_second", accesses / with_l2s}};
  // The pace by time (docs/sampling.md, "Paced by time"): each thread by its clock.
  b.say("functional pass warming the LLCs, paced by time (--pace time, best of 3) ... ");
  const double paced = least_pass_seconds(pass_args("tracker", false, false, true, false, "time"), accesses);
  b.say(mps(accesses / paced) + " M accesses/s\n");
  passes["warming_paced_by_time"] = {{"accesses", accesses}, {"accesses_per_second", accesses / paced}};
  // The recording covers the furthest thread's pass (the phases count the mean thread's work), with a margin.
  const uint64_t recorded_instructions = furthest / 20 * 21;
  b.say("recording the streams (trace record, " + std::to_string(recorded_instructions) +
        " instructions per thread) ... ");
  const Measured rec = run_child({"starnuma", "trace", "record", b.platform, "--workload", pass_workload,
                                  "--instructions", std::to_string(recorded_instructions), "--out", recording},
                                 false);
  b.say(std::to_string(rec.seconds).substr(0, 5) + " s, " +
        std::to_string(std::filesystem::file_size(recording) / 1000000) + " MB\n");
  b.say("the recorded streams alone, in the pass's turns ... ");
  const double replayed = least_pass_seconds(pass_args("tracker", true, true), accesses);
  b.say(mps(accesses / replayed) + " M operations/s\n");
  b.say("functional pass from the recording (tracker knowledge, best of 3) ... ");
  const double seconds = least_pass_seconds(pass_args("tracker", false, true), accesses);
  b.say(mps(accesses / seconds) + " M accesses/s, the streams included (target >= 50)\n");
  passes["recorded"] = {{"record_host_seconds", rec.seconds},
                        {"recording_bytes", std::filesystem::file_size(recording)},
                        {"streams_alone_per_second", accesses / replayed},
                        {"accesses", accesses},
                        {"accesses_per_second", accesses / seconds}};
  std::error_code ec;
  std::filesystem::remove_all(scratch, ec);
  b.report["functional_pass"] = passes;
}

// The host's random load at the two sizes that bound the cases (the tag stores fit in 4 MiB at
// the host's nearer caches' edge; the miss-heavy case's and the pass's data reach 64 MiB), read at
// the benchmark's start and end: the same binary's figures move with them from hour to hour
// (docs/performance.md), so each report carries its host's.
nlohmann::ordered_json host_memory_now(const Bench& b, const std::string& when) {
  const auto loads = std::max<size_t>(1000, static_cast<size_t>(2'000'000 * b.scale));
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  b.say("host's random load " + when + ":");
  for (const size_t mib : {4, 64}) {
    const double ns = host_load_ns(mib << 20, loads);
    out.push_back({{"MiB", mib}, {"ns_per_load", ns}});
    b.say(" " + std::to_string(ns).substr(0, 5) + " ns over " + std::to_string(mib) + " MiB" + (mib == 4 ? "," : "\n"));
  }
  return out;
}

}  // namespace

int benchmark(const std::string& platforms_dir, double scale, bool json) {
  const std::string platform = platforms_dir + "/starnuma16-scaled.yaml";
  if (access(platform.c_str(), R_OK) != 0) {
    std::cerr << "benchmark: " << platform
              << " cannot be read: run it from the repository's root or give --platforms FOLDER\n";
    return 1;
  }
  Bench b{platform, scale, json, nlohmann::ordered_json::object()};
  const nlohmann::ordered_json host_before = host_memory_now(b, "at the start");
  const Measured miss = bench_throughput(b);
  bench_tracking(b);
  bench_quantum(b, miss);
  bench_coherence(b);
  bench_page_walks(b, miss);
  bench_functional_pass(b);
  b.report["host_memory"] = {{"at_the_start", host_before}, {"at_the_end", host_memory_now(b, "at the end")}};
  if (json) {
    std::cout << json_text(b.report) << '\n';
  } else {
    std::cout << "\nhost time per simulated thread, relative to 16 sockets:";
    for (const auto& s : b.report["socket_scaling"])
      std::cout << "  " << s["sockets"].get<unsigned>() << ": x"
                << std::to_string(s["per_thread_vs_16_sockets"].get<double>()).substr(0, 4);
    std::cout << '\n';
  }
  return 0;
}

Command add_benchmark(CLI::App& app) {
  struct Args {
    std::string platforms = "platforms";
    double scale = 1.0;
    bool json = false, host_memory = false;
    std::vector<std::string> generators;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand(
      "benchmark", "Host throughput: instructions/s, LLC-miss transactions/s, memory, scaling with size");
  cmd->add_option("--platforms", a->platforms, "Folder holding starnuma16-scaled.yaml")
      ->check(CLI::ExistingDirectory)
      ->capture_default_str();
  cmd->add_option("--scale", a->scale, "Multiply every case's instruction count (e.g. 0.1 for a quick look)")
      ->check(CLI::Range(0.001, 100.0))
      ->capture_default_str();
  cmd->add_flag("--json", a->json, "Machine-readable output");
  CLI::Option* generators =
      cmd->add_option("--generators", a->generators,
                      "Instead: how fast these workloads produce their streams, alone (operations/s, 64 threads)")
          ->expected(0, -1)
          ->delimiter(' ');
  cmd->add_flag("--host-memory", a->host_memory,
                "Instead: this host's latency of a random load against the data's size (what bounds the "
                "miss-heavy case)");
  return {cmd, [a, generators] {
            if (generators->count() > 0) {
              std::vector<std::string>& g = a->generators;
              g.erase(std::remove(g.begin(), g.end(), std::string()), g.end());
              if (g.empty()) g = default_generator_cases();
              return benchmark_generators(g, a->scale, a->json);
            }
            if (a->host_memory) return benchmark_host_memory(a->scale, a->json);
            return benchmark(a->platforms, a->scale, a->json);
          }};
}

}  // namespace starnuma::cli
