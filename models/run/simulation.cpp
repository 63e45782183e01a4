#include "run/simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <memory>
#include <numeric>
#include <optional>
#include <sstream>
#include <unistd.h>

#include "os/autonuma.hpp"
#include "os/migration_engine.hpp"
#include "os/page_map.hpp"
#include "run/profile.hpp"
#include "run/run_programs.hpp"
#include "run/run_setup.hpp"
#include "run/sampled_window.hpp"
#include "run/timeline.hpp"
#include "socket/socket.hpp"
#include "stimulus/program_mix.hpp"
#include "stimulus/trace/trace_input.hpp"
#include "stimulus/workload_registry.hpp"
#include "tracking/platform_tracking.hpp"
#include "common/output_file.hpp"

namespace starnuma {

namespace {

constexpr uint64_t kPageSize = kRunPageSize;

// The oracle's knowledge: each socket's LLC misses per region over the same streams and
// instruction budget, after initialisation (a functional pass through each socket's LLC).
AccessProfile profile(const Workload& w, const Fabric& fabric, const std::vector<ThreadPlace>& threads,
                      uint64_t instructions, uint64_t region) {
  AccessProfile prof(fabric.requesters().size(), region / kPageSize);
  std::vector<unsigned> socket_of;
  for (const ThreadPlace& t : threads) socket_of.push_back(static_cast<unsigned>(t.socket));
  std::vector<uint64_t> llc_lines;
  for (const Socket* s : fabric.requesters()) llc_lines.push_back(s->llc_config().lines(s->cores()));
  for_each_llc_miss(w, socket_of, llc_lines, instructions,
                    [&](uint64_t address, unsigned socket, bool) { prof.count(address / kPageSize, socket); });
  return prof;
}

std::string format_duration(double seconds) {
  char b[32];
  if (seconds < 60) std::snprintf(b, sizeof b, "%.0fs", seconds);
  else std::snprintf(b, sizeof b, "%dm%02ds", static_cast<int>(seconds) / 60, static_cast<int>(seconds) % 60);
  return b;
}

// AutoNUMA's set-up from the os settings: the CPU-less CXL node is the node first touch may use
// that is no socket's memory.
AutoNuma::Setup autonuma_setup(const OsSettings& os, const Fabric& fabric, PageMap& pages, PageMover& mover,
                               RunControl& control) {
  AutoNuma::Setup a;
  a.pages = &pages;
  a.mover = &mover;
  a.control = &control;
  a.rules.socket_node = socket_nodes(fabric);
  a.rules.lacx = os.rule() == MigrationRule::Lacx;
  for (size_t n = 0; n < pages.nodes().size(); ++n)
    if (pages.nodes()[n].first_touch &&
        std::find(a.rules.socket_node.begin(), a.rules.socket_node.end(), n) == a.rules.socket_node.end())
      a.rules.cxl_node = n;
  if (a.rules.lacx && a.rules.cxl_node == static_cast<size_t>(-1))
    report_error(msg::kConfig,
                 "os.migration: lacx moves shared pages to a CPU-less CXL memory node; this platform has "
                 "none (a cxl_pool node with numa_node: true, as platforms/lacx2.yaml)");
  a.scan_period = os.numa_scan_period();
  a.scan_pages = std::max<uint64_t>(1, os.numa_scan_size().bytes() / kPageSize);
  a.fault_cycles = os.numa_fault_cycles();
  a.page_cycles = os.page_cycles();
  a.rate_window = Time::from_ps(os.numa_scan_period().ps() / 10);
  a.rate_pages = std::max<uint64_t>(
      1, static_cast<uint64_t>(os.numa_rate_limit().bytes_per_s() * static_cast<double>(a.rate_window.ps()) * 1e-12 /
                               static_cast<double>(kPageSize)));
  return a;
}

// Each program's figures over its own cores.
std::vector<ProgramResult> program_results(const RunStimulus& stimulus) {
  std::vector<ProgramResult> results;
  for (const RunProgram& prog : stimulus.programs) {
    ProgramResult p;
    p.name = prog.name;
    p.workload = prog.description;
    p.place = prog.place;
    p.threads = prog.threads;
    double ipc = 0, latency_ps = 0;
    uint64_t accesses = 0;
    for (unsigned t = prog.first_thread; t < prog.first_thread + prog.threads; ++t) {
      const Core& c = *stimulus.threads[t].core;
      ipc += c.ipc();
      p.instructions += c.instructions();
      p.llc_misses += c.memory().llc_misses.value();
      p.time_ns = std::max(p.time_ns, static_cast<double>(c.cycles()) * static_cast<double>(c.cycle_fs()) / 1e6);
      for (size_t k = 0; k < kMissClasses; ++k) {
        accesses += c.memory().memory_accesses[k].value();
        latency_ps += static_cast<double>(c.memory().memory_latency_ps[k].value());
      }
    }
    p.ipc = prog.threads ? ipc / prog.threads : 0;
    p.amat_ns = accesses ? latency_ps / 1e3 / static_cast<double>(accesses) : 0;
    results.push_back(std::move(p));
  }
  return results;
}

// Says what the run did short of what it was asked: on stderr now, and in the result.
void note_shortfalls(RunResult& r, const RunOptions& o, const OsSettings& os, const std::vector<ThreadPlace>& threads,
                     bool phased) {
  if (r.threads_ended_early) {
    const double percent = r.instructions_requested ? 100.0 * static_cast<double>(r.instructions) /
                                                          static_cast<double>(r.instructions_requested)
                                                    : 0.0;
    std::ostringstream m;
    m << "the workload ended early: " << r.instructions << " of " << r.instructions_requested
      << " instructions asked for were run (" << std::fixed << std::setprecision(1) << percent << " %), "
      << r.threads_ended_early << " of " << threads.size() << " threads short of their budget";
    if (o.warmup) m << " (after a warm-up of " << o.warmup << " per thread)";
    r.shortfalls.push_back(m.str() + "; give a longer workload or fewer --instructions");
  }
  if (phased && !r.migration.is_null() && r.migration.value("phases", uint64_t{0}) == 0) {
    uint64_t furthest = 0;
    for (const ThreadPlace& t : threads) furthest = std::max(furthest, t.core->retired_total());
    std::ostringstream m;
    m << "no migration phase completed: nothing was moved. ";
    if (os.phase_period() > Time{})
      m << "A phase starts every " << format_time(os.phase_period()) << " of simulated time";
    else
      m << "A phase starts every " << os.phase_instructions()
        << " instructions of the furthest thread (os.phase_instructions)";
    m << ", and it retired " << furthest;
    r.shortfalls.push_back(m.str());
  }
  if (phased && !r.migration.is_null())
    if (const uint64_t dropped = r.migration.value("dropped", uint64_t{0}); dropped > 0) {
      const uint64_t decided = dropped + r.migration.value("pages_moved", uint64_t{0});
      r.shortfalls.push_back(std::to_string(dropped) + " of the " + std::to_string(decided) +
                             " pages the migration phases decided were not moved before the next phase or the "
                             "run's end: the phases are too short for their copies");
    }
  for (const std::string& s : r.shortfalls)
    std::fprintf(stderr, "warning: %s on %s: %s\n", r.workload.c_str(), r.platform.c_str(), s.c_str());
}

}  // namespace

RunResult run_workload(Platform& platform, const RunOptions& options) {
  Fabric& fabric = platform.fabric();
  const size_t sockets = fabric.requesters().size();
  if (place_threads(fabric).empty())
    report_error(msg::kConfig, platform.source() + ": no socket has a core: there is nothing to run the workload on");
  RunOptions o = options;
  std::optional<Checkpoint> checkpoint;
  if (!o.checkpoint.empty()) {
    if (!o.trace_in.empty())
      report_error(msg::kUsage, "--checkpoint: the checkpoint names its workload; no --trace-in");
    checkpoint = read_checkpoint(o.checkpoint);
    if (!o.workload_given) o.workload = checkpoint->workload;
    if (!o.seed_given) o.seed = checkpoint->seed;
    check_checkpoint(*checkpoint, o.checkpoint, fabric, o.workload, o.seed);
  }
  RunStimulus stimulus;
  if (o.trace_in.empty() && is_program_mix(o.workload)) {
    if (checkpoint) report_error(msg::kUsage, "--checkpoint: sampled windows run one workload, not a mix of programs");
    stimulus = make_mix_stimulus(o.workload, fabric, o.seed, o.instructions);
  } else {
    std::vector<ThreadPlace> all = place_threads(fabric);
    std::unique_ptr<Workload> w;
    std::optional<uint64_t> folded_space;
    bool windowed = false;
    if (o.trace_in.empty()) {
      w = make_workload(o.workload, static_cast<unsigned>(all.size()), static_cast<unsigned>(sockets), o.seed);
    } else {
      trace::TraceInputOptions to{o.trace_space, o.trace_phase, {}};
      for (const ThreadPlace& t : all) to.detailed.push_back(!o.detailed_sockets || t.socket < o.detailed_sockets);
      trace::TraceInput input = trace::open_trace_input(o.trace_in, static_cast<unsigned>(all.size()), to);
      w = std::move(input.workload);
      o.workload = input.description;  // a recorded workload reports as the workload it records
      if (!o.seed_given && input.seed) o.seed = *input.seed;
      if (!o.instructions_given && input.instructions) o.instructions = *input.instructions;
      if (input.shared) {  // one program's threads: its terabytes folded into the platform's space
        folded_space = virtual_address_limit(fabric).bytes;
        w = one_process(std::move(w), o.workload, *folded_space);
      }
      windowed = input.windowed;
    }
    stimulus = single_program(std::move(w), std::move(all), o.workload, o.instructions);
    stimulus.folded_space = folded_space;
    stimulus.windowed = windowed;
  }
  if (!o.initial_placement.empty()) {
    const std::string what = "--initial-placement " + o.initial_placement + ": ";
    if (checkpoint) report_error(msg::kUsage, what + "a sampled window's placement is the checkpoint's");
    if (stimulus.mix) report_error(msg::kUsage, what + "a page-owner file names one program's pages, not a mix's");
    if (stimulus.windowed)
      report_error(msg::kUsage, what +
                                    "names the traces' own pages; multi-programmed ChampSim traces move them into "
                                    "per-core windows (run them as one program: --trace-space shared)");
    if (o.placement.value_or(platform.os().placement()) == Placement::Oracle)
      report_error(msg::kUsage, what +
                                    "the oracle places every page itself; use first-touch (the artifact's static "
                                    "runs) or dynamic placement");
  }
  const std::vector<ThreadPlace>& threads = stimulus.threads;
  std::unique_ptr<Workload>& workload = stimulus.workload;
  std::string source = o.trace_in.empty() ? "workload " + o.workload : "trace";
  for (const std::string& f : o.trace_in) source += (&f == &o.trace_in.front() ? " " : ",") + f;
  workload = limit_addresses(std::move(workload), source, virtual_address_limit(fabric));

  // Before the cores start: they capture their socket's observer.
  std::unique_ptr<PlatformTracking> tracking = PlatformTracking::attach(fabric);
  if (!o.dump_trackers.empty() && !tracking)
    report_error(msg::kUsage, "--dump-trackers " + o.dump_trackers +
                                  ": tracking is off (set topology.socket.tracking.impl to model or rtl)");

  const OsSettings& os = platform.os();
  const Placement placement = checkpoint ? Placement::Dynamic : o.placement.value_or(os.placement());
  if (checkpoint && o.placement && *o.placement != Placement::Dynamic)
    report_error(msg::kUsage, "--checkpoint: a sampled window's placement is the checkpoint's (dynamic)");
  const double pool_fraction = o.pool_fraction.value_or(os.pool_fraction());
  std::optional<AccessProfile> accesses;
  if (o.oracle_region < kPageSize || o.oracle_region > 512 * 1024 || (o.oracle_region & (o.oracle_region - 1)) != 0)
    report_error(msg::kUsage,
                 "--oracle-region " + std::to_string(o.oracle_region) + " B: a power of two from 4KiB to 512KiB");
  if (placement == Placement::Oracle)
    accesses = profile(*workload, fabric, threads, o.warmup + o.instructions, o.oracle_region);
  // A ChampSim trace's footprint is unknown (0) until read: under oracle placement it is the pages
  // the profile saw; first touch never places pages in the pool, so there its limit does not matter.
  uint64_t footprint = workload->footprint();
  if (footprint == 0 && accesses) footprint = accesses->pages().size() * kPageSize;
  // An initial placement's file lists the pages the program touches (the artifact's profile).
  if (footprint == 0 && !o.initial_placement.empty())
    footprint = initial_placement_pages(o.initial_placement) * kPageSize;
  PageMap pages = make_page_map(fabric, pool_limit_bytes(pool_fraction, footprint), tracking.get());
  set_allocation(pages, platform.os(), fabric);
  const size_t pool = pool_node(pages);
  if (!o.initial_placement.empty()) place_initial(pages, o.initial_placement, stimulus, fabric, pool);
  if (checkpoint) restore_pages(*checkpoint, o.checkpoint, pages, socket_nodes(fabric), pool);
  if (accesses) place_oracle(pages, *accesses, pool, os.pool_sharers(sockets));
  // Dynamic placement: first touch, then the OS's migration phases.
  const MigrationKnowledge knowledge =
      checkpoint ? (checkpoint->knowledge == "perfect" ? MigrationKnowledge::Perfect : MigrationKnowledge::Tracker)
                 : os.knowledge(tracking != nullptr);
  if (checkpoint && knowledge == MigrationKnowledge::Tracker && !tracking)
    report_error(msg::kInput, o.checkpoint +
                                  ": decided on the trackers' counts; this platform has no tracking hardware "
                                  "(topology.socket.tracking.impl: model or rtl)");
  if (placement == Placement::Dynamic && os.rule() == MigrationRule::Balance &&
      knowledge == MigrationKnowledge::Tracker)
    report_error(msg::kConfig,
                 "os.migration: balance decides from per-page counts (os.policy: perfect or auto), not "
                 "from the trackers' regions");
  if (placement != Placement::FirstTouch && platform.settings().separate_hosts())
    report_error(msg::kConfig,
                 "platform.separate_hosts: oracle and dynamic placement model one machine's OS; with "
                 "separate hosts use first-touch placement and os.allocation");
  // AutoNUMA and LACX decide from their own hinting faults, not in phases.
  const bool numa_balancing = placement == Placement::Dynamic && !checkpoint &&
                              (os.rule() == MigrationRule::AutoNuma || os.rule() == MigrationRule::Lacx);
  PageCounter page_counts;
  const bool perfect = placement == Placement::Dynamic && knowledge == MigrationKnowledge::Perfect && !numa_balancing;
  // The OS turns the tracking hardware on when its migration decides by the trackers; otherwise it
  // is there but idle, unless tracking.active says always (docs/decisions.md, issue 33).
  if (tracking && !tracking->always_active() &&
      !(placement == Placement::Dynamic && knowledge == MigrationKnowledge::Tracker && !numa_balancing))
    tracking->idle();

  PageTable page_table(pages);
  std::vector<std::unique_ptr<SocketLlc>> llcs;
  for (size_t s = 0; s < sockets; ++s) {
    Socket& sock = *fabric.requesters()[s];
    llcs.push_back(std::make_unique<SocketLlc>(sock.llc_config(), sock.cores(), o.seed + s));
  }
  if (o.detailed_sockets > sockets)
    report_error(msg::kUsage, "--detailed-sockets " + std::to_string(o.detailed_sockets) + ": the platform has " +
                                  std::to_string(sockets) + " sockets");
  const size_t detailed = o.detailed_sockets ? o.detailed_sockets : sockets;
  Coherence* coherence = platform.coherence().enabled() ? &platform.coherence() : nullptr;
  // The LLCs are the coherence's caching agents for this run only.
  struct Detach {
    Coherence* c;
    ~Detach() {
      if (c)
        for (size_t s = 0; s < c->sockets(); ++s) c->attach(s, nullptr);
    }
  } detach{coherence};
  if (coherence)
    for (size_t s = 0; s < sockets; ++s) coherence->attach(s, llcs[s].get());
  // The trackers' metadata requests go through the LLCs of this run (metadata_path: llc).
  struct Unbind {
    Fabric& f;
    bool on;
    ~Unbind() {
      if (on)
        for (Socket* s : f.requesters()) s->tracking().bind_llc(nullptr, nullptr);
    }
  } unbind{fabric, tracking != nullptr};
  if (tracking)
    for (size_t s = 0; s < sockets; ++s) fabric.requesters()[s]->tracking().bind_llc(llcs[s].get(), coherence);
  std::vector<unsigned> program_threads;
  std::vector<size_t> program_of;
  unsigned initialising_programs = 0;
  for (size_t p = 0; p < stimulus.programs.size(); ++p) {
    const RunProgram& prog = stimulus.programs[p];
    program_threads.push_back(prog.threads);
    program_of.insert(program_of.end(), prog.threads, p);
    initialising_programs += prog.threads && workload->thread_initialises(prog.first_thread) && !checkpoint;
  }
  RunControl control(program_threads, initialising_programs, o.warmup > 0);
  std::unique_ptr<PageMover> numa_mover;
  std::unique_ptr<AutoNuma> autonuma;
  if (numa_balancing) {
    std::vector<SocketLlc*> llc_list;
    for (const auto& l : llcs) llc_list.push_back(l.get());
    numa_mover = std::make_unique<PageMover>(fabric, pages, coherence, std::move(llc_list));
    autonuma = std::make_unique<AutoNuma>(autonuma_setup(os, fabric, pages, *numa_mover, control));
  }
  std::optional<TransactionTrace> transactions;
  if (!o.transactions.path.empty()) {
    std::vector<std::string> names;
    for (const Socket* sock : fabric.requesters()) names.push_back(sock->basename());
    transactions.emplace(o.transactions, names);
  }
  for (unsigned t = 0; t < threads.size(); ++t) {
    const size_t s = threads[t].socket;
    const RunProgram& prog = stimulus.programs[program_of[t]];
    Socket& sock = *fabric.requesters()[s];
    std::unique_ptr<ThreadStream> stream = workload->stream(t);
    if (checkpoint) stream = resume_stream(std::move(stream), checkpoint->ops[t], o.checkpoint);
    threads[t].core->start(Core::Job{
        std::move(stream),
        CacheHierarchy::RunContext{&pages, llcs[s].get(), sock.observer(), platform.settings().quantum().ps() * 1000,
                                   &page_table, perfect ? &page_counts : nullptr, autonuma.get(),
                                   transactions ? &*transactions : nullptr, s >= detailed},
        workload->executes() ? prog.instructions : 0, platform.settings().quantum(), &control, o.seed * 1000003 + t,
        workload->thread_initialises(t) && !checkpoint, o.warmup, program_of[t]});
  }

  std::unique_ptr<MigrationEngine> migration;
  if (autonuma) autonuma->start();
  if (placement == Placement::Dynamic && !autonuma) {
    MigrationEngine::Setup m;
    m.fabric = &fabric;
    m.pages = &pages;
    m.coherence = coherence;
    for (size_t s = 0; s < sockets; ++s) {
      m.llcs.push_back(llcs[s].get());
      if (tracking) m.trackers.push_back(&fabric.requesters()[s]->tracking());
    }
    m.socket_node = socket_nodes(fabric);
    if (knowledge == MigrationKnowledge::Tracker && tracking) {
      m.metadata = tracking->metadata().get();
      m.metadata_range = tracking->home_range();
    }
    m.counts = perfect ? &page_counts : nullptr;
    for (const ThreadPlace& t : threads) m.cores.push_back(t.core);
    m.control = &control;
    m.os = &os;
    m.knowledge = knowledge;
    m.rule = os.rule();
    m.pool = pool;
    const size_t os_socket = std::min<size_t>(os.os_socket(), sockets - 1);
    m.os_cycle_fs = static_cast<int64_t>(std::llround(1e15 / fabric.requesters()[os_socket]->frequency().hz()));
    m.seed = o.seed;
    m.progress = o.progress;
    if (checkpoint) m.replay = replay_of(*checkpoint, m.socket_node, pool);
    migration = std::make_unique<MigrationEngine>(std::move(m));
    migration->start();
  }

  const auto host_start = std::chrono::steady_clock::now();
  const bool tty = isatty(2) != 0;
  if (o.progress) {
    uint64_t total = 0;
    for (const RunProgram& prog : stimulus.programs) total += (o.warmup + prog.instructions) * prog.threads;
    auto last = host_start;
    control.set_progress([&, total, last]() mutable {
      const auto now = std::chrono::steady_clock::now();
      if (now - last < std::chrono::milliseconds(tty ? 500 : 10000)) return;
      last = now;
      uint64_t done = 0;
      for (const ThreadPlace& tp : threads) done += tp.core->retired_so_far();
      const double host = std::chrono::duration<double>(now - host_start).count();
      const double rate = static_cast<double>(done) / host;
      std::fprintf(stderr, "%s%.1f us simulated, %llu of %llu instructions, %.2f MIPS, ETA %s%s", tty ? "\r" : "",
                   sc_core::sc_time_stamp().to_seconds() * 1e6, static_cast<unsigned long long>(done),
                   static_cast<unsigned long long>(total), rate / 1e6,
                   format_duration(rate > 0 ? static_cast<double>(total - std::min(total, done)) / rate : 0).c_str(),
                   tty ? "   " : "\n");
    });
  }
  std::optional<Timeline> timeline;
  if (o.timeline > sc_core::SC_ZERO_TIME) {
    const sc_core::sc_time quantum(static_cast<double>(platform.settings().quantum().ps()), sc_core::SC_PS);
    if (o.timeline < quantum)
      report_error(msg::kUsage, "--timeline " + o.timeline.to_string() + " is finer than the platform's quantum (" +
                                    quantum.to_string() + "), the resolution the cores are sampled at");
    timeline.emplace(fabric, pages, o.timeline);
    control.set_sampler([&timeline] { timeline->poll(); });
  }
  std::optional<Waves> waves;
  if (!o.waves.path.empty()) {
    waves.emplace(o.waves);
    attach_waves(*waves);
    if (migration) migration->attach_waves(*waves);
    if (numa_mover) numa_mover->attach_waves(*waves);
  }
  bool stopped_at_limit = false;
  if (platform.initiators().empty()) {
    sc_core::sc_start();
  } else {  // a plug-in's initiator may never finish: bounded in simulated time, and said
    sc_core::sc_start(
        sc_core::sc_time::from_value(static_cast<sc_dt::uint64>(platform.settings().initiator_time_limit().ps())),
        sc_core::SC_EXIT_ON_STARVATION);
    stopped_at_limit = sc_core::sc_pending_activity();
  }
  if (waves) waves->write();
  if (transactions) transactions->write();
  if (o.progress && tty) std::fprintf(stderr, "\r%80s\r", "");
  const double host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - host_start).count();
  if (tracking) tracking->finish();
  fabric.check_conservation();

  RunResult r;
  if (timeline) {
    timeline->finish(control.end());
    r.timeline = timeline->to_json();
  }
  r.platform = platform.source();
  r.workload = o.workload;
  r.placement = name_of(placement);
  if (checkpoint) {
    r.placement = "sampled window";
    r.checkpoint_phase = checkpoint->phase;
  }
  if (autonuma) {
    autonuma->finish();
    r.migration_policy = os.rule() == MigrationRule::Lacx ? "AutoNUMA with LACX" : "AutoNUMA";
    r.migration = autonuma->report();
    if (const std::string bad = pages.check(); !bad.empty()) report_internal("page map after AutoNUMA: " + bad);
  }
  if (migration) {
    if (os.rule() == MigrationRule::Balance) {
      r.migration_policy = "balance (DM) on per-page counts";
    } else if (knowledge == MigrationKnowledge::Perfect) {
      r.migration_policy = "perfect per-page knowledge";
    } else {
      r.migration_policy =
          "Algorithm 1 on T" + std::to_string(tracking->metadata()->layout().config().counter_bits) + " trackers";
    }
    r.migration = migration->report();
    if (const std::string bad = pages.check(); !bad.empty()) report_internal("page map after migration: " + bad);
  }
  r.host_seconds = host_seconds;
  // Initiators may go on after the cores are done (with the idle workload, they are all there is):
  // the measurement lasts until the last of them is.
  const sc_core::sc_time end =
      platform.initiators().empty() ? control.end() : std::max(control.end(), sc_core::sc_time_stamp());
  const sc_core::sc_time measured = end - control.measurement_start();
  r.sim_time_ns = measured.to_seconds() * 1e9;
  r.detailed_sockets = static_cast<unsigned>(detailed);
  r.coherence = coherence != nullptr;
  double ipc_sum = 0, latency_ps = 0, unloaded_ps = 0, walk_ps = 0;
  size_t detailed_cores = 0;
  r.warmup = o.warmup;
  for (size_t s = 0; s < sockets; ++s) {
    const Socket& sock = *fabric.requesters()[s];
    double sum = 0;
    for (const auto& c : sock.core_list()) {
      sum += c->ipc();
      r.instructions += c->instructions();
      r.instructions_requested += c->budget();
      r.threads_ended_early += c->ended_early();
      r.llc_misses += c->memory().llc_misses.value();
      r.page_walks += c->memory().stlb_misses.value();
      r.walk_llc_misses += c->memory().walk_llc_misses.value();
      walk_ps += static_cast<double>(c->memory().walk_latency_ps.value());
      for (size_t k = 0; k < kMissClasses; ++k) {
        r.accesses[k] += c->memory().memory_accesses[k].value();
        latency_ps += static_cast<double>(c->memory().memory_latency_ps[k].value());
        unloaded_ps += static_cast<double>(c->memory().memory_unloaded_ps[k].value());
      }
    }
    if (s < detailed) {
      ipc_sum += sum;
      detailed_cores += sock.cores();
    }
    r.sockets.push_back(sock.basename());
    r.socket_ipc.push_back(sock.cores() ? sum / sock.cores() : 0);
  }
  r.ipc = detailed_cores ? ipc_sum / static_cast<double>(detailed_cores) : 0;
  if (stimulus.mix) r.programs = program_results(stimulus);
  if (r.page_walks) r.walk_ns = walk_ps / 1e3 / static_cast<double>(r.page_walks);
  const uint64_t total = std::accumulate(r.accesses.begin(), r.accesses.end(), uint64_t{0});
  if (total) {
    for (size_t k = 0; k < kMissClasses; ++k)
      r.breakdown[k] = static_cast<double>(r.accesses[k]) / static_cast<double>(total);
    r.amat_ns = latency_ps / 1e3 / static_cast<double>(total);
    r.amat_unloaded_ns = unloaded_ps / 1e3 / static_cast<double>(total);
    r.amat_contention_ns = r.amat_ns - r.amat_unloaded_ns;
  }
  const Time elapsed = Time::from_ps(static_cast<int64_t>(measured.value()));
  std::vector<std::string> types;
  for (const Link* l : platform.links())
    if (std::find(types.begin(), types.end(), l->type_name()) == types.end()) types.push_back(l->type_name());
  for (const std::string& type : types) {
    double sum = 0;
    int n = 0;
    for (const Link* l : platform.links()) {
      if (l->type_name() != type) continue;
      sum += l->channel_from(*l->node_a()).utilization(elapsed) + l->channel_from(*l->node_b()).utilization(elapsed);
      n += 2;
    }
    r.link_utilization.emplace_back(type, n ? sum / n : 0);
  }
  // A link direction busy for longer than the measured time would be a model defect, not a result.
  for (const Link* l : platform.links())
    for (const FabricNode* from : {l->node_a(), l->node_b()})
      if (const double u = l->channel_from(*from).utilization(elapsed); u > 1.0 + 1e-9)
        report_internal(l->path() + " (" + l->direction_name(*from) + ") was busy " + std::to_string(100 * u) +
                        " % of the measured time");
  r.stats = stats_json(measured);
  if (stopped_at_limit)
    r.shortfalls.push_back("the run stopped at platform.initiator_time_limit (" +
                           format_time(platform.settings().initiator_time_limit()) +
                           " of simulated time) with initiators still running: one that never finishes?");
  note_shortfalls(r, o, os, threads, placement == Placement::Dynamic && migration != nullptr);
  if (tracking) {
    r.tracking = tracking->active() ? "on" : "idle";
    r.trackers = tracking->metadata();
    if (!o.dump_trackers.empty()) write_file_atomically(o.dump_trackers, r.trackers->csv());
  }
  return r;
}

nlohmann::ordered_json RunResult::summary_json() const {
  nlohmann::ordered_json j;
  j["platform"] = platform;
  j["workload"] = workload;
  j["placement"] = placement;
  if (checkpoint_phase) j["checkpoint_phase"] = checkpoint_phase;
  j["ipc"] = ipc;
  j["detailed_sockets"] = detailed_sockets;
  if (!tracking.empty()) j["tracking"] = tracking;
  nlohmann::ordered_json per_socket = nlohmann::ordered_json::object();
  for (size_t s = 0; s < sockets.size(); ++s) per_socket[sockets[s]] = socket_ipc[s];
  j["ipc_per_socket"] = per_socket;
  if (!programs.empty()) {
    nlohmann::ordered_json per_program = nlohmann::ordered_json::object();
    for (const ProgramResult& p : programs)
      per_program[p.name] = {{"workload", p.workload},         {"place", p.place},
                             {"threads", p.threads},           {"ipc", p.ipc},
                             {"time_ns", p.time_ns},           {"amat_ns", p.amat_ns},
                             {"instructions", p.instructions}, {"llc_misses", p.llc_misses}};
    j["programs"] = per_program;
  }
  j["amat_ns"] = amat_ns;
  j["amat_unloaded_ns"] = amat_unloaded_ns;
  j["amat_contention_ns"] = amat_contention_ns;
  nlohmann::ordered_json breakdown_json = nlohmann::ordered_json::object(), counts = nlohmann::ordered_json::object();
  for (size_t k = 0; k < classes(); ++k) {
    breakdown_json[miss_class_name(static_cast<MissClass>(k))] = breakdown[k];
    counts[miss_class_name(static_cast<MissClass>(k))] = accesses[k];
  }
  j["access_breakdown"] = breakdown_json;
  j["memory_accesses"] = counts;
  nlohmann::ordered_json util = nlohmann::ordered_json::object();
  for (const auto& [type, u] : link_utilization) util[type] = u;
  j["link_utilization"] = util;
  j["instructions"] = instructions;
  j["instructions_requested"] = instructions_requested;
  j["threads_ended_early"] = threads_ended_early;
  j["shortfalls"] = shortfalls;
  j["warmup"] = warmup;
  j["llc_misses"] = llc_misses;
  j["page_walks"] = {{"walks", page_walks}, {"mean_ns", walk_ns}, {"llc_misses", walk_llc_misses}};
  if (!migration.is_null()) {
    nlohmann::ordered_json m = migration;
    m["policy"] = migration_policy;
    j["migration"] = m;
  }
  if (stats.contains("initiators")) j["initiators"] = stats["initiators"];
  j["sim_time_ns"] = sim_time_ns;
  j["host_seconds"] = host_seconds;
  return j;
}

nlohmann::ordered_json RunResult::to_json() const {
  nlohmann::ordered_json j = summary_json();
  j["stats"] = stats;
  if (!timeline.is_null()) j["timeline"] = timeline;
  return j;
}

std::string format_summary(const RunResult& r) {
  std::ostringstream os;
  os << std::fixed;
  os << r.workload << " on " << r.platform << " (" << r.placement << " placement)\n\n";
  os << "IPC            " << std::setprecision(3) << r.ipc << " per core\n";
  os << "  per socket  ";
  for (size_t s = 0; s < r.sockets.size(); ++s)
    os << (s % 8 == 0 && s ? "\n              " : "") << " " << r.socket_ipc[s];
  if (!r.programs.empty()) {
    os << "\nprograms       name (place): IPC per core, time, AMAT";
    for (const ProgramResult& p : r.programs)
      os << "\n  " << p.name << " (" << p.place << ", " << p.threads << " threads): " << std::setprecision(3) << p.ipc
         << ", " << std::setprecision(1) << p.time_ns / 1e3 << " us, " << p.amat_ns << " ns";
  }
  os << "\nAMAT           " << std::setprecision(1) << r.amat_ns << " ns = " << r.amat_unloaded_ns << " unloaded + "
     << r.amat_contention_ns << " contention\n";
  os << "accesses      ";
  for (size_t k = 0; k < r.classes(); ++k)
    os << " " << miss_class_name(static_cast<MissClass>(k)) << " " << std::setprecision(1) << 100 * r.breakdown[k]
       << " %";
  if (r.coherence) {
    const nlohmann::json& c = r.stats["coherence"];
    os << "\ntransfers      3-hop " << c["bt_socket"].get<uint64_t>() << " (mean " << std::setprecision(1)
       << c["bt_socket_latency"]["mean"].get<double>() << " ns), via the pool " << c["bt_pool"].get<uint64_t>()
       << " (mean " << c["bt_pool_latency"]["mean"].get<double>() << " ns), " << std::setprecision(2)
       << c["invalidations_per_write"]["mean"].get<double>() << " invalidations per write";
  }
  if (!r.migration.is_null() && r.migration.contains("hinting_faults")) {
    const auto& m = r.migration;
    os << "\nmigration      " << m["pages_moved"].get<uint64_t>() << " pages (" << r.migration_policy
       << "): " << m["to_cxl"].get<uint64_t>() << " to the CXL node, " << m["from_cxl"].get<uint64_t>() << " from it; "
       << m["hinting_faults"].get<uint64_t>() << " hinting faults (" << m["shared_faults"].get<uint64_t>()
       << " shared, " << m["local_faults"].get<uint64_t>() << " local), " << m["pages_unmapped"].get<uint64_t>()
       << " pages unmapped in " << m["scans"].get<uint64_t>() << " scans";
  } else if (!r.migration.is_null()) {
    const auto& m = r.migration;
    os << "\nmigration      " << m["pages_moved"].get<uint64_t>() << " pages in " << m["phases"].get<uint64_t>()
       << " phases (" << r.migration_policy << "): " << m["to_pool"].get<uint64_t>() << " to the pool, "
       << m["from_pool"].get<uint64_t>() << " from it, " << m["socket_to_socket"].get<uint64_t>()
       << " socket to socket; " << m["shootdowns_sent"].get<uint64_t>() << " shootdowns";
  }
  if (r.walk_ns > 0)
    os << "\npage walks     " << r.page_walks << " (mean " << std::setprecision(1) << r.walk_ns << " ns), "
       << r.walk_llc_misses << " entry reads from memory";
  if (r.tracking == "idle") {
    os << "\ntracking       idle: no migration decides by it (tracking.active: always runs it anyway)";
  } else if (r.tracking == "on") {
    uint64_t flushes = 0, requests = 0, hits = 0, stall = 0;
    for (const auto& [name, node] : r.stats["nodes"].items()) {
      if (!node.contains("tracking")) continue;
      const nlohmann::json& t = node["tracking"];
      flushes += t["flushes"].get<uint64_t>();
      requests += t["tracker_reads"].get<uint64_t>() + t["tracker_writes"].get<uint64_t>();
      hits += t["metadata_llc_hits"].get<uint64_t>() + t["metadata_cache_hits"].get<uint64_t>();
      stall += t["core_stall_cycles"].get<uint64_t>();
    }
    os << "\ntracking       " << flushes << " flushes, " << requests << " metadata requests (" << std::setprecision(1)
       << (requests ? 100.0 * static_cast<double>(hits) / static_cast<double>(requests) : 0.0) << " % cached), "
       << stall << " core cycles held by full tracker queues";
  }
  if (r.stats.contains("initiators"))
    for (const auto& [name, i] : r.stats["initiators"].items())
      os << "\ninitiator " << name << "  " << i["transactions"].get<uint64_t>() << " transactions ("
         << i["reads"].get<uint64_t>() << " reads), " << std::setprecision(2) << i["bandwidth"].get<double>()
         << " GB/s, latency " << std::setprecision(1) << i["latency"]["mean"].get<double>() << " ns mean, "
         << i["latency"]["max"].get<double>() << " max";
  os << "\nlink busy     ";
  for (const auto& [type, u] : r.link_utilization) os << " " << type << " " << std::setprecision(1) << 100 * u << " %";
  os << "\n\n"
     << r.instructions << " instructions, " << r.llc_misses << " LLC misses, " << std::setprecision(1)
     << r.sim_time_ns / 1e3 << " us simulated in " << std::setprecision(2) << r.host_seconds << " s ("
     << (r.host_seconds > 0 ? r.instructions / r.host_seconds / 1e6 : 0) << " MIPS)";
  if (r.warmup) os << " after a warm-up of " << r.warmup << " instructions per thread";
  os << "\n";
  for (const std::string& s : r.shortfalls) os << "\nWARNING: " << s << "\n";
  return os.str();
}

}  // namespace starnuma
