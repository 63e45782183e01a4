// `poa`: GenomicsBench's partial-order alignment (SPOA), really executed and traced per thread.
// Every thread aligns its static share of the batches in its own arena, so no page is ever
// shared. Per batch: the reads are copied in; the first read becomes a chain of nodes; every
// further read is aligned (SPOA's initialisation, one DP row per node in rank order, the
// traceback), added to the graph and the graph re-sorted; then the consensus. The host runs
// each piece as the stream reaches it and queues the piece's operations (a DP row at most: one
// row's loads and stores), so memory stays bounded by one graph and its matrices.
#include <algorithm>

#include "common/units.hpp"
#include "stimulus/genomics/poa.hpp"
#include "stimulus/micro/micro.hpp"
#include "stimulus/layout.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {

using namespace literals;

namespace genomics {

namespace {

constexpr uint64_t kLimit = uint64_t{1} << 47;

// Instruction cost model: the non-memory instructions of SPOA's scalar affine engine compiled at
// -O3 (the loads it keeps in registers, H_pred[j - 1], H[j - 1], E[j - 1], are not memory
// operations; the profile and the row's own H/F re-reads, L1 hits by construction, count here).
// One DP cell, per predecessor: profile load, H_pred + g, F_pred + e, max (compare + move),
// H_pred[j-1] + profile, for a further predecessor two more max with the row, loop step,
// compare, branch.
constexpr uint32_t kCellPerPredecessor = 9;
// One DP cell's E and H update: H[j] and F[j] re-read, H[j-1] + g, E[j-1] + e, max, H = max of
// three, NW's sink / last-column test, loop step, compare, branch.
constexpr uint32_t kCellUpdate = 14;
// The SIMD engine's E: a prefix max across the vector's lanes, per doubling a shift, an add and
// a max (SPOA's simd_alignment_engine_implementation.hpp).
constexpr uint32_t kPrefixStep = 3;
// Per node row: its rank and code, the profile row, each predecessor's rank and row pointers.
constexpr uint32_t kPerRow = 12, kPerRowPredecessor = 6;
// Loops that write whole rows (the profile, row 0, the reads' copy) are traced one store per
// line, carrying the instructions of the line's elements: a compare/select or copy per element.
constexpr uint32_t kPerInitCell = 3, kPerInputByte = 1;
// Column 0: per node, the best predecessor F (a load and max each) and three stores.
constexpr uint32_t kPerColumnNode = 8;
// Traceback: per cell, the state's recomputed candidates (profile, adds, compares) per
// predecessor, and the pair appended to the alignment.
constexpr uint32_t kPerTraceCell = 10;
// Adding the alignment: per pair the node's base compare or the aligned nodes' scan; per new node
// its construction; per edge the out-edge list search and the weight update.
constexpr uint32_t kPerAddPair = 8, kPerNewNode = 20, kPerEdge = 10;
// Topological sort and consensus: per node its edge lists, per edge a counter or score compare.
constexpr uint32_t kPerSortNode = 10, kPerSortEdge = 5, kPerConsensusNode = 8, kPerConsensusEdge = 6;

uint64_t page_round(uint64_t bytes) { return (bytes + kPageBytes - 1) / kPageBytes * kPageBytes; }

class PoaStream : public micro::StepStream<PoaStream> {
 public:
  PoaStream(const PoaWorkload& w, unsigned thread, micro::FirstTouch first_touch)
      : StepStream(std::move(first_touch)),
        w_(w),
        arena_(w.window(), w.reads(), thread),
        share_(w.share(thread)),
        batch_(share_.begin) {
    pending_.reserve(size_t{16} * poa_max_read(w.window()) + 64);
  }

  size_t step(StreamOp* out) {
    if (initialising(out)) return 1;
    size_t n = 0;
    while (n < kMaxStep) {
      if (head_ == pending_.size()) {
        pending_.clear();
        head_ = 0;
        if (!advance()) break;
        continue;
      }
      out[n++] = pending_[head_++];
    }
    return n;
  }

 private:
  enum class Phase { Batch, Start, Row, Finish, Consensus, Done };

  void ld(uint64_t a, uint32_t instructions) { pending_.push_back(load(a, instructions)); }
  void st(uint64_t a, uint32_t instructions) { pending_.push_back(store(a, instructions)); }
  uint64_t node(uint32_t n) const { return arena_.nodes + uint64_t{n} * PoaArena::kNodeBytes; }
  uint64_t edge(uint32_t e) const { return arena_.edges + uint64_t{e} * PoaArena::kEdgeBytes; }
  uint64_t cell(uint64_t matrix, uint32_t row, uint32_t col) const {
    return matrix + (uint64_t{row} * aligner_.width() + col) * 4;
  }
  // Stores one per line over [at, at + bytes), each carrying `per` instructions per `unit` bytes.
  void write_lines(uint64_t at, uint64_t bytes, uint32_t unit, uint32_t per) {
    for (uint64_t a = at; a < at + bytes; a = (a / kLineBytes + 1) * kLineBytes) {
      const uint64_t end = std::min(at + bytes, (a / kLineBytes + 1) * kLineBytes);
      st(a, static_cast<uint32_t>((end - a + unit - 1) / unit * per));
    }
  }

  // Runs the next piece of the kernel and queues its operations; false when the thread is done.
  bool advance() {
    switch (phase_) {
      case Phase::Batch:
        if (batch_ == share_.end) {
          phase_ = Phase::Done;
          return false;
        }
        make_poa_batch(w_.batch_seed(batch_), w_.window(), w_.reads(), w_.error_rate(), data_);
        graph_.clear();
        for (uint32_t r = 0, max = poa_max_read(w_.window()); r < w_.reads(); ++r)
          write_lines(arena_.reads + uint64_t{r} * max, data_.reads[r].size(), 1, kPerInputByte);
        read_ = 0;
        alignment_.clear();
        add_read();
        phase_ = read_ < w_.reads() ? Phase::Start : Phase::Consensus;
        return true;
      case Phase::Start:
        start();
        rank_ = 0;
        phase_ = Phase::Row;
        return true;
      case Phase::Row:
        row();
        if (++rank_ == graph_.nodes()) phase_ = Phase::Finish;
        return true;
      case Phase::Finish:
        aligner_.finish(&alignment_, &visited_);
        for (uint64_t v : visited_) {
          const uint64_t matrix = (v & 3) == 0 ? arena_.h : (v & 3) == 1 ? arena_.f : arena_.e;
          ld(cell(matrix, static_cast<uint32_t>(v >> 34), static_cast<uint32_t>((v >> 2) & 0xffffffffu)),
             kPerTraceCell);
        }
        add_read();
        phase_ = read_ < w_.reads() ? Phase::Start : Phase::Consensus;
        return true;
      case Phase::Consensus:
        consensus();
        ++batch_;
        phase_ = Phase::Batch;
        return true;
      case Phase::Done: return false;
    }
    return false;
  }

  // Adds read `read_` along alignment_ and re-sorts the graph.
  void add_read() {
    const uint32_t nodes_before = graph_.nodes();
    for (const auto& pair : alignment_)
      if (pair.first >= 0) ld(node(static_cast<uint32_t>(pair.first)), kPerAddPair);
    const std::vector<uint32_t>& path = graph_.add(alignment_, data_.reads[read_]);
    for (size_t k = 0; k < path.size(); ++k) {
      if (path[k] >= nodes_before) st(node(path[k]), kPerNewNode);
      if (k == 0) continue;
      ld(node(path[k - 1]), kPerEdge);
      st(edge(static_cast<uint32_t>(graph_.find_edge(path[k - 1], path[k]))), 0);
    }
    if (!graph_.sort()) report_internal("poa: the graph has a cycle");
    const std::vector<uint32_t>& order = graph_.rank_to_node();
    const uint64_t cap = (arena_.scores - arena_.ranks) / 8;
    for (uint32_t r = 0; r < order.size(); ++r) {
      ld(node(order[r]), kPerSortNode);
      for (uint32_t e : graph_.node(order[r]).out) ld(edge(e), kPerSortEdge);
      st(arena_.ranks + uint64_t{r} * 4, 0);
      st(arena_.ranks + (cap + order[r]) * 4, 0);
    }
    ++read_;
  }

  // The profile, row 0 and column 0 of aligning read `read_`.
  void start() {
    aligner_.start(data_.reads[read_], graph_);
    const uint64_t w = aligner_.width();
    write_lines(arena_.profile, 4 * w * 4, 4, kPerInitCell);
    for (uint64_t m : {arena_.h, arena_.f, arena_.e}) write_lines(m, w * 4, 4, kPerInitCell);
    for (uint32_t r = 0; r < graph_.nodes(); ++r) {
      ld(node(graph_.rank_to_node()[r]), kPerColumnNode);
      const auto& preds = aligner_.predecessor_rows(r);
      if (preds[0] != 0)
        for (uint32_t p : preds) ld(cell(arena_.f, p, 0), 2);
      for (uint64_t m : {arena_.h, arena_.f, arena_.e}) st(cell(m, r + 1, 0), 0);
    }
  }

  // One DP row: per predecessor, per cell (per vector of `lanes` cells), its H and F loaded and the
  // row's F and H stored; then per cell (vector) E and H stored.
  void row() {
    aligner_.row(rank_);
    const uint32_t w = aligner_.width(), i = rank_ + 1, v = w_.lanes();
    const std::vector<uint32_t>& preds = aligner_.predecessor_rows(rank_);
    ld(node(graph_.rank_to_node()[rank_]), kPerRow + kPerRowPredecessor * static_cast<uint32_t>(preds.size()));
    for (uint32_t p : preds)
      for (uint32_t j = 1; j < w; j += v) {
        ld(cell(arena_.h, p, j), kCellPerPredecessor);
        ld(cell(arena_.f, p, j), 0);
        st(cell(arena_.f, i, j), 0);
        st(cell(arena_.h, i, j), 0);
      }
    for (uint32_t j = 1; j < w; j += v) {
      st(cell(arena_.e, i, j), update_);
      st(cell(arena_.h, i, j), 0);
    }
  }

  // The heaviest bundle: per node in rank order its in-edges and their tails' scores.
  void consensus() {
    const std::vector<uint32_t>& path = graph_.consensus_path();
    const std::vector<uint32_t>& order = graph_.rank_to_node();
    for (uint32_t r = 0; r < order.size(); ++r) {
      ld(node(order[r]), kPerConsensusNode);
      for (uint32_t e : graph_.node(order[r]).in) {
        ld(edge(e), kPerConsensusEdge);
        ld(arena_.scores + uint64_t{graph_.edge(e).tail} * 8, 0);
      }
      st(arena_.scores + uint64_t{order[r]} * 8, 0);
    }
    for (uint32_t n : path) ld(node(n), kPerConsensusNode);
  }

  const PoaWorkload w_;  // a copy: the parameters, nothing large
  const uint32_t update_ = kCellUpdate + kPrefixStep * (w_.lanes() >= 16 ? 4 : w_.lanes() >= 8 ? 3 : w_.lanes() / 2);
  PoaArena arena_;
  Share share_;
  uint64_t batch_;
  Phase phase_ = Phase::Batch;
  PoaBatch data_;
  PoaGraph graph_;
  PoaAligner aligner_;
  PoaAlignment alignment_;
  std::vector<uint64_t> visited_;
  uint32_t read_ = 0, rank_ = 0;
  std::vector<StreamOp> pending_;
  size_t head_ = 0;
};

// The arena's regions, page-aligned, in order; `nodes` and `width` bound the graph and a row.
struct Regions {
  uint64_t reads, profile, nodes, edges, ranks, scores, matrix;
  Regions(uint32_t window, uint32_t read_count, uint64_t node_count, uint64_t width)
      : reads(page_round(uint64_t{read_count} * poa_max_read(window))),
        profile(page_round(4 * width * 4)),
        nodes(page_round(node_count * PoaArena::kNodeBytes)),
        edges(page_round(node_count * PoaArena::kEdgeBytes)),
        ranks(page_round(node_count * 8)),
        scores(page_round(node_count * 12)),
        matrix(page_round((node_count + 1) * width * 4)) {}
  uint64_t bytes() const { return reads + profile + nodes + edges + ranks + scores + 3 * matrix; }
};

// Worst case: every base of every read a node, every read as long as it can be.
Regions worst(uint32_t window, uint32_t reads) {
  return Regions(window, reads, uint64_t{reads} * poa_max_read(window), poa_max_read(window) + 1);
}

}  // namespace

uint64_t PoaArena::stride(uint32_t window, uint32_t reads) { return worst(window, reads).bytes(); }

PoaArena::PoaArena(uint32_t window, uint32_t read_count, unsigned thread) {
  const Regions r = worst(window, read_count);
  ArrayAllocator a(kBase + uint64_t{thread} * r.bytes());
  reads = a.allocate(r.reads);
  profile = a.allocate(r.profile);
  nodes = a.allocate(r.nodes);
  edges = a.allocate(r.edges);
  ranks = a.allocate(r.ranks);
  scores = a.allocate(r.scores);
  matrix_bytes = r.matrix;
  h = a.allocate(r.matrix);
  f = a.allocate(r.matrix);
  e = a.allocate(r.matrix);
  begin = a.begin();
  end = a.end();
}

PoaWorkload::PoaWorkload(uint32_t window, uint32_t reads, double error_rate, uint64_t batches, unsigned lanes,
                         unsigned threads, uint64_t seed)
    : window_(window),
      reads_(reads),
      error_rate_(error_rate),
      batches_(batches),
      lanes_(lanes),
      threads_(threads),
      seed_(seed) {}

uint64_t PoaWorkload::batch_seed(uint64_t b) const { return thread_seed(seed_ ^ 0x706f61, static_cast<unsigned>(b)); }

uint64_t PoaWorkload::expected_bytes() const {
  const auto nodes = static_cast<uint64_t>(window_ * (1 + (reads_ - 1) * error_rate_));
  const Regions r(window_, reads_, nodes, window_ + 1);
  return r.bytes();
}

uint64_t PoaWorkload::footprint() const {
  // The worst-case arena is reserved, the expected part is touched (under 1 %: the rest).
  return expected_bytes() * threads_;
}

std::unique_ptr<ThreadStream> PoaWorkload::stream(unsigned t) const {
  // The initialisation: SPOA's matrices are zero-filled when allocated, by the aligning thread.
  const PoaArena arena(window_, reads_, t);
  const auto nodes = static_cast<uint64_t>(window_ * (1 + (reads_ - 1) * error_rate_));
  const uint64_t touched = std::min(arena.matrix_bytes, page_round((nodes + 1) * (window_ + 1) * 4));
  return std::make_unique<PoaStream>(*this, t, micro::FirstTouch({arena.h, arena.f, arena.e}, Share{0, touched / 8}));
}

namespace {

class PoaSpec : public WorkloadSpec {
 public:
  explicit PoaSpec(const ScopeContext& c) : WorkloadSpec(c) {}
  std::unique_ptr<Workload> create(unsigned threads, unsigned, uint64_t seed) const override {
    // Each thread's arena is reserved for the worst case; all of them must fit below 2^47.
    const uint64_t stride = PoaArena::stride(window_, reads_);
    if (stride > (kLimit - PoaArena::kBase) / threads)
      report_error(msg::kConfig, "poa: window " + std::to_string(window_.get()) + " and reads " +
                                     std::to_string(reads_.get()) + " reserve " +
                                     format_size(Size::from_bytes(stride)) + " per thread; " + std::to_string(threads) +
                                     " threads do not fit below 2^47 (reduce window or reads)");
    return std::make_unique<PoaWorkload>(window_, reads_, error_rate_, batches_, std::stoul(lanes_.get()), threads,
                                         seed);
  }

 private:
  Param<uint32_t> window_{*this, "window", 500u, "Bases of a batch's template (the reads are noisy copies of it)",
                          between(16u, 4096u)};
  Param<uint32_t> reads_{*this, "reads", 20u, "Reads per batch (the first becomes the graph, the others are aligned)",
                         between(2u, 256u)};
  Param<double> error_rate_{*this, "error_rate", 0.10,
                            "Probability that a read base is substituted, has a base inserted before it or is "
                            "deleted (a third each)",
                            between(0.0, 0.4)};
  Param<uint64_t> batches_{*this, "batches", uint64_t{1} << 20,
                           "Batches in all, shared statically by the threads (the run's --instructions usually "
                           "ends it first)",
                           between(uint64_t{1}, uint64_t{0xffffffff})};
  // GenomicsBench builds SPOA with -mavx2 (its Makefile's arch=avx2), so SPOA runs its SIMD engine.
  Param<std::string> lanes_{*this, "lanes", "8",
                            "int32 DP cells per vector operation: 1 SPOA's scalar engine, 4 SSE4.1, 8 AVX2 "
                            "(GenomicsBench's build), 16 AVX-512 (one load or store per vector, the instructions "
                            "of a scalar cell per vector)",
                            std::vector<std::string>{"1", "4", "8", "16"}};
};

}  // namespace
}  // namespace genomics

STARNUMA_REGISTER_WORKLOAD(genomics::PoaSpec, "poa",
                           "GenomicsBench poa: SPOA partial-order alignment of noisy read batches, per-thread arenas");

}  // namespace starnuma
