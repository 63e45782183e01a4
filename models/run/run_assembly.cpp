#include "run/run_assembly.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unistd.h>

#include "common/output_file.hpp"
#include "run/run_setup.hpp"
#include "run/run_results.hpp"
#include "run/sampled_window.hpp"
#include "socket/socket.hpp"
#include "stimulus/program_mix.hpp"
#include "stimulus/trace/recorded_then_generated.hpp"
#include "stimulus/trace/trace_input.hpp"
#include "stimulus/workload_registry.hpp"

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
  a.rules.lacx = os.lacx();
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

}  // namespace

RunAssembly::Detach::~Detach() {
  if (tracked)
    for (Socket* s : tracked->requesters()) s->tracking().bind_llc(nullptr, nullptr);
  if (coherence)
    for (size_t s = 0; s < coherence->sockets(); ++s) coherence->attach(s, nullptr);
}

RunAssembly::RunAssembly(Platform& platform, const RunOptions& options)
    : platform_(platform),
      fabric_(platform.fabric()),
      os_(platform.os()),
      sockets_(fabric_.requesters().size()),
      o_(options) {
  if (place_threads(fabric_).empty())
    report_error(msg::kConfig, platform.source() + ": no socket has a core: there is nothing to run the workload on");
  plan_stimulus();
  check_initial_placement();
  // Before the cores start: they capture their socket's observer.
  tracking_ = PlatformTracking::attach(fabric_, tracked_sockets(fabric_));
  if (!o_.dump_trackers.empty() && !tracking_)
    report_error(msg::kUsage, "--dump-trackers " + o_.dump_trackers +
                                  ": tracking is off (set topology.socket.tracking.impl to model or rtl)");
  plan_placement();
}

void RunAssembly::plan_stimulus() {
  RunOptions& o = o_;
  if (o.trace_goes_on && o.checkpoint.empty() && o.trace_in.size() == 1)
    recording_ =
        trace::open_recording(o.trace_in.front(), static_cast<unsigned>(place_threads(fabric_).size()), "--trace-in");
  if (!o.checkpoint.empty()) {
    checkpoint_ = read_checkpoint(o.checkpoint);
    if (!o.trace_in.empty()) {  // the checkpoint's workload, recorded: the window seeks to its position
      if (o.trace_in.size() != 1)
        report_error(msg::kUsage, "--checkpoint with --trace-in: one recording of the checkpoint's workload");
      recording_ = trace::open_recording(o.trace_in.front(), static_cast<unsigned>(place_threads(fabric_).size()),
                                         "--checkpoint with --trace-in");
      const trace::TraceHeader& h = recording_->header();
      o.workload = h.workload;  // compared with the checkpoint's below, as a --workload is
      o.workload_given = true;
      if (!o.seed_given) o.seed = h.seed;
      o.seed_given = true;
    }
    if (!o.workload_given) o.workload = checkpoint_->workload;
    if (!o.seed_given) o.seed = checkpoint_->seed;
    check_checkpoint(*checkpoint_, o.checkpoint, fabric_, o.workload, o.seed);
    if (o.warm_llcs_if_carried && !checkpoint_->caches.empty()) o.warm_llcs = true;
    if (o.warm_tlbs && checkpoint_->tlbs.empty())
      report_error(msg::kUsage, "--warm-tlbs: " + o.checkpoint + " carries no TLBs");
    if (o.warm_llcs && checkpoint_->caches.empty())
      report_error(msg::kUsage,
                   "--warm-llcs: " + o.checkpoint + " carries no LLCs (make it with checkpoint --warm-llcs)");
    if (o.copies_done && !checkpoint_->unit)
      report_error(msg::kUsage, "--copies-done: " + o.checkpoint +
                                    " is a boundary's checkpoint, whose window makes all its copies; only a unit's "
                                    "(unit-K-J.ckpt) starts with some made");
    if (o.copies_done && *o.copies_done > checkpoint_->moves.size())
      report_error(msg::kUsage, "--copies-done " + std::to_string(*o.copies_done) + ": the phase of " + o.checkpoint +
                                    " has " + std::to_string(checkpoint_->moves.size()) + " copies");
    if (o.time_copies_to && checkpoint_->unit)
      report_error(msg::kUsage, "--time-copies-to: " + o.checkpoint +
                                    " is a unit's checkpoint; only a boundary's window starts its phase's copies");
    if (o.time_copies_to && !o.common_span)
      report_error(msg::kUsage, "--time-copies-to needs --common-span (the window ends for every thread at once)");
    read_next_boundary();
  } else if (o.copies_done) {
    report_error(msg::kUsage, "--copies-done needs --checkpoint (a unit's)");
  } else if (!o.next_boundary.empty()) {
    report_error(msg::kUsage, "--next-boundary needs --checkpoint (a unit's)");
  } else if (o.warm_tlbs || o.warm_llcs) {
    report_error(msg::kUsage, std::string(o.warm_tlbs ? "--warm-tlbs" : "--warm-llcs") + " needs --checkpoint");
  }
  if (o.trace_in.empty() && is_program_mix(o.workload)) {
    if (checkpoint_) report_error(msg::kUsage, "--checkpoint: sampled windows run one workload, not a mix of programs");
    stimulus_ = make_mix_stimulus(o.workload, fabric_, o.seed, o.instructions);
  } else {
    std::vector<ThreadPlace> all = place_threads(fabric_);
    std::unique_ptr<Workload> w;
    std::optional<uint64_t> folded_space;
    bool windowed = false;
    if (o.trace_in.empty()) {
      w = make_workload(o.workload, static_cast<unsigned>(all.size()), static_cast<unsigned>(sockets_), o.seed);
    } else if (recording_) {  // a window over its workload's recording: seeks to its position
      w = trace::recorded_then_generated(recording_, static_cast<unsigned>(sockets_));
    } else {
      trace::TraceInputOptions to{o.trace_space, o.trace_phase, {}};
      for (const ThreadPlace& t : all) to.detailed.push_back(!o.detailed_sockets || t.socket < o.detailed_sockets);
      trace::TraceInput input = trace::open_trace_input(o.trace_in, static_cast<unsigned>(all.size()), to);
      w = std::move(input.workload);
      o.workload = input.description;  // a recorded workload reports as the workload it records
      if (!o.seed_given && input.seed) o.seed = *input.seed;
      if (!o.instructions_given && input.instructions) o.instructions = *input.instructions;
      if (input.shared) {  // one program's threads: its terabytes folded into the platform's space
        folded_space = virtual_address_limit(fabric_).bytes;
        w = one_process(std::move(w), o.workload, *folded_space);
      }
      windowed = input.windowed;
    }
    stimulus_ = single_program(std::move(w), std::move(all), o.workload, o.instructions);
    stimulus_.folded_space = folded_space;
    stimulus_.windowed = windowed;
  }
  std::string source = o.trace_in.empty() ? "workload " + o.workload : "trace";
  for (const std::string& f : o.trace_in) source += (&f == &o.trace_in.front() ? " " : ",") + f;
  stimulus_.workload = limit_addresses(std::move(stimulus_.workload), source, virtual_address_limit(fabric_));
}

void RunAssembly::check_initial_placement() const {
  if (o_.initial_placement.empty()) return;
  const std::string what = "--initial-placement " + o_.initial_placement + ": ";
  if (checkpoint_) report_error(msg::kUsage, what + "a sampled window's placement is the checkpoint's");
  if (stimulus_.mix) report_error(msg::kUsage, what + "a page-owner file names one program's pages, not a mix's");
  if (stimulus_.windowed)
    report_error(msg::kUsage, what +
                                  "names the traces' own pages; multi-programmed ChampSim traces move them into "
                                  "per-core windows (run them as one program: --trace-space shared)");
  if (o_.placement.value_or(os_.placement()) == Placement::Oracle)
    report_error(msg::kUsage, what +
                                  "the oracle places every page itself; use first-touch (the artifact's static "
                                  "runs) or dynamic placement");
}

void RunAssembly::plan_placement() {
  const RunOptions& o = o_;
  placement_ = checkpoint_ ? Placement::Dynamic : o.placement.value_or(os_.placement());
  if (checkpoint_ && o.placement && *o.placement != Placement::Dynamic)
    report_error(msg::kUsage, "--checkpoint: a sampled window's placement is the checkpoint's (dynamic)");
  if (o.oracle_region < kPageSize || o.oracle_region > 512 * 1024 || (o.oracle_region & (o.oracle_region - 1)) != 0)
    report_error(msg::kUsage,
                 "--oracle-region " + std::to_string(o.oracle_region) + " B: a power of two from 4KiB to 512KiB");
  knowledge_ = checkpoint_
                   ? (checkpoint_->knowledge == "perfect" ? MigrationKnowledge::Perfect : MigrationKnowledge::Tracker)
                   : os_.knowledge(tracking_ != nullptr);
  if (placement_ == Placement::Oracle)  // the profile, before the page map the footprint sizes
    accesses_ = profile(*stimulus_.workload, fabric_, stimulus_.threads, o.warmup + o.instructions, o.oracle_region);
  assemble_memory();
  if (checkpoint_ && knowledge_ == MigrationKnowledge::Tracker && !tracking_)
    report_error(msg::kInput, o.checkpoint +
                                  ": decided on the trackers' counts; this platform has no tracking hardware "
                                  "(topology.socket.tracking.impl: model or rtl)");
  const PhasePolicyType* phases = find_phase_policy(os_.migration());
  if (placement_ == Placement::Dynamic && phases && !phases->reads_regions && knowledge_ == MigrationKnowledge::Tracker)
    report_error(msg::kConfig, "os.migration: " + os_.migration() +
                                   " decides from per-page counts (os.policy: perfect or auto), not from the "
                                   "trackers' regions");
  if (placement_ != Placement::FirstTouch && platform_.settings().separate_hosts())
    report_error(msg::kConfig,
                 "platform.separate_hosts: oracle and dynamic placement model one machine's OS; with "
                 "separate hosts use first-touch placement and os.allocation");
  numa_balancing_ = placement_ == Placement::Dynamic && !checkpoint_ && os_.numa_balancing();
  perfect_ = placement_ == Placement::Dynamic && knowledge_ == MigrationKnowledge::Perfect && !numa_balancing_;
  if (!o.moves_from.empty() && (placement_ != Placement::Dynamic || numa_balancing_ || checkpoint_))
    report_error(msg::kUsage, "--moves-from " + o.moves_from +
                                  ": only a continuous run's migration phases take their moves from a list "
                                  "(--placement dynamic, os.migration a phase policy, no --checkpoint)");
  if (!o.moves.empty() && (placement_ != Placement::Dynamic || numa_balancing_))
    report_error(msg::kUsage, "--moves " + o.moves +
                                  ": only migration phases decide moves to list (--placement dynamic, os.migration a "
                                  "phase policy such as algorithm1, not " +
                                  (placement_ == Placement::Dynamic ? os_.migration() : "this placement") + ")");
  // The OS turns the tracking hardware on when its migration decides by the trackers; otherwise it
  // is there but idle, unless tracking.active says always (docs/decisions.md, issue 33).
  if (tracking_ && !tracking_->always_active() &&
      !(placement_ == Placement::Dynamic && knowledge_ == MigrationKnowledge::Tracker && !numa_balancing_))
    tracking_->idle();
  if (o.detailed_sockets > sockets_)
    report_error(msg::kUsage, "--detailed-sockets " + std::to_string(o.detailed_sockets) + ": the platform has " +
                                  std::to_string(sockets_) + " sockets");
  detailed_ = o.detailed_sockets ? o.detailed_sockets : sockets_;
  coherence_ = platform_.coherence().enabled() ? &platform_.coherence() : nullptr;
}

// The page map: its nodes, the pool's share of the footprint, and the pages placed before the run
// (an initial placement, a checkpoint's, the oracle's).
void RunAssembly::assemble_memory() {
  const RunOptions& o = o_;
  const Workload& workload = *stimulus_.workload;
  // A ChampSim trace's footprint is unknown (0) until read: under oracle placement it is the pages
  // the profile saw; first touch never places pages in the pool, so there its limit does not matter.
  uint64_t footprint = workload.footprint();
  if (footprint == 0 && accesses_) footprint = accesses_->pages().size() * kPageSize;
  // An initial placement's file lists the pages the program touches (the artifact's profile).
  if (footprint == 0 && !o.initial_placement.empty())
    footprint = initial_placement_pages(o.initial_placement) * kPageSize;
  const double pool_fraction = o.pool_fraction.value_or(os_.pool_fraction());
  pages_.emplace(make_page_map(fabric_, pool_limit_bytes(pool_fraction, footprint), tracking_.get()));
  PageMap& pages = *pages_;
  set_allocation(pages, os_, fabric_);
  pool_ = pool_node(pages);
  if (!o.initial_placement.empty()) place_initial(pages, o.initial_placement, stimulus_, fabric_, pool_);
  if (checkpoint_) restore_pages(*checkpoint_, o.checkpoint, pages, socket_nodes(fabric_), pool_);
  if (checkpoint_ && o.copies_done)
    in_flight_ = take_back_in_flight(*checkpoint_, *o.copies_done, pages, socket_nodes(fabric_), pool_);
  if (accesses_) place_oracle(pages, *accesses_, pool_, os_.pool_sharers(sockets_));
}

void RunAssembly::assemble_caches() {
  page_table_.emplace(*pages_);
  // The pass's page tables, when it walked (checkpoint --warm-llcs): their lines are in its LLCs.
  if (checkpoint_ && !checkpoint_->page_tables.empty()) page_table_->restore(checkpoint_->page_tables);
  for (size_t s = 0; s < sockets_; ++s) {
    Socket& sock = *fabric_.requesters()[s];
    llcs_.push_back(
        std::make_unique<SocketLlc>(sock.llc_config(), sock.cores(), o_.seed + s, fabric_.map_end() / kLineBytes));
  }
  detach_.coherence = coherence_;
  if (coherence_)
    for (size_t s = 0; s < sockets_; ++s) coherence_->attach(s, llcs_[s].get());
  // The trackers' metadata requests go through the LLCs of this run (metadata_path: llc).
  if (tracking_) {
    detach_.tracked = &fabric_;
    for (size_t s = 0; s < sockets_; ++s) fabric_.requesters()[s]->tracking().bind_llc(llcs_[s].get(), coherence_);
  }
}

void RunAssembly::assemble_control() {
  std::vector<unsigned> program_threads;
  unsigned initialising_programs = 0;
  for (const RunProgram& prog : stimulus_.programs) {
    program_threads.push_back(prog.threads);
    initialising_programs += prog.threads && stimulus_.workload->thread_initialises(prog.first_thread) && !checkpoint_;
  }
  control_.emplace(program_threads, initialising_programs, o_.warmup > 0);
  if (o_.common_span) {
    if (stimulus_.programs.size() > 1)
      report_error(msg::kUsage, "--common-span: a mix's programs measure each its own budget; one workload only");
    const RunProgram& prog = stimulus_.programs.front();
    control_->set_span(std::max(prog.instructions, o_.time_copies_to) * prog.threads, o_.warmup * prog.threads);
    if (o_.time_copies_to > prog.instructions) control_->set_span_floor(prog.instructions * prog.threads);
  }
  if (numa_balancing_) {
    std::vector<SocketLlc*> llc_list;
    for (const auto& l : llcs_) llc_list.push_back(l.get());
    numa_mover_ = std::make_unique<PageMover>(fabric_, *pages_, coherence_, std::move(llc_list));
    autonuma_ = std::make_unique<AutoNuma>(autonuma_setup(os_, fabric_, *pages_, *numa_mover_, *control_));
  }
  if (!o_.transactions.path.empty()) {  // before the cores start: their jobs hold it
    std::vector<std::string> names;
    for (const Socket* sock : fabric_.requesters()) names.push_back(sock->basename());
    transactions_.emplace(o_.transactions, names);
  }
}

void RunAssembly::start_cores() {
  Workload& workload = *stimulus_.workload;
  const Time quantum = platform_.settings().quantum();
  const uint64_t skew_fs = static_cast<uint64_t>(platform_.settings().start_skew().ps()) * 1000;
  const uint64_t skew_seed = ~o_.seed + 0x9e3779b97f4a7c15ull * platform_.settings().start_skew_draw();
  std::vector<size_t> program_of;  // each thread's, in the stimulus' order
  for (size_t p = 0; p < stimulus_.programs.size(); ++p)
    program_of.insert(program_of.end(), stimulus_.programs[p].threads, p);
  for (unsigned t = 0; t < stimulus_.threads.size(); ++t) {
    const size_t program = program_of[t];
    const RunProgram& prog = stimulus_.programs[program];
    const size_t s = stimulus_.threads[t].socket;
    Socket& sock = *fabric_.requesters()[s];
    std::unique_ptr<ThreadStream> stream = workload.stream(t);
    if (checkpoint_) stream = resume_stream(std::move(stream), checkpoint_->ops[t], o_.checkpoint);
    stimulus_.threads[t].core->start(
        Core::Job{std::move(stream),
                  CacheHierarchy::RunContext{&*pages_, llcs_[s].get(), sock.observer(), quantum.ps() * 1000,
                                             &*page_table_, perfect_ ? &page_counts_ : nullptr, autonuma_.get(),
                                             transactions_ ? &*transactions_ : nullptr, s >= detailed_},
                  workload.executes() ? prog.instructions : 0, quantum, &*control_, o_.seed * 1000003 + t,
                  workload.thread_initialises(t) && !checkpoint_, o_.warmup, program,
                  skew_fs ? static_cast<int64_t>(thread_seed(skew_seed, t) % skew_fs) : 0});
  }
  if (checkpoint_ && o_.warm_tlbs) warm_tlbs();
  if (checkpoint_ && o_.warm_llcs) warm_llcs();
}

KernelContext RunAssembly::kernel_context() {
  KernelContext k;
  k.fabric = &fabric_;
  k.pages = &*pages_;
  k.coherence = coherence_;
  for (size_t s = 0; s < sockets_; ++s) k.llcs.push_back(llcs_[s].get());
  for (const ThreadPlace& t : stimulus_.threads) k.cores.push_back(t.core);
  k.control = &*control_;
  k.os = &os_;
  k.socket_node = socket_nodes(fabric_);
  const size_t os_socket = std::min<size_t>(os_.os_socket(), sockets_ - 1);
  k.os_cycle_fs = static_cast<int64_t>(std::llround(1e15 / fabric_.requesters()[os_socket]->frequency().hz()));
  return k;
}

void RunAssembly::read_next_boundary() {
  const RunOptions& o = o_;
  if (o.next_boundary.empty() != !o.next_boundary_after)
    report_error(msg::kUsage,
                 "--next-boundary and --next-boundary-after go together (the boundary's checkpoint, "
                 "and how far after the window's start the phases' clock crosses it)");
  if (o.next_boundary.empty()) return;
  if (!checkpoint_->unit)
    report_error(msg::kUsage, "--next-boundary: " + o.checkpoint +
                                  " is a boundary's checkpoint; only a unit's window runs on into the next phase");
  next_boundary_ = read_checkpoint(o.next_boundary);
  check_checkpoint(*next_boundary_, o.next_boundary, fabric_, o.workload, o.seed);
  if (next_boundary_->unit || next_boundary_->phase != checkpoint_->phase + 1 ||
      next_boundary_->knowledge != checkpoint_->knowledge)
    report_error(msg::kUsage, "--next-boundary: " + o.next_boundary + " is not the boundary after " + o.checkpoint +
                                  " (it holds phase " + std::to_string(next_boundary_->phase) +
                                  (next_boundary_->unit ? ", unit " + std::to_string(next_boundary_->unit) : "") +
                                  ", " + next_boundary_->knowledge + " knowledge; a checkpoint-" +
                                  std::to_string(checkpoint_->phase + 1) + ".ckpt of the same pass is)");
  // The window takes only the boundary's decision from it (its nodes' roles, not their frames).
  next_boundary_->caches = {};
  next_boundary_->tlbs = {};
  next_boundary_->page_tables = {};
  next_boundary_->metadata = {};
  for (Checkpoint::NodeRecord& n : next_boundary_->nodes) n.frames = {};
}

void RunAssembly::start_dynamic_capacity() {
  if (checkpoint_) refuse_dcd_schedules(fabric_, "a sampled run's timing window");
  for (size_t k = 0; k < fabric_.address_map().size(); ++k) {
    const PoolDcd* dcd = pool_dcd(fabric_, k);
    if (!dcd) continue;
    DcdAgent::Setup d;
    static_cast<KernelContext&>(d) = kernel_context();
    d.node = k;
    d.device = fabric_.address_map()[k].name;
    d.dcd = dcd;
    // The trackers' metadata, when the device holds it, is in its static capacity, never released.
    d.device_bytes =
        fabric_.address_map()[k].size - (tracking_ && tracking_->home_range() == k ? tracking_->reserved_bytes() : 0);
    dcd_.push_back(std::make_unique<DcdAgent>(std::move(d)));
    dcd_.back()->start();
  }
}

void RunAssembly::start_migration() {
  start_dynamic_capacity();
  if (autonuma_) autonuma_->start();
  if (placement_ != Placement::Dynamic || autonuma_) return;
  if (!o_.moves_from.empty()) decided_moves_ = read_moves(o_.moves_from, pages_->node_names());
  if (!o_.moves.empty()) move_log_.emplace(pages_->node_names());
  // A sampling unit falls inside a phase whose moves the pass made at its boundary: the OS only
  // makes those still in flight at the unit (docs/sampling.md, "Units").
  if (checkpoint_ && checkpoint_->unit && in_flight_.moves.empty() && !next_boundary_) return;
  MigrationEngine::Setup m;
  static_cast<KernelContext&>(m) = kernel_context();
  for (size_t s = 0; s < sockets_ && tracking_; ++s) m.trackers.push_back(&fabric_.requesters()[s]->tracking());
  if (knowledge_ == MigrationKnowledge::Tracker && tracking_) {
    m.metadata = tracking_->metadata().get();
    m.metadata_range = tracking_->home_range();
  }
  m.counts = perfect_ ? &page_counts_ : nullptr;
  m.knowledge = knowledge_;
  m.policy = os_.migration();
  m.pool = pool_;
  m.chmu = pool_monitors(fabric_, pool_);
  m.seed = o_.seed;
  m.progress = o_.progress;
  m.moves = move_log_ ? &*move_log_ : nullptr;
  m.decided = decided_moves_ ? &*decided_moves_ : nullptr;
  m.decided_from = o_.moves_from;
  if (checkpoint_ && checkpoint_->unit) {
    m.replay.emplace();
    m.replay->phase = checkpoint_->phase;
    m.replay->moves = in_flight_.moves;
    m.replay->resumed = true;
    if (next_boundary_) {
      m.next = replay_of(*next_boundary_, m.socket_node, pool_);
      m.next_after = *o_.next_boundary_after;
    }
  } else if (checkpoint_) {
    m.replay = replay_of(*checkpoint_, m.socket_node, pool_);
  }
  migration_ = std::make_unique<MigrationEngine>(std::move(m));
  migration_->start();
}

void RunAssembly::attach_observers() {
  host_start_ = std::chrono::steady_clock::now();
  if (o_.progress) {
    const bool tty = isatty(2) != 0;
    uint64_t total = 0;
    for (const RunProgram& prog : stimulus_.programs) total += (o_.warmup + prog.instructions) * prog.threads;
    control_->set_progress([this, tty, total, last = host_start_]() mutable {
      const auto now = std::chrono::steady_clock::now();
      if (now - last < std::chrono::milliseconds(tty ? 500 : 10000)) return;
      last = now;
      uint64_t done = 0;
      for (const ThreadPlace& tp : stimulus_.threads) done += tp.core->retired_so_far();
      const double host = std::chrono::duration<double>(now - host_start_).count();
      const double rate = static_cast<double>(done) / host;
      std::fprintf(stderr, "%s%.1f us simulated, %llu of %llu instructions, %.2f MIPS, ETA %s%s", tty ? "\r" : "",
                   sc_core::sc_time_stamp().to_seconds() * 1e6, static_cast<unsigned long long>(done),
                   static_cast<unsigned long long>(total), rate / 1e6,
                   format_duration(rate > 0 ? static_cast<double>(total - std::min(total, done)) / rate : 0).c_str(),
                   tty ? "   " : "\n");
    });
  }
  if (o_.timeline > sc_core::SC_ZERO_TIME) {
    const sc_core::sc_time quantum(static_cast<double>(platform_.settings().quantum().ps()), sc_core::SC_PS);
    if (o_.timeline < quantum)
      report_error(msg::kUsage, "--timeline " + o_.timeline.to_string() + " is finer than the platform's quantum (" +
                                    quantum.to_string() + "), the resolution the cores are sampled at");
    timeline_.emplace(fabric_, *pages_, o_.timeline);
    control_->set_sampler([this] { timeline_->poll(); });
  }
  if (!o_.waves.path.empty()) {
    waves_.emplace(o_.waves);
    attach_waves(*waves_);
    if (migration_) migration_->attach_waves(*waves_);
    if (numa_mover_) numa_mover_->attach_waves(*waves_);
  }
}

bool RunAssembly::simulate() {
  bool stopped_at_limit = false;
  if (platform_.initiators().empty()) {
    sc_core::sc_start();
  } else {  // a plug-in's initiator may never finish: bounded in simulated time, and said
    sc_core::sc_start(
        sc_core::sc_time::from_value(static_cast<sc_dt::uint64>(platform_.settings().initiator_time_limit().ps())),
        sc_core::SC_EXIT_ON_STARVATION);
    stopped_at_limit = sc_core::sc_pending_activity();
  }
  if (waves_) waves_->write();
  if (transactions_) transactions_->write();
  if (o_.progress && isatty(2)) std::fprintf(stderr, "\r%80s\r", "");
  return stopped_at_limit;
}

RunResult RunAssembly::run() {
  assemble_caches();
  assemble_control();
  start_cores();
  start_migration();
  attach_observers();
  const bool stopped_at_limit = simulate();
  const double host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - host_start_).count();
  if (tracking_) tracking_->finish();
  fabric_.check_conservation();
  return collect(stopped_at_limit, host_seconds);
}

void RunAssembly::collect_migration(RunResult& r) {
  if (autonuma_) {
    autonuma_->finish();
    r.migration_policy = os_.lacx() ? "AutoNUMA with LACX" : "AutoNUMA";
    r.migration = autonuma_->report();
    if (const std::string bad = pages_->check(); !bad.empty()) report_internal("page map after AutoNUMA: " + bad);
  }
  if (migration_) {
    r.migration_policy = migration_->policy_description();
    r.migration = migration_->report();
    if (const std::string bad = pages_->check(); !bad.empty()) report_internal("page map after migration: " + bad);
  }
}

RunResult RunAssembly::collect(bool stopped_at_limit, double host_seconds) {
  RunResult r;
  if (timeline_) {
    timeline_->finish(control_->end());
    r.timeline = timeline_->to_json();
  }
  r.platform = platform_.source();
  r.workload = o_.workload;
  if (o_.keep_placement) r.page_nodes = pages_->placement();
  r.placement = name_of(placement_);
  if (checkpoint_) {
    r.placement = "sampled window";
    r.sampled_window = true;
    r.checkpoint_phase = checkpoint_->phase;
    r.checkpoint_unit = checkpoint_->unit;
    r.copies_in_flight = in_flight_.moves.size();
    r.copies_stayed = in_flight_.stayed;
    r.time_copies_to = o_.time_copies_to;
    if (next_boundary_) {
      r.next_boundary_phase = next_boundary_->phase;
      r.next_boundary_after = *o_.next_boundary_after;
      r.next_boundary_crossed = migration_ && migration_->next_started();
    }
    r.tlbs_warmed = tlbs_warmed_;
    if (!tlbs_not_warmed_.empty()) r.shortfalls.push_back(tlbs_not_warmed_);
    r.llc_lines_warmed = llc_lines_warmed_;
    if (!llcs_not_warmed_.empty()) r.shortfalls.push_back(llcs_not_warmed_);
    r.l2_lines_warmed = l2_lines_warmed_;
    if (!l2s_not_warmed_.empty()) r.shortfalls.push_back(l2s_not_warmed_);
  }
  collect_migration(r);
  r.host_seconds = host_seconds;
  r.host_workload_shared = kept_workload_used();
  if (recording_) r.threads_generated_past_recording = trace::threads_generated_past_recording();
  // Initiators may go on after the cores are done (with the idle workload, they are all there is):
  // the measurement lasts until the last of them is.
  const sc_core::sc_time end =
      platform_.initiators().empty() ? control_->end() : std::max(control_->end(), sc_core::sc_time_stamp());
  const sc_core::sc_time measured = end - control_->measurement_start();
  r.sim_time_ns = measured.to_seconds() * 1e9;
  r.detailed_sockets = static_cast<unsigned>(detailed_);
  r.coherence = coherence_ != nullptr;
  r.warmup = o_.warmup;
  r.common_span = o_.common_span;
  collect_cores(r, fabric_, detailed_);
  if (stimulus_.mix) r.programs = program_results(stimulus_);
  collect_links(r, platform_, Time::from_ps(static_cast<int64_t>(measured.value())));
  r.stats = stats_json(measured);
  if (stopped_at_limit)
    r.shortfalls.push_back("the run stopped at platform.initiator_time_limit (" +
                           format_time(platform_.settings().initiator_time_limit()) +
                           " of simulated time) with initiators still running: one that never finishes?");
  if (!dcd_.empty()) {
    r.dcd = nlohmann::ordered_json::object();
    for (const auto& agent : dcd_) {
      r.dcd[agent->device()] = agent->report();
      for (std::string& s : agent->shortfalls()) r.shortfalls.push_back(std::move(s));
    }
    if (const std::string bad = pages_->check(); !bad.empty())
      report_internal("page map after dynamic capacity: " + bad);
  }
  note_shortfalls(r, o_, os_, stimulus_.threads, placement_ == Placement::Dynamic && migration_ != nullptr);
  if (tracking_) {
    r.tracking = tracking_->active() ? "on" : "idle";
    r.trackers = tracking_->metadata();
    if (!o_.dump_trackers.empty()) write_file_atomically(o_.dump_trackers, r.trackers->csv());
  }
  if (move_log_) write_file_atomically(o_.moves, move_log_->csv());
  return r;
}

}  // namespace starnuma
