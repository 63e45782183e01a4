#include "run/functional_pass.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "coherence/functional_l2s.hpp"
#include "coherence/functional_llcs.hpp"
#include "common/diagnostics.hpp"
#include "common/json_text.hpp"
#include "common/output_file.hpp"
#include "os/checkpoint.hpp"
#include "os/move_log.hpp"
#include "os/phase_clock.hpp"
#include "os/phase_policy.hpp"
#include "paging/page_counter.hpp"
#include "paging/page_table.hpp"
#include "os/region_scan.hpp"
#include "platform/platform.hpp"
#include "pool/pool_monitors.hpp"
#include "run/run_setup.hpp"
#include "run/time_pace.hpp"
#include "run/simulation.hpp"
#include "socket/socket.hpp"
#include "stimulus/trace/recorded_then_generated.hpp"
#include "stimulus/workload_registry.hpp"
#include "tracking/functional_annexes.hpp"
#include "tracking/platform_tracking.hpp"

namespace starnuma {

namespace {

// Operations a thread runs before the next thread's turn, and each round starts one thread later:
// coarse or fixed turns would let the first threads first-touch (home) most shared pages, which a
// timed run, where threads progress together, does not.
constexpr size_t kOpsPerTurn = 8;
constexpr unsigned kPassLineShift = 6, kPassPageShift = 12;
// How far ahead the host prefetches: the page-map entry, then (translated) the LLC set and the
// directory slot, then what those point to (FunctionalLlcs::prefetch_dependents). The LLCs' tags
// and the directories are larger than the host's caches: without the hints each access waits for
// host memory, a coherent miss several times in a row.
constexpr size_t kPassTranslationAhead = 16, kPassSetAhead = 8, kPassDependentsAhead = 4;
// Each thread's private caches, as a direct-mapped filter of this many virtual lines (32 KiB): a hit
// there never reaches the LLC or the TLBs, as an L1 hit does not. Emptied at every boundary, so
// each page's first access after a phase mark reaches its annex. Not with coherent LLCs, which
// must see every store and every copy the protocol takes away.
constexpr size_t kFilterLines = 512;
constexpr unsigned kFilterBits = 9;
// A slot holds the line's bits above the index (lines below 2^41: user space), so 4 bytes do.
constexpr uint32_t kNoLine = ~uint32_t{0};
inline size_t filter_slot(uint64_t vline) { return (vline ^ (vline >> kFilterBits)) & (kFilterLines - 1); }

// A recorded trace (starnuma's own format) as the pass's streams: the pass, its checkpoints and
// their windows name the workload and seed it records, so its checkpoints are the live workload's.
// A thread the pass runs past its recording goes on from the generator, as a window's does: how far
// the pass's furthest thread runs is not known when the streams are recorded (the phases count the
// mean thread's work).
std::unique_ptr<Workload> recorded_workload(FunctionalPassOptions& o, unsigned threads, unsigned sockets) {
  std::shared_ptr<const trace::TraceFile> file = trace::open_recording(o.trace_in, threads, "--trace-in");
  const trace::TraceHeader& h = file->header();
  if (o.seed_given && o.seed != h.seed)
    report_error(msg::kUsage, "--seed " + std::to_string(o.seed) + ": " + o.trace_in + " was recorded with seed " +
                                  std::to_string(h.seed) + " (leave --seed out)");
  o.workload = h.workload;
  o.seed = h.seed;
  return trace::recorded_then_generated(std::move(file), sockets);
}

// One thread's stream, read a batch at a time, able to stop in front of a barrier.
class Reader {
 public:
  explicit Reader(std::unique_ptr<ThreadStream> s) : stream_(std::move(s)) {}
  const StreamOp* peek() {
    if (next_ == have_) {
      have_ = stream_->fill(buf_.data(), buf_.size());
      next_ = 0;
      if (have_ == 0) return nullptr;
    }
    return &buf_[next_];
  }
  void pop() { ++next_; }
  // The operation `k` places after the one peek() returned, if this batch holds it.
  const StreamOp* ahead(size_t k) const { return next_ + k < have_ ? &buf_[next_ + k] : nullptr; }

 private:
  std::unique_ptr<ThreadStream> stream_;
  std::array<StreamOp, 256> buf_;
  size_t have_ = 0, next_ = 0;
};

// The pass: its set-up, the threads' turns, a phase boundary's checkpoint and moves, the manifest.
class FunctionalPass {
 public:
  FunctionalPass(Platform& platform, const FunctionalPassOptions& o);
  FunctionalPassResult run();

 private:
  void check_nodes() const;
  void set_up_caches();
  // Thread t runs up to kOpsPerTurn operations; `waiting` counts the threads at a barrier.
  void turn(size_t t, unsigned& waiting);
  void prefetch_turn(size_t next, size_t after);
  bool reaches_llc(const StreamOp* op, const uint32_t* lines) const;
  // A barrier opens when every running thread has reached it.
  void open_barrier();
  // The state at a boundary, the phase's decision and its checkpoint written.
  Checkpoint checkpoint(uint64_t phase);
  // The state alone: the map and every thread's position (a unit's checkpoint, a boundary's start).
  Checkpoint state(uint64_t phase) const;
  // A sampling unit inside the phase after boundary `phase`: its checkpoint and manifest entry.
  void write_unit(uint64_t phase, uint64_t unit);
  // Once the workload has ended: the units whose measurement would start past its end, dropped.
  void drop_units_past_the_end();
  // The checkpoint's moves, all at once; its line of the manifest.
  nlohmann::ordered_json apply(const Checkpoint& c, const std::string& file);
  // The pool's hotness monitor sees a request at physical line `line`, when it is the pool's.
  void to_pool_device(uint64_t line, MemOp op) {
    if (line >= pool_first_line_ && line < pool_end_line_)
      chmu_.observe(Time(), op, (line - pool_first_line_) << kPassLineShift);
  }
  void write_manifest();
  nlohmann::ordered_json pace_manifest() const;
  void timed_start();
  uint64_t mean_retired() const { return total_retired_ / n_; }
  // unit_every: the start of the first stretch at or after the mean thread's `from` instructions
  // (its unit's place on the grid, or with a lead the lead before where its window measures).
  uint64_t first_stretch_from(uint64_t from) const {
    const uint64_t every = o_.unit_every,
                   offset = o_.unit_lead ? (every - o_.unit_lead % every) % every : o_.unit_offset;
    return from <= offset ? offset : ((from - offset + every - 1) / every) * every + offset;
  }
  // The unit of the stretch starting at `stretch`: there, or at a random point of it (unit_jitter),
  // drawn from the seed and the stretch alone, so both machines of a comparison draw the same.
  uint64_t unit_place(uint64_t stretch) const {
    constexpr uint64_t kUnitStream = 0x756e6974;  // "unit": apart from the workload's threads' streams
    const auto index = static_cast<unsigned>(stretch / o_.unit_every);
    return o_.unit_jitter ? stretch + thread_seed(o_.seed ^ kUnitStream, index) % o_.unit_every : stretch;
  }
  // The unit of the stretch starting at `stretch` is the next one due.
  void plan_unit(uint64_t stretch) {
    next_stretch_ = stretch;
    next_unit_at_ = unit_place(stretch);
  }
  // The end of the work the pass decides: the last phase's, in the phases' clock.
  uint64_t span_end() const { return (o_.checkpoints + 1) * os_.phase_instructions(); }
  // unit_every: the first stretch, the one measured from boundary 1's place on. With a lead its unit
  // lies the lead before that, in phase 0 when the lead reaches back past the boundary: its window
  // crosses boundary 1 in its warm-up (docs/sampling.md, "Units over the work").
  uint64_t first_stretch() const {
    const uint64_t boundary = os_.phase_instructions();
    return first_stretch_from(std::max(boundary, o_.unit_lead) - o_.unit_lead);
  }
  // unit_every: whether the stretch starting at `stretch` has a unit: with a lead, one whose
  // measured stretch ends by the last phase's end; otherwise one starting before that end.
  bool stretch_sampled(uint64_t stretch) const {
    return o_.unit_lead ? stretch + o_.unit_lead + o_.unit_every <= span_end() : stretch < span_end();
  }
  // Whether the pass goes on in the last boundary's phase for its units (`unit`: written so far).
  // At random points it goes on past the end for the last stretch's unit, which may lie beyond it.
  bool units_to_come(uint64_t unit) const {
    if (o_.streams_only) return false;
    if (o_.unit_every) return clock_.instructions() < span_end() || (o_.unit_jitter && stretch_sampled(next_stretch_));
    return unit < o_.units_per_phase;
  }
  // Whether the next unit is due, after boundary `phase` and `unit` units since it (before boundary 1
  // only a led unit, its window crossing the boundary).
  bool unit_due(uint64_t phase, uint64_t unit) const {
    if ((phase == 0 && !o_.unit_lead) || o_.streams_only) return false;
    if (o_.unit_every) return mean_retired() >= next_unit_at_ && stretch_sampled(next_stretch_);
    const uint64_t per_phase = os_.phase_instructions(), units = o_.units_per_phase;
    return unit < units && clock_.instructions() >= phase * per_phase + (unit + 1) * per_phase / (units + 1);
  }

  const std::chrono::steady_clock::time_point host_start_ = std::chrono::steady_clock::now();
  Platform& platform_;
  FunctionalPassOptions o_;  // a copy: a recorded trace sets its workload and seed
  Fabric& fabric_;
  const std::vector<ThreadPlace> threads_;
  const size_t sockets_, n_;
  std::unique_ptr<Workload> workload_;
  std::unique_ptr<PlatformTracking> tracking_;
  const OsSettings& os_;
  TrackerMetadata* metadata_ = nullptr;
  std::optional<PageMap> pages_;
  size_t pool_ = static_cast<size_t>(-1);
  std::vector<size_t> socket_node_;
  std::unique_ptr<PhasePolicy> policy_;
  nlohmann::ordered_json policy_fields_;  // the last decision's own figures
  // The pool device's hotness monitor when on (it counts the pass's pool requests), and the pool's lines.
  PoolMonitors chmu_;  // the pool's monitors, when they are on (chmu_on_)
  bool chmu_on_ = false;
  uint64_t pool_first_line_ = 0, pool_end_line_ = 0;
  std::optional<OutputFolder> folder_;
  std::optional<MoveLog> move_log_;  // checkpoint --moves
  std::optional<FunctionalLlcs> llcs_;
  std::vector<unsigned> cores_per_socket_;
  std::vector<Reader> readers_;
  std::vector<uint64_t> ops_, retired_;
  std::vector<uint8_t> finished_, at_barrier_, measuring_;
  // The cores' TLBs, with counter annexes folding into the trackers' metadata (tracker knowledge).
  std::optional<FunctionalAnnexes> annexes_;
  // With warm LLCs: the page tables the walks read, whose lines (and the tracker updates'
  // metadata lines) go through the LLCs as a timed run's walkers take them.
  std::optional<PageTable> page_table_;
  // With warm LLCs and warm_l2s, each core's L2 in front of its socket's LLC: what it serves the LLC
  // never sees.
  std::optional<FunctionalL2s> l2s_;
  std::optional<TimePace> pace_;  // paced by time (FunctionalPassOptions::time_pace), or equal turns
  // Thread t's access of `line` at its L2 (l2s_ kept): served there, missed, or a store over a
  // shared copy, which its socket's LLC upgrades while the L2 keeps the line.
  enum class AtL2 { Served, Missed, Upgrade };
  AtL2 at_l2(size_t t, uint64_t line, bool store) {
    if (!l2s_->serves(t, line)) return AtL2::Missed;
    return !store || llcs_->store_in_place(threads_[t].socket, line) ? AtL2::Served : AtL2::Upgrade;
  }
  void walk(size_t t, uint64_t vaddr);
  // The annexes' flushes' updates; `by`: the thread whose TLB event flushed them (a boundary's
  // shootdowns: none), which the time pace stalls when its tracker's queue is full.
  static constexpr size_t kNoThread = SIZE_MAX;
  void tracker_updates(size_t by = kNoThread);
  // Whether the coherent misses' chain is prefetched (FunctionalLlcs::prefetch): when more than a
  // quarter of the last kChainWindow LLC accesses missed. A host hint only.
  static constexpr unsigned kChainWindow = 4096;
  bool prefetch_chain_ = false;
  unsigned chain_accesses_ = 0, chain_misses_ = 0;
  PageCounter page_counts_;
  std::vector<uint32_t> filter_;
  FunctionalPassResult result_;
  nlohmann::ordered_json phases_ = nlohmann::ordered_json::array();
  nlohmann::ordered_json units_ = nlohmann::ordered_json::array();
  std::vector<PageMove> boundary_moves_;  // the last boundary's, for its units
  std::vector<size_t> boundary_from_;     // each move's source, kUnknownNode where apply() did not make it
  uint64_t furthest_ = 0;
  PhaseClock clock_{n_};                // the phases' (and the units'), as a continuous run's OS counts them
  uint64_t timed_start_pages_ = 0;      // the pages a timed start placed (FunctionalPassOptions)
  unsigned past_recording_before_ = 0;  // threads past the recording before the pass's own
  uint64_t total_retired_ = 0;          // over the threads
  uint64_t units_past_the_end_ = 0;     // units written, then dropped: measuring past the workload's end
  uint64_t next_unit_at_ = 0;           // unit_every: the mean thread's instructions at the next unit
  uint64_t next_stretch_ = 0;           // and the start of the stretch it stands for
  // The mean thread's instructions when the workload's initialisation ended (0: none), where a
  // timed run's warm-up and budgets start counting.
  std::optional<uint64_t> initialised_at_;
  unsigned live_;
};

FunctionalPass::FunctionalPass(Platform& platform, const FunctionalPassOptions& o)
    : platform_(platform),
      o_(o),
      fabric_(platform.fabric()),
      threads_(place_threads(fabric_)),
      sockets_(fabric_.requesters().size()),
      n_(threads_.size()),
      os_(platform.os()),
      live_(static_cast<unsigned>(n_)) {
  if (threads_.empty()) report_error(msg::kConfig, "checkpoint: the platform has no cores to run the workload");
  if (o.checkpoints == 0) report_error(msg::kUsage, "--checkpoints must be at least 1");
  if (o.units_per_phase && o.unit_every)
    report_error(msg::kUsage,
                 "--units-per-phase and --unit-every: units either evenly inside each phase or over the "
                 "work, not both");
  if (o.unit_offset && o.unit_offset >= o.unit_every)
    report_error(msg::kUsage, "--unit-offset " + std::to_string(o.unit_offset) +
                                  (o.unit_every ? " must be below --unit-every's " + std::to_string(o.unit_every)
                                                : ": it places the units of --unit-every, which is not given"));
  if (o.unit_lead && !o.unit_every)
    report_error(msg::kUsage, "--unit-lead " + std::to_string(o.unit_lead) +
                                  ": it places the units of --unit-every, which is not given");
  if (o.unit_jitter && !o.unit_every)
    report_error(msg::kUsage, "--unit-jitter: it places the units of --unit-every, which is not given");
  if (o.unit_lead && o.unit_offset)
    report_error(msg::kUsage,
                 "--unit-lead and --unit-offset: the lead places the units (at a multiple minus the lead), not both");
  std::unique_ptr<Workload> workload =
      o_.trace_in.empty()
          ? make_workload(o.workload, static_cast<unsigned>(n_), static_cast<unsigned>(sockets_), o.seed)
          : recorded_workload(o_, static_cast<unsigned>(n_), static_cast<unsigned>(sockets_));
  workload_ =
      limit_addresses(std::move(workload), o_.trace_in.empty() ? "workload " + o.workload : "trace " + o_.trace_in,
                      virtual_address_limit(fabric_));
  tracking_ = PlatformTracking::region_only(fabric_, tracked_sockets(fabric_));
  const PhasePolicyType* policy_type = find_phase_policy(os_.migration());
  if (!policy_type || !policy_type->reads_regions)
    report_error(msg::kConfig,
                 "os.migration: sampled runs decide with a phase policy on regions (algorithm1, chmu); run " +
                     os_.migration() + " continuously (starnuma run)");
  const MigrationKnowledge knowledge = os_.knowledge(tracking_ != nullptr);
  if (knowledge == MigrationKnowledge::Tracker && !tracking_)
    report_error(msg::kConfig,
                 "os.policy: tracker needs the tracking hardware (topology.socket.tracking.impl: model or rtl)");
  if (knowledge == MigrationKnowledge::Tracker) metadata_ = tracking_->metadata().get();

  refuse_dcd_schedules(fabric_, "the functional pass of a sampled run");
  pages_.emplace(
      make_page_map(fabric_, pool_limit_bytes(os_.pool_fraction(), workload_->footprint()), tracking_.get()));
  set_allocation(*pages_, os_, fabric_);
  pool_ = pool_node(*pages_);
  socket_node_ = socket_nodes(fabric_);
  check_nodes();
  if (PoolMonitors monitors = pool_monitors(fabric_, pool_); monitors.enabled()) {
    chmu_ = std::move(monitors);
    chmu_on_ = true;
    const Fabric::Range& r = fabric_.address_map()[pool_];
    pool_first_line_ = r.base >> kPassLineShift;
    pool_end_line_ = (r.base + r.size) >> kPassLineShift;
  }
  policy_ =
      policy_type->create({&os_, knowledge, metadata_, socket_node_, pool_, o_.seed, chmu_on_ ? &chmu_ : nullptr});
  if (!o.streams_only) {
    if (o.out.empty()) report_error(msg::kUsage, "checkpoint: --out FOLDER is required");
    folder_.emplace(o.out, "manifest.json");
    if (o.moves) {
      move_log_.emplace(pages_->node_names());
    }
  }
  if (o_.timed_start) timed_start();                                   // once everything above has been checked
  past_recording_before_ = trace::threads_generated_past_recording();  // the timed start's warned on their own
  set_up_caches();
  for (unsigned t = 0; t < n_; ++t) readers_.emplace_back(workload_->stream(t));
  ops_.assign(n_, 0);
  retired_.assign(n_, 0);
  finished_.assign(n_, false);
  at_barrier_.assign(n_, false);
  measuring_.assign(n_, !workload_->initialises());
  filter_.assign(n_ * kFilterLines, kNoLine);
  if (o_.time_pace) {
    if (o_.pace_quantum_cycles == 0) report_error(msg::kUsage, "--pace-quantum must be at least 1 cycle");
    pace_.emplace(fabric_, threads_, o_.pace_quantum_cycles, llcs_->coherent() ? &platform_.coherence() : nullptr);
  }
}

// The workload timed from its start for o_.timed_start instructions per thread after its
// initialisation (first touch, nothing migrates), and every page it placed where it placed it: the
// pass's first touches then follow the timed run's races, which its turns cannot reproduce
// (docs/sampling.md, "A timed start"). The timed run builds the workload again (graphs come from
// their cache).
void FunctionalPass::timed_start() {
  RunOptions ro;
  ro.workload = o_.workload;
  ro.seed = o_.seed;
  if (!o_.trace_in.empty()) {  // the recording's workload and seed (o_ holds them); past it, the generator
    ro.trace_in = {o_.trace_in};
    ro.trace_goes_on = true;
  }
  ro.instructions = o_.timed_start;
  ro.placement = Placement::FirstTouch;
  ro.keep_placement = true;
  const auto start = std::chrono::steady_clock::now();
  RunResult r = run_workload(platform_, ro);
  const std::string what = "checkpoint --timed-start " + std::to_string(o_.timed_start);
  if (r.threads_ended_early)
    report_error(msg::kUsage, what + ": the workload ends first (" + std::to_string(r.threads_ended_early) +
                                  " threads ended early): a shorter timed start (--timed-start 0: none) or a "
                                  "longer workload");
  for (const std::string& s : r.shortfalls) report_error(msg::kUsage, what + ": " + s);
  if (o_.progress)
    std::fprintf(stderr, "timed start: %zu pages placed in %llu instructions per thread (%.1f s)\n",
                 r.page_nodes.size(), static_cast<unsigned long long>(o_.timed_start),
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  timed_start_pages_ = r.page_nodes.size();
  pages_->set_first_touch_nodes(std::move(r.page_nodes));
}

// A checkpoint names a node by its socket or as StarNUMA's pool (which only migration fills); a
// CPU-less node that allocation also fills (LACX's CXL node, a pooled device composed into a
// host's memory) is neither, so such platforms are refused before the pass.
void FunctionalPass::check_nodes() const {
  for (size_t k = 0; k < pages_->nodes().size(); ++k)
    if (k != pool_ && std::find(socket_node_.begin(), socket_node_.end(), k) == socket_node_.end())
      report_error(msg::kConfig, "checkpoint: " + platform_.source() + " has the memory node '" +
                                     pages_->nodes()[k].name +
                                     "', a CPU-less node that allocation fills; the sampled evaluation (checkpoint, "
                                     "sample) supports sockets' memory and a StarNUMA pool, which only migration "
                                     "fills (docs/sampling.md)");
}

void FunctionalPass::set_up_caches() {
  std::vector<FunctionalLlcs::Geometry> llcs;
  for (size_t s = 0; s < sockets_; ++s) {
    const Socket& sock = *fabric_.requesters()[s];
    const LlcConfig& c = sock.llc_config();
    llcs.push_back({c.lines(sock.cores()), c.ways(), c.replacement()});
    cores_per_socket_.push_back(sock.cores());
  }
  const Coherence& coherence = platform_.coherence();
  llcs_.emplace(fabric_, llcs, coherence, o_.seed, o_.warm_llcs && coherence.enabled());
  std::vector<FunctionalAnnexes::Thread> tlbs;
  for (const ThreadPlace& tp : threads_) {
    const CoreConfig& c = fabric_.requesters()[tp.socket]->core_config();
    tlbs.push_back(
        {static_cast<unsigned>(tp.socket), c.dtlb.entries(), c.dtlb.ways(), c.stlb.entries(), c.stlb.ways()});
  }
  annexes_.emplace(tlbs, fabric_.requesters()[0]->tracking().annexes_stlb(), metadata_);
  if (o_.warm_llcs) {
    page_table_.emplace(*pages_);
    annexes_->record_updates(true);
  }
  if (o_.warm_llcs && o_.warm_l2s) {
    std::vector<FunctionalL2s::Geometry> l2s;
    for (const ThreadPlace& tp : threads_) {
      const CacheConfig& l2 = fabric_.requesters()[tp.socket]->core_config().l2;
      l2s.push_back({l2.lines(), l2.ways(), l2.replacement(), tp.socket});
    }
    l2s_.emplace(l2s, sockets_, o_.seed);
    llcs_->attach(&*l2s_);
  }
}

Checkpoint FunctionalPass::state(uint64_t phase) const {
  const PageMap& pages = *pages_;
  Checkpoint c;
  c.workload = o_.workload;
  c.seed = o_.seed;
  c.platform = platform_.source();
  c.cores_per_socket = cores_per_socket_;
  c.page_size = pages.page_size();
  c.knowledge = metadata_ ? "tracker" : "perfect";
  c.counter_bits = metadata_ ? metadata_->layout().config().counter_bits : 0;
  c.phase_instructions = os_.phase_instructions();
  c.phase = phase;
  c.in_initialisation = std::find(measuring_.begin(), measuring_.end(), false) != measuring_.end();
  c.ops = ops_;
  c.retired = retired_;
  for (size_t k = 0; k < pages.nodes().size(); ++k) {
    Checkpoint::NodeRecord r;
    r.name = pages.nodes()[k].name;
    const auto sock = std::find(socket_node_.begin(), socket_node_.end(), k);
    r.socket = sock != socket_node_.end() ? static_cast<int>(sock - socket_node_.begin()) : -1;
    r.frames = pages.frames(k);
    c.nodes.push_back(std::move(r));
  }
  if (annexes_) {  // functional warming: a window starts with the TLBs and annexes left here
    c.annex_stlb = annexes_->annex_stlb();
    for (size_t t = 0; t < ops_.size(); ++t) {
      const FunctionalAnnexes::Thread& geometry = annexes_->thread(t);
      FunctionalAnnexes::Contents tlb = annexes_->contents(t);
      c.tlbs.push_back({geometry.dtlb_entries, geometry.dtlb_ways, geometry.stlb_entries, geometry.stlb_ways,
                        std::move(tlb.dtlb), std::move(tlb.stlb), std::move(tlb.counts)});
    }
  }
  if (o_.warm_llcs) {
    c.caches = llcs_->contents();
    if (l2s_) c.caches.l2s = l2s_->contents();
    c.page_tables = page_table_->made();
  }
  return c;
}

void FunctionalPass::write_unit(uint64_t phase, uint64_t unit) {
  Checkpoint c = state(phase);
  c.unit = unit;
  if (metadata_) c.metadata = metadata_->nonzero();
  c.moves = boundary_moves_;  // made; a window takes back those still in flight at its start
  c.from = boundary_from_;
  const std::string name = "unit-" + std::to_string(phase) + "-" + std::to_string(unit) + ".ckpt";
  write_file_atomically(folder_->file(name), c.serialise());
  units_.push_back({{"phase", phase},
                    {"unit", unit},
                    {"file", name},
                    {"furthest_instructions", furthest_},
                    {"mean_instructions", mean_retired()},
                    {"clock_instructions", clock_.instructions()}});
  // At a random point, where its stretch starts: the place it would have on the grid.
  if (o_.unit_jitter) units_.back()["stretch_from"] = next_stretch_;
}

void FunctionalPass::drop_units_past_the_end() {
  // A unit measuring from where the workload has already ended stands for no work: its window would
  // time nothing (the workload's end before the last phase's, e.g. a graph's trials all done).
  const uint64_t end = mean_retired();
  nlohmann::ordered_json kept = nlohmann::ordered_json::array();
  for (auto& u : units_) {
    if (u["mean_instructions"].get<uint64_t>() + o_.unit_lead < end) {
      kept.push_back(std::move(u));
      continue;
    }
    ++units_past_the_end_;
    if (folder_) std::filesystem::remove(folder_->file(u["file"].get<std::string>()));
  }
  units_ = std::move(kept);
}

Checkpoint FunctionalPass::checkpoint(uint64_t phase) {
  PageMap& pages = *pages_;
  Checkpoint c = state(phase);
  RegionScan scan;
  if (metadata_) {
    scan = scan_tracker_metadata(pages, *metadata_);
    metadata_->clear();
    annexes_->phase_mark();
  } else {
    scan = scan_page_counts(pages, page_counts_);
    page_counts_.clear();
  }
  PhaseView view;
  view.phase = phase;
  view.pages = &pages;
  view.scan = &scan;
  for (size_t k = 0; k < pages.nodes().size(); ++k) view.free_pages.push_back(pages.free_pages(k));
  PhaseChoice choice = policy_->decide(view);
  c.decision = std::move(choice.decision);
  c.moves = std::move(choice.moves);
  for (const PageMove& m : c.moves)
    c.from.push_back(pages.placed(m.vpage) ? pages.node_of(m.vpage) : Checkpoint::kUnknownNode);
  policy_fields_ = std::move(choice.fields);
  c.scan_entries = scan.entries;
  c.regions_scanned = scan.regions.size();
  return c;
}

nlohmann::ordered_json FunctionalPass::apply(const Checkpoint& c, const std::string& file) {
  PageMap& pages = *pages_;
  // Every move at once; its lines leave every LLC (a dirty one would be written home first).
  uint64_t moved = 0, to_pool = 0, from_pool = 0;
  boundary_moves_ = c.moves;  // for the phase's units: the moves not made have no source there
  boundary_from_.assign(c.moves.size(), Checkpoint::kUnknownNode);
  const size_t first_row = move_log_ ? move_log_->decided(c.phase, c.moves, -1) : 0;
  for (size_t k = 0; k < c.moves.size(); ++k) {
    const PageMove& m = c.moves[k];
    if (!pages.placed(m.vpage) || pages.node_of(m.vpage) == m.to || pages.free_pages(m.to) == 0) {
      if (move_log_) move_log_->skipped(first_row + k);
      continue;
    }
    boundary_from_[k] = pages.node_of(m.vpage);
    const size_t from = pages.node_of(m.vpage);
    if (move_log_) move_log_->moved(first_row + k, from, -1, -1);
    if (annexes_) annexes_->shoot_down(m.vpage);
    if (page_table_) tracker_updates();
    const PageMap::Moved mv = pages.move(m.vpage, m.to);
    pages.release(mv.from);
    const uint64_t lines = pages.page_size() >> kPassLineShift;
    if (chmu_on_)  // the copy: every line read at the old home and written at the new one
      for (uint64_t k = 0; k < lines; ++k) {
        to_pool_device(mv.from * lines + k, MemOp::Read);
        to_pool_device(mv.to * lines + k, MemOp::Write);
      }
    llcs_->evict_lines(mv.from * lines, lines);
    ++moved;
    to_pool += m.to == pool_;
    from_pool += from == pool_;
  }
  if (const std::string bad = pages.check(); !bad.empty())
    report_internal("page map at phase " + std::to_string(c.phase) + ": " + bad);
  nlohmann::ordered_json p = c.header()["decision"];
  p["phase"] = c.phase;
  p["file"] = file;
  p["in_initialisation"] = c.in_initialisation;
  p["regions_scanned"] = c.regions_scanned;
  p["pages_moved"] = moved;
  p["socket_to_socket"] = moved - to_pool - from_pool;
  p["to_pool"] = to_pool;
  p["from_pool"] = from_pool;
  p["pool_pages"] = pool_ != static_cast<size_t>(-1) ? pages.pages_on(pool_) : 0;
  for (const auto& [key, value] : policy_fields_.items()) p[key] = value;
  if (o_.progress)
    std::fprintf(stderr, "phase %llu: %llu pages moved (%llu to the pool), %s\n",
                 static_cast<unsigned long long>(c.phase), static_cast<unsigned long long>(moved),
                 static_cast<unsigned long long>(to_pool), file.c_str());
  return p;
}

// Whether an operation ahead will reach the LLC, as far as its thread's filter now tells.
bool FunctionalPass::reaches_llc(const StreamOp* op, const uint32_t* lines) const {
  if (!op || op->kind == StreamOp::Kind::Barrier) return false;
  if (llcs_->coherent()) return true;
  const uint64_t vline = op->address >> kPassLineShift;
  return lines[filter_slot(vline)] != static_cast<uint32_t>(vline >> kFilterBits);
}

// Host prefetch hints for the turns to come: the LLC sets of thread `next`'s next operations, the
// page-map entries of thread `after`'s. A thread's own operations a few places ahead come a whole
// round later, by when the hints are gone from the host's nearer caches; two and four turns (a few
// hundred nanoseconds) ahead, they arrive as they are needed: the pass from a recording x1.057 on
// bfs (docs/performance.md).
void FunctionalPass::prefetch_turn(size_t next, size_t after) {
  if (o_.streams_only) return;
  if (!finished_[after] && !at_barrier_[after])
    for (size_t k = 0; k < kOpsPerTurn; ++k)
      if (const StreamOp* op = readers_[after].ahead(k); op && op->kind != StreamOp::Kind::Barrier)
        pages_->prefetch(op->address);
  if (finished_[next] || at_barrier_[next]) return;
  const size_t socket = threads_[next].socket;
  const uint32_t* lines = &filter_[next * kFilterLines];
  for (size_t k = 0; k < kOpsPerTurn; ++k)
    if (const StreamOp* op = readers_[next].ahead(k); reaches_llc(op, lines))
      if (const uint64_t pa = pages_->peek(op->address); pa != PageMap::kUnplaced) {
        if (l2s_) l2s_->prefetch(next, pa >> kPassLineShift);
        llcs_->prefetch(socket, pa >> kPassLineShift, false);
      }
}

void FunctionalPass::turn(size_t t, unsigned& waiting) {
  PageMap& pages = *pages_;
  const size_t socket = threads_[t].socket;
  FunctionalLlcs& llcs = *llcs_;
  uint32_t* lines = &filter_[t * kFilterLines];
  Reader& reader = readers_[t];
  // Within a batch no other thread runs: the translation of the page just used hits the L1
  // DTLB's most recent entry, and changes nothing the pass counts.
  uint64_t last_vpage = ~uint64_t{0};
  for (size_t i = 0; i < kOpsPerTurn; ++i) {
    if (pace_ && !pace_->behind(t)) break;
    const StreamOp* op = reader.peek();
    if (!op) {
      finished_[t] = true;
      --live_;
      break;
    }
    if (op->kind == StreamOp::Kind::Barrier) {
      at_barrier_[t] = true;
      ++waiting;
      break;
    }
    ++ops_[t];
    retired_[t] += op->instructions + 1;
    total_retired_ += op->instructions + 1;
    if (pace_) pace_->retire(t, op->instructions + 1);
    ++result_.accesses;
    reader.pop();
    if (o_.streams_only) continue;
    const uint64_t vline = op->address >> kPassLineShift;
    uint32_t& slot = lines[filter_slot(vline)];
    const auto tag = static_cast<uint32_t>(vline >> kFilterBits);
    // Coherent LLCs see every access: a filter hit would hide a store's invalidations and a copy
    // another socket took (docs/sampling.md, "Functional warming of the LLCs").
    if (slot == tag && vline >> (kFilterBits + 32) == 0 && !llcs.coherent()) continue;
    slot = tag;
    if (const StreamOp* far = reader.ahead(kPassTranslationAhead); far && far->kind != StreamOp::Kind::Barrier)
      pages.prefetch(far->address);
    if (const StreamOp* near = reader.ahead(kPassSetAhead); near && near->kind != StreamOp::Kind::Barrier)
      if (const uint64_t pa = pages.peek(near->address); pa != PageMap::kUnplaced) {
        if (l2s_) l2s_->prefetch(t, pa >> kPassLineShift);
        llcs.prefetch(socket, pa >> kPassLineShift, prefetch_chain_);
      }
    if (const StreamOp* nearer = reader.ahead(kPassDependentsAhead);
        nearer && nearer->kind != StreamOp::Kind::Barrier && prefetch_chain_)
      if (const uint64_t pa = pages.peek(nearer->address); pa != PageMap::kUnplaced)
        llcs.prefetch_dependents(socket, pa >> kPassLineShift, nearer->kind == StreamOp::Kind::Store);
    const bool store = op->kind == StreamOp::Kind::Store;
    const uint64_t paddr = pages.translate(op->address, socket);
    const uint64_t vpage = op->address >> kPassPageShift;
    if (annexes_ && vpage != last_vpage) {
      const bool walked = annexes_->access(t, vpage, paddr >> kPassPageShift);
      if (page_table_) {
        if (walked) walk(t, op->address);
        tracker_updates(t);
      }
    }
    last_vpage = vpage;
    const uint64_t line = paddr >> kPassLineShift;
    const AtL2 at = l2s_ ? at_l2(t, line, store) : AtL2::Missed;
    if (at == AtL2::Served) continue;
    const FunctionalLlcs::Outcome out = llcs.access(socket, line, store);
    if (l2s_ && at == AtL2::Missed) l2s_->fill(t, line);
    if (++chain_accesses_ == kChainWindow) {
      prefetch_chain_ = llcs.coherent() && chain_misses_ * 4 > kChainWindow;
      chain_accesses_ = chain_misses_ = 0;
    }
    if (pace_ && (!out.hit || out.upgrade)) pace_->access(t, line, kPassLineShift, store, out);
    if (out.hit) continue;
    ++chain_misses_;
    ++result_.llc_misses;
    if (chmu_on_) {  // a miss reads the line (a store's too: for ownership); dirty copies leaving are written home
      if (out.memory_read) to_pool_device(line, MemOp::Read);
      for (unsigned k = 0; k < out.writes; ++k) to_pool_device(out.written[k], MemOp::Write);
    }
    if (metadata_) {
      if (!store) annexes_->llc_load(t, vpage);
    } else {
      page_counts_.count(vpage, socket);
    }
  }
  furthest_ = std::max(furthest_, retired_[t]);
}

// A walk's tables made as a timed walker makes them, and its leaf entry's line read through the
// thread's L2 and its socket's LLC (the upper levels' entries are a walk cache's, rarely read).
void FunctionalPass::walk(size_t t, uint64_t vaddr) {
  const size_t socket = threads_[t].socket;
  uint64_t table = 0;
  for (unsigned level = 0; level < PageTable::kLevels; ++level) table = page_table_->table(level, vaddr, socket);
  const uint64_t line = PageTable::entry(table, PageTable::kLevels - 1, vaddr) >> kPassLineShift;
  if (l2s_ && at_l2(t, line, false) == AtL2::Served) return;
  if (const FunctionalLlcs::Outcome out = llcs_->access(socket, line, false); !out.hit && pace_)
    pace_->access(t, line, kPassLineShift, false, out);
  if (l2s_) l2s_->fill(t, line);
}

// The flushes' metadata read-modify-writes through the flushing socket's LLC, exclusive when the
// entry changed (SocketTracking::access).
void FunctionalPass::tracker_updates(size_t by) {
  for (const FunctionalAnnexes::Update& u : annexes_->updates()) {
    const bool hit = llcs_->access(u.socket, u.address >> kPassLineShift, u.changed).hit;
    if (pace_ && by != kNoThread)
      pace_->tracker_update(by, u.address >> kPassLineShift, kPassLineShift, hit, u.changed);
  }
  annexes_->updates().clear();
}

void FunctionalPass::open_barrier() {
  if (pace_) pace_->release([this](size_t t) { return at_barrier_[t] != 0; });
  for (size_t t = 0; t < n_; ++t) {
    if (!at_barrier_[t]) continue;
    measuring_[t] = measuring_[t] || readers_[t].peek()->starts_measurement;
    readers_[t].pop();
    ++ops_[t];
    at_barrier_[t] = false;
  }
  if (!initialised_at_ && std::find(measuring_.begin(), measuring_.end(), false) == measuring_.end())
    initialised_at_ = mean_retired();
}

FunctionalPassResult FunctionalPass::run() {
  const uint64_t per_phase = os_.phase_instructions();
  // The pass's own speed is timed from here: building the workload (a graph's generation) is not.
  const auto pass_start = std::chrono::steady_clock::now();
  uint64_t phase = 0, round = 0, unit = 0;  // boundaries passed; units written since the last
  if (o_.unit_every && o_.unit_lead) plan_unit(first_stretch());
  // With units the pass goes on through the last boundary's phase, for its units (no boundary after it).
  while (live_ > 0 && (phase < o_.checkpoints || (phase == o_.checkpoints && units_to_come(unit)))) {
    unsigned waiting = 0;
    const size_t first = round++ % n_;
    for (size_t turn_of = 0; turn_of < n_; ++turn_of) {
      const size_t t = first + turn_of < n_ ? first + turn_of : first + turn_of - n_;
      if (finished_[t] || at_barrier_[t]) {
        waiting += at_barrier_[t];
        continue;
      }
      if (pace_ && !pace_->behind(t)) continue;
      prefetch_turn((t + 2) % n_, (t + 4) % n_);
      turn(t, waiting);
    }
    clock_.advance([this](size_t t) { return retired_[t]; }, [this](size_t t) { return finished_[t] != 0; });
    if (live_ > 0 && waiting == live_) open_barrier();
    if (pace_) pace_->after_round([this](size_t t) { return !finished_[t] && !at_barrier_[t]; });
    if (phase < o_.checkpoints && clock_.instructions() >= (phase + 1) * per_phase) {
      ++phase;
      if (!o_.streams_only) {
        const Checkpoint c = checkpoint(phase);
        const std::string name = "checkpoint-" + std::to_string(phase) + ".ckpt";
        write_file_atomically(folder_->file(name), c.serialise());
        phases_.push_back(apply(c, name));
        phases_.back()["furthest_instructions"] = furthest_;
        phases_.back()["mean_instructions"] = mean_retired();
        phases_.back()["clock_instructions"] = clock_.instructions();
        if (pace_) phases_.back()["threads_instructions"] = retired_;  // where each thread's clock took it
      }
      std::fill(filter_.begin(), filter_.end(), kNoLine);
      unit = 0;
      // The units' work starts at boundary 1's place: its first stretch is sampled too, its unit
      // due at once when the mean thread is already past it (the clock passes a boundary in a turn).
      // A led one was planned from the start.
      if (phase == 1 && o_.unit_every && !o_.unit_lead) plan_unit(first_stretch());
    } else if (unit_due(phase, unit)) {
      write_unit(phase, ++unit);  // systematic: evenly inside the phase or the work, transparent to the pass
      // Stretch after stretch: at random points the next stretch's unit may already be due.
      if (o_.unit_every) plan_unit(next_stretch_ + o_.unit_every);
    }
  }
  if (phase < o_.checkpoints)
    report_error(msg::kInput, "checkpoint: " + o_.workload + " ends after " + std::to_string(phase) + " phase boundar" +
                                  (phase == 1 ? "y" : "ies") + " of " + std::to_string(per_phase) +
                                  " instructions; ask for at most that many checkpoints, a shorter "
                                  "os.phase_instructions, or a longer workload");
  if (live_ == 0) drop_units_past_the_end();
  for (uint64_t r : retired_) result_.instructions += r;
  const auto pass_end = std::chrono::steady_clock::now();
  result_.host_seconds = std::chrono::duration<double>(pass_end - host_start_).count();
  result_.pass_seconds = std::chrono::duration<double>(pass_end - pass_start).count();
  write_manifest();
  return result_;
}

// How the threads took their turns. Paced by time: each thread's name in the statistics, its
// instructions and its clock's cycles at the pass's end (sample reads their ratio, the rate the pace
// gave it, against the rate its windows measure: docs/sampling.md, "Paced by time").
nlohmann::ordered_json FunctionalPass::pace_manifest() const {
  if (!pace_) return {{"by", "turns"}};
  nlohmann::ordered_json threads = nlohmann::ordered_json::array();
  for (size_t t = 0, first = 0; t < n_; ++t) {
    if (t > 0 && threads_[t].socket != threads_[t - 1].socket) first = t;
    threads.push_back({{"core", std::string(fabric_.requesters()[threads_[t].socket]->basename()) + ".core" +
                                    std::to_string(t - first)},
                       {"instructions", retired_[t]},
                       {"cycles", pace_->cycles(t)},
                       {"waiting_cycles", pace_->waiting_cycles(t)}});
  }
  // Where the clock waited: the servers it booked over half its span (docs/sampling.md, "Paced by time").
  nlohmann::ordered_json busiest = nlohmann::ordered_json::array();
  for (const TimePace::Busy& b : pace_->busiest(0.5))
    busiest.push_back({{"server", b.server},
                       {"utilization", b.utilization},
                       {"messages", b.messages},
                       {"mean_wait_ns", b.mean_wait_ns}});
  return {{"by", "time"}, {"quantum_cycles", pace_->quantum_cycles()}, {"threads", threads}, {"busiest", busiest}};
}

void FunctionalPass::write_manifest() {
  nlohmann::ordered_json& m = result_.manifest;
  m["format"] = "starnuma checkpoints";
  m["starnuma"] = STARNUMA_VERSION;
  m["platform"] = platform_.source();
  m["workload"] = o_.workload;
  m["seed"] = o_.seed;
  if (!o_.trace_in.empty()) {
    m["trace"] = std::filesystem::absolute(o_.trace_in).lexically_normal().string();
    m["threads_generated_past_recording"] = trace::threads_generated_past_recording() - past_recording_before_;
  }
  if (o_.timed_start) {
    m["timed_start"] = o_.timed_start;
    m["timed_start_pages"] = timed_start_pages_;
  }
  m["knowledge"] = metadata_ ? "tracker" : "perfect";
  if (o_.warm_llcs) m["llcs"] = llcs_->coherent() ? "coherent" : "not coherent";
  if (o_.warm_llcs) m["l2s"] = l2s_ ? "kept" : "not kept";
  m["pace"] = pace_manifest();
  m["phase_instructions"] = os_.phase_instructions();
  m["checkpoints"] = o_.checkpoints;
  m["threads"] = n_;
  m["accesses"] = result_.accesses;
  m["llc_misses"] = result_.llc_misses;
  m["instructions"] = result_.instructions;
  // Where the furthest thread ended: what a recording of the streams must cover (trace record).
  m["furthest_instructions"] = furthest_;
  m["host_seconds"] = result_.host_seconds;
  m["pass_seconds"] = result_.pass_seconds;
  m["accesses_per_second"] =
      result_.pass_seconds > 0 ? static_cast<double>(result_.accesses) / result_.pass_seconds : 0.0;
  m["phases"] = phases_;
  // Where a timed run's warm-up and budgets start counting (null: the initialisation outlasted the pass).
  if (!workload_->initialises()) m["initialised_at_mean_instructions"] = 0;
  else if (initialised_at_) m["initialised_at_mean_instructions"] = *initialised_at_;
  else m["initialised_at_mean_instructions"] = nullptr;
  if (o_.units_per_phase) m["units_per_phase"] = o_.units_per_phase;
  if (o_.unit_every) m["unit_every"] = o_.unit_every;
  if (o_.unit_offset) m["unit_offset"] = o_.unit_offset;
  if (o_.unit_lead) m["unit_lead"] = o_.unit_lead;
  if (o_.unit_jitter) m["unit_jitter"] = true;
  if (o_.units_per_phase || o_.unit_every) m["units"] = units_;
  if (units_past_the_end_) m["units_past_the_workloads_end"] = units_past_the_end_;
  if (move_log_) m["moves"] = "moves.csv";
  if (folder_) {
    if (move_log_) write_file_atomically(folder_->file("moves.csv"), move_log_->csv());
    write_file_atomically(folder_->file("manifest.json"), json_text(m) + "\n");
    folder_->commit();
  }
}

}  // namespace

FunctionalPassResult run_functional_pass(Platform& platform, const FunctionalPassOptions& o) {
  return FunctionalPass(platform, o).run();
}

}  // namespace starnuma
