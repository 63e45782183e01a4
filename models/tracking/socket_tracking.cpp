#include "tracking/socket_tracking.hpp"

#include <algorithm>
#include <cstdio>

#include "common/local_time.hpp"
#include "fabric/fabric.hpp"

namespace starnuma {

using namespace literals;

namespace {
constexpr uint64_t kFnvPrime = 0x100000001b3ull;
constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ull;

uint64_t fnv(uint64_t h, uint64_t v) {
  for (int i = 0; i < 8; ++i, v >>= 8) h = (h ^ (v & 0xff)) * kFnvPrime;
  return h;
}
}  // namespace

SocketTracking::SocketTracking(sc_core::sc_module_name n, const ScopeContext& c, const CoreConfig& core)
    : Component(n, c),
      impl_(*this, "impl", "none",
            "Page-hotness tracking hardware: none, model (C++ reference models) or rtl (the Verilated RTL)",
            names_of<TrackingImpl>()),
      active_(*this, "active", "auto",
              "When the hardware runs: auto (the OS turns it on in runs whose migration decides by the trackers, "
              "dynamic placement with tracker knowledge; otherwise it is there but idle) or always (every run, "
              "whether or not anything reads its counts)",
              std::vector<std::string>{"auto", "always"}),
      tlb_(*this, "tlb", "l2",
           "The TLB each core's counter annex extends: l2 (the STLB, which must be inclusive; flushes on STLB "
           "evictions, as the page walker fills it) or l1 (the L1 DTLB; flushes on every L1 DTLB eviction)",
           names_of<TlbLevel>()),
      counter_bits_(*this, "counter_bits", 16,
                    "i of the T_i tracker: counter bits per annex and metadata entry (0: sharers only)",
                    between(0u, 16u)),
      region_size_(*this, "region_size", 512_KiB, "Physical memory per metadata entry (a power of two, whole pages)",
                   between(4_KiB, Size::from_bytes(uint64_t{1} << 40))),
      queue_depth_(*this, "queue_depth", 4,
                   "Flushes the tracker update queues; a full queue stalls the access whose TLB event flushes",
                   between(1u, 64u)),
      trackers_(*this, "trackers", "per_socket",
                "Tracker updates: per_socket (one, shared by the socket's cores) or per_core (one per core's "
                "page-table walker)",
                std::vector<std::string>{"per_socket", "per_core"}),
      metadata_home_(*this, "metadata_home", "auto",
                     "Node whose memory holds the metadata region (at its top): a node name, or auto (the memory pool "
                     "if there is one, else the first socket)"),
      issue_cycles_(*this, "issue_cycles", 2,
                    "Core cycles from a TLB event to the tracker's read request (annex FIFO, queue)",
                    between(0u, 100000u)),
      modify_cycles_(*this, "modify_cycles", 1, "Core cycles from the read data to the write request",
                     between(0u, 100000u)),
      phase_interval_(*this, "phase_interval", 0_ns,
                      "Marks every annex entry each interval of a core's time (0: never; the migration policy marks)",
                      at_least(0_ns)),
      metadata_path_(*this, "metadata_path", "llc",
                     "Where the tracker updates read and write the metadata: llc (through the socket's LLC, "
                     "coherent with the other sockets' copies when coherence is on, as a page walker's accesses "
                     "are), cache (a metadata cache of the trackers' own, metadata_cache_lines, which no other "
                     "socket's update invalidates) or memory (every update reads and writes the metadata's home; "
                     "docs/tracking.md)",
                     names_of<MetadataPath>()),
      metadata_cache_lines_(*this, "metadata_cache_lines", 1024,
                            "With metadata_path: cache, the metadata lines the socket's trackers keep cached, "
                            "write-back, LRU, 16 ways",
                            between(16u, 1u << 20)),
      metadata_cache_cycles_(*this, "metadata_cache_cycles", 20,
                             "With metadata_path: cache, core cycles of a metadata cache hit", between(0u, 10000u)),
      core_stall_stat_(*this, "core_stall_cycles", "cycles",
                       "Cycles a core's annexed TLB was held by its annex (a flush the tracker's full queue could not "
                       "take yet), summed over the socket's cores",
                       [this](sc_core::sc_time) { return nlohmann::json(cycles(core_stall_fs_)); }),
      annex_bits_stat_(*this, "annex_bits", "bits",
                       "The annexes' state on the socket's cores: per annexed TLB entry its i-bit count and "
                       "phase marker (the hardware's on-chip cost; the metadata lives in memory)",
                       [this](sc_core::sc_time) {
                         return nlohmann::json(impl() == TrackingImpl::None ? 0
                                                                            : uint64_t{cores_.size()} * tlb_entries_ *
                                                                                  (counter_bits_.get() + 1));
                       }),
      queue_wait_stat_(*this, "queue_wait_cycles", "cycles",
                       "Cycles flushes waited in the tracker's queue for its earlier updates, summed over flushes",
                       [this](sc_core::sc_time) { return nlohmann::json(cycles(queue_wait_fs_)); }),
      digest_stat_(*this, "request_digest", "", "FNV-1a of the metadata requests (op, address, data, issue time)",
                   [this](sc_core::sc_time) {
                     char b[24];
                     std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(digest_));
                     return nlohmann::json(b);
                   }),
      annexed_tlb_(enum_named<TlbLevel>(tlb_.get())),
      tlb_entries_(annexed_tlb_ == TlbLevel::L1 ? core.dtlb.entries() : core.stlb.entries()),
      digest_(kFnvOffset),
      path_(enum_named<MetadataPath>(metadata_path_.get())) {
  const uint64_t region = region_size_->bytes();
  if ((region & (region - 1)) != 0) error_if(true, "region_size", format_size(region_size_) + " is not a power of two");
  const unsigned cache_lines = metadata_cache_lines_;
  error_if(cache_lines % 16 != 0, "metadata_cache_lines",
           std::to_string(cache_lines) + " is not a multiple of 16 (the ways)");
  error_if(annexes_stlb() && core.stlb.inclusion() == StlbConfig::Inclusion::No, "tlb",
           "the STLB annex needs an inclusive STLB (every translation in use has its annex entry), but "
           "core.stlb.inclusive is false: set it to auto or true, or annex the L1 DTLB (tlb: l1)");
  if (impl() != TrackingImpl::Rtl) return;
  const RtlBuild& b = rtl_build();
  std::string widths;
  for (unsigned w : b.widths) widths += (widths.empty() ? "" : ", ") + std::to_string(w);
  error_if(std::find(b.widths.begin(), b.widths.end(), counter_bits_.get()) == b.widths.end(), "counter_bits",
           std::to_string(counter_bits_.get()) + " has no RTL build: with impl: rtl, counter_bits is one of " + widths +
               " (impl: model takes 0..16)");
  error_if(region != b.pages_per_region * kPageBytes, "region_size",
           "the RTL is built for " + format_size(Size::from_bytes(b.pages_per_region * kPageBytes)) +
               " regions (impl: model takes any)");
  error_if(queue_depth_ != b.queue_depth, "queue_depth",
           "the RTL is built with " + std::to_string(b.queue_depth) + " (impl: model takes any)");
  const bool l1 = annexed_tlb() == TlbLevel::L1;
  const unsigned built = l1 ? b.l1_annex_entries : b.l2_annex_entries;
  error_if(tlb_entries_ != built, "impl",
           std::string("the RTL annex is built for a ") + std::to_string(built) + "-entry " +
               (l1 ? "L1 DTLB" : "STLB") + ", this core's has " + std::to_string(tlb_entries_) +
               (l1 ? " (core.dtlb.entries)" : " (core.stlb.entries)"));
}

void SocketTracking::error_if(bool bad, const char* key, const std::string& message) {
  if (bad) error_at(key, message);
}

template <>
const std::vector<std::string>& names_of<TrackingImpl>() {
  static const std::vector<std::string> names{"none", "model", "rtl"};
  return names;
}

template <>
const std::vector<std::string>& names_of<TlbLevel>() {
  static const std::vector<std::string> names{"l1", "l2"};
  return names;
}

template <>
const std::vector<std::string>& names_of<MetadataPath>() {
  static const std::vector<std::string> names{"llc", "cache", "memory"};
  return names;
}

TrackingImpl SocketTracking::impl() const { return enum_named<TrackingImpl>(impl_.get()); }

void SocketTracking::attach(const Attachment& a) {
  // The trackers' processes live as long as the simulation: one run per elaboration.
  if (!tracker_units_.empty()) report_error(msg::kModel, path() + ": tracking attached to a second run");
  at_ = a;
  const TrackerConfig& tc = a.metadata->layout().config();
  if (impl() == TrackingImpl::Rtl && tc.sockets != rtl_build().sockets)
    report_error(msg::kConfig, path() + ".impl: the RTL tracker is built for " + std::to_string(rtl_build().sockets) +
                                   " sharer bits; this platform needs " + std::to_string(tc.sockets));
  const unsigned trackers = tracker_per_core() ? a.cores : 1;
  EngineConfig ec{a.cores, trackers, tlb_entries_, static_cast<unsigned>(a.requester), tc};
  engine_ = impl() == TrackingImpl::Rtl ? make_rtl_engine(ec) : make_model_engine(ec);
  cores_.assign(a.cores, CoreState(tlb_entries_));
  if (path_ == MetadataPath::Cache)
    metadata_cache_ = std::make_unique<CacheArray>(metadata_cache_lines_, 16, Replacement::Lru);
  const int64_t interval = phase_interval_->ps() * 1000;
  for (CoreState& s : cores_) s.next_phase_fs = interval;
  for (unsigned k = 0; k < trackers; ++k) {
    tracker_units_.push_back(
        std::make_unique<Tracker>(queue_depth_, issue_cycles_ * a.cycle_fs, modify_cycles_ * a.cycle_fs));
    Tracker* unit = tracker_units_.back().get();
    std::string process = std::string(name()) + "_tracker" + std::to_string(k);  // unique at the top level
    std::replace(process.begin(), process.end(), '.', '_');
    sc_core::sc_spawn([this, unit] { serve(*unit); }, process.c_str());
  }
}

unsigned SocketTracking::local(unsigned core) const {
  if (core < at_.first_core || core - at_.first_core >= cores_.size())
    report_error(msg::kModel, path() + ": an event of core " + std::to_string(core) + ", not of this socket");
  return core - at_.first_core;
}

// The core's state, after the phase marks due by `t` (per core: each runs on its own time).
SocketTracking::CoreState& SocketTracking::state(unsigned c, int64_t& t) {
  CoreState& s = cores_[c];
  const int64_t interval = phase_interval_->ps() * 1000;
  if (interval > 0 && t >= s.next_phase_fs) {
    release_held(c, t);
    AnnexBeat b;
    b.phase = true;
    deliver(c, b, 0, t);
    mark_all(s);
    ++phase_marks_;
    s.next_phase_fs = (t / interval + 1) * interval;
  }
  return s;
}

// No core waits for these: a phase beat never flushes, and no eviction is held between accesses.
void SocketTracking::phase_mark() {
  for (unsigned c = 0; c < cores_.size(); ++c) {
    int64_t t = sim_now_fs();
    AnnexBeat b;
    b.phase = true;
    deliver(c, b, 0, t);
    mark_all(cores_[c]);
    ++phase_marks_;
  }
}

// An eviction waits for the fill that replaces it, so the replacement is one beat (as the RTL
// takes it: evict before fill in one cycle); anything else of the core sends it alone first.
void SocketTracking::release_held(unsigned c, int64_t& t) {
  CoreState& s = cores_[c];
  if (s.held_evict == PageIndexMap::kNone) return;
  AnnexBeat b;
  b.evict = s.held_evict;
  s.held_evict = PageIndexMap::kNone;
  int64_t held = s.held_fs;
  deliver(c, b, 1, held);
  t = std::max(t, held);
}

// When the tracker's queue is full, the annex cannot hand the beat's flush over: it holds the TLB
// (no lookup or fill of the core completes) until the queue takes it. The engine runs once there
// is room, so it folds the flushes at once and their requests wait in the queue.
void SocketTracking::deliver(unsigned c, const AnnexBeat& beat, unsigned flushes, int64_t& t) {
  Tracker& k = *tracker_units_[tracker_units_.size() == 1 ? 0 : c];
  if (flushes > 0 && !k.queue.has_room(flushes)) {
    make_room(k, flushes, t);
    cores_[c].blocked_fs = std::max(cores_[c].blocked_fs, t);
  }
  current_ = &k;  // set after the wait: other cores' beats may have run meanwhile
  beat_fs_ = t;
  engine_->set_beat_time(t / 1000);
  engine_->apply(c, beat, memory_);
  if (flushes > 0) {
    last_taken_fs_ = std::max(last_taken_fs_, t);
    k.queued.notify();
  }
}

void SocketTracking::attach_waves(Waves& waves) {
  if (impl() == TrackingImpl::None) return;
  for (size_t k = 0; k < tracker_units_.size(); ++k) {
    tracker_units_[k]->queue_signal = waves.level(path() + ".tracker" + std::to_string(k), "queue", 16);
    if (tracker_units_[k]->queue_signal != Waves::kOff) waves_ = &waves;
  }
  if (engine_ && impl() == TrackingImpl::Rtl) engine_->attach_waves(waves, path() + ".rtl", at_.cycle_fs / 1000);
}

void SocketTracking::make_room(Tracker& k, unsigned flushes, int64_t& t) {
  if (sc_core::sc_get_current_process_handle().proc_kind() != sc_core::SC_THREAD_PROC_)
    report_error(msg::kModel, path() + ": a flush met a full tracker queue outside a core's process");
  stalled_ += flushes;
  FloorHold::hold_running_process();  // the core's other accesses still go out at their times
  while (!k.queue.has_room(flushes)) sc_core::wait(k.started);
  const int64_t now = sim_now_fs();
  if (now > t) {
    core_stall_fs_ += now - t;
    t = now;
  }
}

// Each update at its time: the read when it starts (its slot frees), the write `modify` after the
// read's data, the next update not before the write's response.
void SocketTracking::serve(Tracker& k) {
  // A request never goes out before its time: wait to its picosecond rounded up.
  const auto wait_until = [](int64_t fs) {
    if (fs > sim_now_fs()) wait_until_fs(fs + 999);
  };
  for (;;) {
    while (k.queue.empty()) sc_core::wait(k.queued);
    const int64_t start = k.queue.start_time(k.free_fs);
    // Until then a flush earlier in time may still come (a core behind in simulated time): it
    // would go first, so the oldest is chosen again when one comes.
    if (start > sim_now_fs()) {
      sc_core::wait(sc_core::sc_time::from_value(static_cast<sc_dt::uint64>((start - sim_now_fs() + 999) / 1000)),
                    k.queued);
      continue;
    }
    queue_wait_fs_ += k.queue.queue_wait(k.free_fs);
    const TrackerQueue::Update u = k.queue.pop();
    if (waves_) waves_->add(k.queue_signal, start / 1000, -1);
    k.started.notify();
    k.free_fs = access(MemOp::Read, u.read_addr, 0, start, u.writes);
    if (u.writes) {
      const int64_t issue = k.queue.write_issue(k.free_fs);
      // Through the LLC the add is atomic: the line its read took exclusive is held until the
      // write, so no other socket's request comes between them.
      if (path_ != MetadataPath::Llc) wait_until(issue);
      k.free_fs = access(MemOp::Write, u.write_addr, u.write_data, issue);
    }
    ++served_;
    if (k.queue.empty()) k.floor.release();
    else k.floor.serve(k.queue.start_time(k.free_fs));  // the next update's time, while behind
    wait_until(k.free_fs);
  }
}

SocketTracking::CoreState& SocketTracking::tlb_event(unsigned core, Time at, unsigned& c, int64_t& t) {
  c = local(core);
  t = std::max(at.ps() * 1000, cores_[c].blocked_fs);
  return state(c, t);
}

Time SocketTracking::tlb_fill(unsigned core, TlbLevel level, uint64_t vpage, uint64_t ppage, Time at) {
  if (level != annexed_tlb()) return Time();  // only one TLB level has annexes
  unsigned c;
  int64_t t;
  CoreState& s = tlb_event(core, at, c, t);
  const unsigned index = s.map.insert(vpage);
  if (index == PageIndexMap::kNone) report_error(msg::kModel, path() + ": a fill into a full annexed TLB");
  AnnexBeat b;
  if (s.held_evict != PageIndexMap::kNone) {
    b.evict = s.held_evict;
    s.held_evict = PageIndexMap::kNone;
  }
  b.fill = AnnexBeat::Fill{index, vpage, ppage};
  deliver(c, b, b.evict ? 1 : 0, t);
  unmark(s, index);  // after the wait: a phase mark during it came before the fill
  return stall(at, t);
}

// The counts go in as the annex's own load beats (each adds one; they take no simulated time and
// flush nothing), so the model and the RTL take them alike.
void SocketTracking::tlb_warm(unsigned core, TlbLevel level, const Translations& marked, const Translations& unmarked,
                              const Translations& counts) {
  if (level != annexed_tlb()) return;
  for (const auto& [vpage, ppage] : marked) tlb_fill(core, level, vpage, ppage, Time());
  if (!marked.empty()) {
    const unsigned c = local(core);
    int64_t t = sim_now_fs();
    AnnexBeat b;
    b.phase = true;
    deliver(c, b, 0, t);
    mark_all(cores_[c]);
  }
  for (const auto& [vpage, ppage] : unmarked) tlb_fill(core, level, vpage, ppage, Time());
  const unsigned c = local(core);
  int64_t t = sim_now_fs();
  for (const auto& [vpage, count] : counts) {
    AnnexBeat b;
    b.load = cores_[c].map.find(vpage);
    if (*b.load == PageIndexMap::kNone) report_internal(path() + ": a warm count for a page not warmed");
    for (uint64_t k = 0; k < count; ++k) deliver(c, b, 0, t);
  }
}

Time SocketTracking::tlb_hit(unsigned core, TlbLevel level, uint64_t vpage, Time at) {
  if (level != annexed_tlb()) {
    // A marked translation is accessed (the paper: the marker flushes on the entry's first access
    // after the mark) even when the L1 DTLB serves it: its lookup reaches the STLB annex's marker.
    // Without marks (no phase yet) this costs one test.
    if (level != TlbLevel::L1) return Time();
    const CoreState& s = cores_[local(core)];
    if (s.marked_count == 0) return Time();
    const unsigned i = s.map.find(vpage);
    if (i == PageIndexMap::kNone || !s.marked[i]) return Time();
  }
  unsigned c;
  int64_t t;
  CoreState& s = tlb_event(core, at, c, t);
  const unsigned index = s.map.find(vpage);
  if (index == PageIndexMap::kNone) report_error(msg::kModel, path() + ": an annexed TLB hit on a page never filled");
  // An unmarked hit changes nothing in the annex (it only flushes marked entries), so the
  // engine is not run for it: this keeps the RTL unclocked on the most frequent event.
  if (!s.marked[index]) return stall(at, t);
  release_held(c, t);
  ++flushes_;
  ++total_flushes_;
  AnnexBeat b;
  b.hit = index;
  deliver(c, b, 1, t);
  unmark(s, index);  // after the wait, as for a fill
  return stall(at, t);
}

Time SocketTracking::tlb_evict(unsigned core, TlbLevel level, uint64_t vpage, uint64_t ppage, Time at) {
  if (level != annexed_tlb()) return Time();
  unsigned c;
  int64_t t;
  CoreState& s = tlb_event(core, at, c, t);
  release_held(c, t);
  const unsigned index = s.map.erase(vpage);
  if (index == PageIndexMap::kNone)
    report_error(msg::kModel, path() + ": an annexed TLB eviction of a page never filled");
  unmark(s, index);
  ++flushes_;  // every eviction flushes, count 0 included (it reports the sharer)
  ++total_flushes_;
  s.held_evict = index;  // flushed with the fill that follows: the fill's event returns the stall
  s.held_fs = t;
  return stall(at, t);
}

Time SocketTracking::tlb_shootdown(unsigned core, TlbLevel level, uint64_t vpage, uint64_t ppage, Time at) {
  if (level != annexed_tlb()) return Time();
  tlb_evict(core, level, vpage, ppage, at);
  const unsigned c = local(core);
  int64_t t = cores_[c].held_fs;
  release_held(c, t);
  return stall(at, t);
}

// Never stalls: the load beat only counts (not a TLB lookup: a held TLB does not delay it), and no
// eviction is held here (every eviction's fill follows it in the same translation).
void SocketTracking::llc_miss_load(unsigned core, uint64_t vpage, uint64_t ppage, Time done) {
  const unsigned c = local(core);
  int64_t t = done.ps() * 1000;
  if (cores_[c].held_evict != PageIndexMap::kNone)
    report_error(msg::kModel, path() + ": an LLC-missing load between an annexed TLB eviction and its fill");
  CoreState& s = state(c, t);
  const unsigned index = s.map.find(vpage);
  if (index == PageIndexMap::kNone) {
    ++untracked_;
    return;
  }
  AnnexBeat b;
  b.load = index;
  deliver(c, b, 0, t);
}

void SocketTracking::bind_llc(SocketLlc* llc, Coherence* coherence) {
  llc_ = llc;
  llc_route_ = SocketLlc::Route{at_.fabric, at_.requester, coherence};
}

// The run ends when nothing is left to simulate: every tracker has served its queue by then.
void SocketTracking::finish() {
  for (const CoreState& s : cores_)
    if (s.held_evict != PageIndexMap::kNone)
      report_error(msg::kModel, path() + ": an annexed TLB eviction without its fill at the end of the run");
  for (const auto& k : tracker_units_)
    if (!k->queue.empty()) report_error(msg::kModel, path() + ": tracker updates left unserved at the end of the run");
  if (total_reads_ != total_flushes_ || served_ != total_flushes_)
    report_error(msg::kModel, path() + ": " + std::to_string(total_flushes_) + " flushes, " +
                                  std::to_string(total_reads_) + " tracker updates, " + std::to_string(served_) +
                                  " served");
}

void SocketTracking::reset_stats() {
  Component::reset_stats();
  digest_ = kFnvOffset;
  core_stall_fs_ = queue_wait_fs_ = 0;
}

// One metadata request issued at `issue_fs`; returns when its response is back (fs).
int64_t SocketTracking::access(MemOp op, uint64_t addr, uint64_t data, int64_t issue_fs, bool owned) {
  const Time issue = Time::from_ps(issue_fs / 1000);
  digest_ = fnv(fnv(fnv(fnv(digest_, static_cast<uint64_t>(op)), addr), data), static_cast<uint64_t>(issue_fs));
  const bool write = op == MemOp::Write;
  if (path_ == MetadataPath::Llc) {
    // A page walker's read-modify-write through its socket's LLC, as an atomic add: when the entry
    // changes, the read asks for the line exclusive (GetM) and the write then hits it; a read whose
    // entry stays as it is (a sharer bit already set, nothing to add) takes it shared.
    if (!llc_) report_internal(path() + ": metadata_path llc with no LLC bound to the run");
    bool hit = false;
    const int64_t done = llc_->agent_access(llc_route_, addr, write || owned, issue_fs,
                                            static_cast<int64_t>(llc_->latency) * at_.cycle_fs, hit);
    if (hit) ++llc_hits_;
    else bytes_ += kLineBytes;
    return done;
  }
  if (metadata_cache_) {
    // Sets are chosen by a hash of the line, as in real caches: each socket's entries lie 256 KiB
    // apart in the region (its memory / region size x entry size), which plain modulo indexing
    // would put in one set. The mix is its own inverse (the high bits stay as they are).
    const auto mix = [](uint64_t l) { return l ^ ((l >> 12) & 0xfff); };
    const uint64_t line = mix(addr / kLineBytes);
    const int64_t hit_fs = issue_fs + metadata_cache_cycles_ * at_.cycle_fs;
    if (metadata_cache_->access(line, write)) {
      ++cache_hits_;
      return hit_fs;
    }
    // A miss fetches the line (a write allocates it: its read came first and was evicted since);
    // a dirty victim is written back, posted.
    int64_t done_fs = hit_fs;
    if (!write) {
      done_fs = issue_fs +
                (at_.fabric->access(at_.requester, MemAccess{MemOp::Read, addr, nullptr}, issue) - issue).ps() * 1000;
      bytes_ += kLineBytes;
    }
    const CacheArray::Victim v = metadata_cache_->fill(line, write);
    if (v.valid && v.dirty) {
      ++cache_writebacks_;
      bytes_ += kLineBytes;
      at_.fabric->access(at_.requester, MemAccess{MemOp::Write, mix(v.line) * kLineBytes, nullptr}, issue);
    }
    return done_fs;
  }
  const Time done = at_.fabric->access(at_.requester, MemAccess{op, addr, nullptr}, issue);
  bytes_ += kLineBytes;
  return issue_fs + (done - issue).ps() * 1000;
}

// The engine folds a flush into the metadata at once; its requests wait in the tracker's queue
// (deliver made room) until the tracker's process issues them.
uint64_t SocketTracking::QueuedMemory::read(uint64_t addr) {
  SocketTracking& o = owner_;
  o.current_->queue.push(o.beat_fs_, addr);
  // A core behind SystemC time flushed: the update goes out at that time (the core holds the floor
  // at or before it now, but may catch up before the tracker serves it).
  if (o.beat_fs_ < sim_now_fs()) o.current_->floor.hold(o.beat_fs_);
  if (o.waves_) o.waves_->add(o.current_->queue_signal, o.beat_fs_ / 1000, 1);
  ++o.reads_;
  ++o.total_reads_;
  return o.at_.metadata->read(addr);
}

void SocketTracking::QueuedMemory::write(uint64_t addr, uint64_t data) {
  SocketTracking& o = owner_;
  o.current_->queue.push_write(addr, data);
  ++o.writes_;
  o.at_.metadata->write(addr, data);
}

}  // namespace starnuma
