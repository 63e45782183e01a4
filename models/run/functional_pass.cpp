#include "run/functional_pass.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>

#include "cache/cache_array.hpp"
#include "common/diagnostics.hpp"
#include "common/json_text.hpp"
#include "common/output_file.hpp"
#include "os/checkpoint.hpp"
#include "os/migration_policy.hpp"
#include "os/page_counter.hpp"
#include "os/region_scan.hpp"
#include "platform/platform.hpp"
#include "run/run_setup.hpp"
#include "socket/socket.hpp"
#include "stimulus/workload_registry.hpp"
#include "tracking/functional_annexes.hpp"
#include "tracking/platform_tracking.hpp"

namespace starnuma {

namespace {

// Operations a thread runs before the next thread's turn, and each round starts one thread later:
// coarse or fixed turns would let the first threads first-touch (home) most shared pages, which a
// timed run, where threads progress together, does not.
constexpr size_t kOpsPerTurn = 8;
constexpr unsigned kPassLineShift = 6;
// How far ahead the host prefetches: the page-map entry, then (translated) the LLC set. The LLCs'
// tags are larger than the host's caches: without the hints each access waits for host memory.
constexpr size_t kPassTranslationAhead = 8, kPassSetAhead = 4;
// Each thread's private caches, as a direct-mapped filter of this many virtual lines (32 KiB): a hit
// there never reaches the LLC or the TLBs, as an L1 hit does not. Emptied at every boundary, so
// each page's first access after a phase mark reaches its annex.
constexpr size_t kFilterLines = 512;
constexpr unsigned kFilterBits = 9;
// A slot holds the line's bits above the index (lines below 2^41: user space), so 4 bytes do.
constexpr uint32_t kNoLine = ~uint32_t{0};
inline size_t filter_slot(uint64_t vline) { return (vline ^ (vline >> kFilterBits)) & (kFilterLines - 1); }

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

}  // namespace

FunctionalPassResult run_functional_pass(Platform& platform, const FunctionalPassOptions& o) {
  const auto host_start = std::chrono::steady_clock::now();
  Fabric& fabric = platform.fabric();
  const std::vector<ThreadPlace> threads = place_threads(fabric);
  const size_t sockets = fabric.requesters().size();
  if (threads.empty()) report_error(msg::kConfig, "checkpoint: the platform has no cores to run the workload");
  if (o.checkpoints == 0) report_error(msg::kUsage, "--checkpoints must be at least 1");
  std::unique_ptr<Workload> workload = limit_addresses(
      make_workload(o.workload, static_cast<unsigned>(threads.size()), static_cast<unsigned>(sockets), o.seed),
      "workload " + o.workload, virtual_address_limit(fabric));
  std::unique_ptr<PlatformTracking> tracking = PlatformTracking::region_only(fabric);
  const OsSettings& os = platform.os();
  if (os.rule() != MigrationRule::Algorithm1)
    report_error(msg::kConfig,
                 "os.migration: sampled runs decide with algorithm1; run balance continuously (starnuma run)");
  const MigrationKnowledge knowledge = os.knowledge(tracking != nullptr);
  if (knowledge == MigrationKnowledge::Tracker && !tracking)
    report_error(msg::kConfig,
                 "os.policy: tracker needs the tracking hardware (topology.socket.tracking.impl: model or rtl)");
  TrackerMetadata* metadata = knowledge == MigrationKnowledge::Tracker ? tracking->metadata().get() : nullptr;

  PageMap pages = make_page_map(fabric, pool_limit_bytes(os.pool_fraction(), workload->footprint()), tracking.get());
  set_allocation(pages, platform.os(), fabric);
  const size_t pool = pool_node(pages);
  const std::vector<size_t> socket_node = socket_nodes(fabric);
  // A checkpoint names a node by its socket or as StarNUMA's pool (which only migration fills); a
  // CPU-less node that allocation also fills (LACX's CXL node, a pooled device composed into a
  // host's memory) is neither, so such platforms are refused before the pass.
  for (size_t k = 0; k < pages.nodes().size(); ++k)
    if (k != pool && std::find(socket_node.begin(), socket_node.end(), k) == socket_node.end())
      report_error(msg::kConfig, "checkpoint: " + platform.source() + " has the memory node '" + pages.nodes()[k].name +
                                     "', a CPU-less node that allocation fills; the sampled evaluation (checkpoint, "
                                     "sample) supports sockets' memory and a StarNUMA pool, which only migration "
                                     "fills (docs/sampling.md)");
  MigrationPolicy policy(policy_config(os, knowledge, metadata, socket_node, pool), o.seed * 7919 + 17);
  std::optional<OutputFolder> folder;
  if (!o.streams_only) {
    if (o.out.empty()) report_error(msg::kUsage, "checkpoint: --out FOLDER is required");
    folder.emplace(o.out, "manifest.json");
  }

  std::vector<CacheArray> llcs;
  std::vector<unsigned> cores_per_socket;
  for (size_t s = 0; s < sockets; ++s) {
    const Socket& sock = *fabric.requesters()[s];
    const LlcConfig& c = sock.llc_config();
    llcs.emplace_back(c.lines(sock.cores()), c.ways(), c.replacement(), o.seed + s);
    cores_per_socket.push_back(sock.cores());
  }
  const size_t n = threads.size();
  std::vector<Reader> readers;
  for (unsigned t = 0; t < n; ++t) readers.emplace_back(workload->stream(t));
  std::vector<uint64_t> ops(n, 0), retired(n, 0);
  std::vector<uint8_t> finished(n, false), at_barrier(n, false), measuring(n, !workload->initialises());
  // Tracker knowledge: the cores' TLBs and counter annexes, flushing into the metadata.
  std::optional<FunctionalAnnexes> annexes;
  if (metadata) {
    std::vector<FunctionalAnnexes::Thread> tlbs;
    for (const ThreadPlace& tp : threads) {
      const CoreConfig& c = fabric.requesters()[tp.socket]->core_config();
      tlbs.push_back(
          {static_cast<unsigned>(tp.socket), c.dtlb.entries(), c.dtlb.ways(), c.stlb.entries(), c.stlb.ways()});
    }
    annexes.emplace(tlbs, fabric.requesters()[0]->tracking().annexes_stlb(), *metadata);
  }
  PageCounter page_counts;
  const unsigned page_shift = 12;

  FunctionalPassResult result;
  nlohmann::ordered_json phases = nlohmann::ordered_json::array();
  uint64_t furthest = 0;
  const uint64_t per_phase = os.phase_instructions();
  unsigned live = static_cast<unsigned>(n);

  const auto boundary = [&](uint64_t phase) {
    Checkpoint c;
    c.workload = o.workload;
    c.seed = o.seed;
    c.platform = platform.source();
    c.cores_per_socket = cores_per_socket;
    c.page_size = pages.page_size();
    c.knowledge = metadata ? "tracker" : "perfect";
    c.counter_bits = metadata ? metadata->layout().config().counter_bits : 0;
    c.phase_instructions = per_phase;
    c.phase = phase;
    c.in_initialisation = std::find(measuring.begin(), measuring.end(), false) != measuring.end();
    c.ops = ops;
    c.retired = retired;
    for (size_t k = 0; k < pages.nodes().size(); ++k) {
      Checkpoint::NodeRecord r;
      r.name = pages.nodes()[k].name;
      const auto sock = std::find(socket_node.begin(), socket_node.end(), k);
      r.socket = sock != socket_node.end() ? static_cast<int>(sock - socket_node.begin()) : -1;
      r.frames = pages.frames(k);
      c.nodes.push_back(std::move(r));
    }
    RegionScan scan;
    if (metadata) {
      scan = scan_tracker_metadata(pages, *metadata);
      metadata->clear();
      annexes->phase_mark();
    } else {
      scan = scan_page_counts(pages, page_counts);
      page_counts.clear();
    }
    std::vector<uint64_t> free_pages;
    for (size_t k = 0; k < pages.nodes().size(); ++k) free_pages.push_back(pages.free_pages(k));
    c.decision = policy.decide(scan.regions, free_pages, phase);
    c.moves = pages_to_move(scan, c.decision);
    c.scan_entries = scan.entries;
    c.regions_scanned = scan.regions.size();
    const std::string name = "checkpoint-" + std::to_string(phase) + ".ckpt";
    write_file_atomically(folder->file(name), c.serialise());

    // Every move at once; its lines leave every LLC (a dirty one would be written home first).
    uint64_t moved = 0, to_pool = 0, from_pool = 0;
    for (const PageMove& m : c.moves) {
      if (!pages.placed(m.vpage) || pages.node_of(m.vpage) == m.to || pages.free_pages(m.to) == 0) continue;
      const size_t from = pages.node_of(m.vpage);
      if (annexes) annexes->shoot_down(m.vpage);
      const PageMap::Moved mv = pages.move(m.vpage, m.to);
      pages.release(mv.from);
      const uint64_t lines = pages.page_size() >> kPassLineShift;
      for (CacheArray& llc : llcs)
        for (uint64_t l = mv.from * lines; l < (mv.from + 1) * lines; ++l) llc.invalidate(l);
      ++moved;
      to_pool += m.to == pool;
      from_pool += from == pool;
    }
    if (const std::string bad = pages.check(); !bad.empty())
      report_internal("page map at phase " + std::to_string(phase) + ": " + bad);
    nlohmann::ordered_json p = c.header()["decision"];
    p["phase"] = phase;
    p["file"] = name;
    p["in_initialisation"] = c.in_initialisation;
    p["regions_scanned"] = c.regions_scanned;
    p["pages_moved"] = moved;
    p["socket_to_socket"] = moved - to_pool - from_pool;
    p["to_pool"] = to_pool;
    p["from_pool"] = from_pool;
    p["pool_pages"] = pool != static_cast<size_t>(-1) ? pages.pages_on(pool) : 0;
    phases.push_back(p);
    if (o.progress)
      std::fprintf(stderr, "phase %llu: %llu pages moved (%llu to the pool), %s\n",
                   static_cast<unsigned long long>(phase), static_cast<unsigned long long>(moved),
                   static_cast<unsigned long long>(to_pool), name.c_str());
  };

  std::vector<uint32_t> filter(n * kFilterLines, kNoLine);

  // The pass's own speed is timed from here: building the workload (a graph's generation) is not.
  const auto pass_start = std::chrono::steady_clock::now();
  uint64_t phase = 0, round = 0;
  while (phase < o.checkpoints && live > 0) {
    unsigned waiting = 0;
    const size_t first = round++ % n;
    for (size_t turn = 0; turn < n; ++turn) {
      const size_t t = first + turn < n ? first + turn : first + turn - n;
      if (finished[t] || at_barrier[t]) {
        waiting += at_barrier[t];
        continue;
      }
      const size_t socket = threads[t].socket;
      CacheArray& llc = llcs[socket];
      uint32_t* lines = &filter[t * kFilterLines];
      // Within a batch no other thread runs: the translation of the page just used hits the L1
      // DTLB's most recent entry, and changes nothing the pass counts.
      uint64_t last_vpage = ~uint64_t{0};
      for (size_t i = 0; i < kOpsPerTurn; ++i) {
        const StreamOp* op = readers[t].peek();
        if (!op) {
          finished[t] = true;
          --live;
          break;
        }
        if (op->kind == StreamOp::Kind::Barrier) {
          at_barrier[t] = true;
          ++waiting;
          break;
        }
        ++ops[t];
        retired[t] += op->instructions + 1;
        ++result.accesses;
        readers[t].pop();
        if (o.streams_only) continue;
        const uint64_t vline = op->address >> kPassLineShift;
        uint32_t& slot = lines[filter_slot(vline)];
        const auto tag = static_cast<uint32_t>(vline >> kFilterBits);
        if (slot == tag && vline >> (kFilterBits + 32) == 0) continue;
        slot = tag;
        if (const StreamOp* far = readers[t].ahead(kPassTranslationAhead); far && far->kind != StreamOp::Kind::Barrier)
          pages.prefetch(far->address);
        if (const StreamOp* near = readers[t].ahead(kPassSetAhead); near && near->kind != StreamOp::Kind::Barrier)
          if (const uint64_t pa = pages.peek(near->address); pa != PageMap::kUnplaced)
            llc.prefetch(pa >> kPassLineShift);
        const bool store = op->kind == StreamOp::Kind::Store;
        const uint64_t paddr = pages.translate(op->address, socket);
        const uint64_t vpage = op->address >> page_shift;
        if (annexes && vpage != last_vpage) annexes->access(t, vpage, paddr >> page_shift);
        last_vpage = vpage;
        const uint64_t line = paddr >> kPassLineShift;
        if (llc.access(line, store)) continue;
        llc.fill(line, store);
        ++result.llc_misses;
        if (annexes) {
          if (!store) annexes->llc_load(t, vpage);
        } else {
          page_counts.count(vpage, socket);
        }
      }
      furthest = std::max(furthest, retired[t]);
    }
    // A barrier opens when every running thread has reached it.
    if (live > 0 && waiting == live) {
      for (size_t t = 0; t < n; ++t) {
        if (!at_barrier[t]) continue;
        measuring[t] = measuring[t] || readers[t].peek()->starts_measurement;
        readers[t].pop();
        ++ops[t];
        at_barrier[t] = false;
      }
    }
    if (furthest >= (phase + 1) * per_phase) {
      if (o.streams_only) ++phase;
      else boundary(++phase);
      std::fill(filter.begin(), filter.end(), kNoLine);
    }
  }
  if (phase < o.checkpoints)
    report_error(msg::kInput, "checkpoint: " + o.workload + " ends after " + std::to_string(phase) + " phase boundar" +
                                  (phase == 1 ? "y" : "ies") + " of " + std::to_string(per_phase) +
                                  " instructions; ask for at most that many checkpoints, a shorter "
                                  "os.phase_instructions, or a longer workload");
  for (uint64_t r : retired) result.instructions += r;
  const auto pass_end = std::chrono::steady_clock::now();
  result.host_seconds = std::chrono::duration<double>(pass_end - host_start).count();
  result.pass_seconds = std::chrono::duration<double>(pass_end - pass_start).count();

  nlohmann::ordered_json& m = result.manifest;
  m["format"] = "starnuma checkpoints";
  m["starnuma"] = STARNUMA_VERSION;
  m["platform"] = platform.source();
  m["workload"] = o.workload;
  m["seed"] = o.seed;
  m["knowledge"] = metadata ? "tracker" : "perfect";
  m["phase_instructions"] = per_phase;
  m["checkpoints"] = o.checkpoints;
  m["threads"] = n;
  m["accesses"] = result.accesses;
  m["llc_misses"] = result.llc_misses;
  m["instructions"] = result.instructions;
  m["host_seconds"] = result.host_seconds;
  m["pass_seconds"] = result.pass_seconds;
  m["accesses_per_second"] = result.pass_seconds > 0 ? static_cast<double>(result.accesses) / result.pass_seconds : 0.0;
  m["phases"] = phases;
  if (folder) {
    write_file_atomically(folder->file("manifest.json"), json_text(m) + "\n");
    folder->commit();
  }
  return result;
}

}  // namespace starnuma
