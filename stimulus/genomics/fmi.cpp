// `fmi`: GenomicsBench's fmi kernel (BWA-MEM2's seeding), really executed. The index is built
// here (SA-IS suffix array, BWT, BWA-MEM2's occurrence lines) instead of loaded from a file; the
// suffix array is then dropped: looking seeds up in it is BWA's next step, not this kernel's.
// Each thread seeds its static share of the reads, one read at a time: the read's three rounds
// run on the host and record the stream's operations for that read, which fill() then hands out,
// so a stream holds one read's operations at a time.
#include "stimulus/genomics/fmi.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <sys/mman.h>

#include "stimulus/genomics/suffix_array.hpp"
#include "stimulus/layout.hpp"
#include "stimulus/micro/micro.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {

namespace genomics {

namespace {

constexpr uint64_t kFmiBase = uint64_t{1} << 44;
__extension__ typedef unsigned __int128 u128;

// Instruction cost model (non-memory instructions; each traced load or store is one more).
// extend_backward (BWA-MEM2's backwardExt with GET_OCC) as gcc -O2 -mpopcnt compiles it: 112
// dynamic instructions: 24 to form the two line addresses and offset masks, 17 per base (the two
// lines' count and bit words, two ands, two popcnts, adds, the k and s stores), 20 for the
// sentinel test, the four l's prefix sums and the return. The traced line loads are 2 of them;
// the other loads hit those lines.
constexpr uint32_t kPerExtension = 110;
// The seeding loops around an extension (bwt_smem1): a forward step reads the next base,
// complements it, swaps k and l, compares the new size and pushes the old interval; a backward
// step does the same per interval of the previous list, with its skip-contained-match test.
constexpr uint32_t kForwardStep = 12, kBackwardStep = 16;
// A bwt_smem1 call: initial interval from the C array, list reversal and swaps, the return.
constexpr uint32_t kPerSmemCall = 40;
// Per read: GenomicsBench's per-read set-up in the batch (min_intv and rid arrays, the read's
// offset), and the split_len test per first-round SMEM.
constexpr uint32_t kPerRead = 30, kPerReseedTest = 6;
// Per seed: filling the 40-byte SMEM record (rid, m, n, k, l, s: the stores beyond the traced
// one hit the same line), and sortSMEMs' share per seed (a small per-read sort by position).
constexpr uint32_t kPerSeedRecord = 8, kPerSeedSort = 20;

uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// splitmix64 draws.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next() { return mix(state_ += 0x9e3779b97f4a7c15ull); }
  uint64_t below(uint64_t n) { return static_cast<uint64_t>((u128{next()} * n) >> 64); }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

// Without -mpopcnt, gcc's builtin is a library call; the bit-parallel count is inline and as exact.
inline uint64_t popcount(uint64_t x) {
#ifdef __POPCNT__
  return static_cast<uint64_t>(__builtin_popcountll(x));
#else
  x -= (x >> 1) & 0x5555555555555555ull;
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return (x * 0x0101010101010101ull) >> 56;
#endif
}

void advise_huge_pages(void* data, size_t bytes) {
#ifdef MADV_HUGEPAGE
  constexpr uintptr_t kHuge = uintptr_t{1} << 21;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(kHuge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);  // a hint only
#endif
}

void make_read(const std::vector<uint8_t>& genome, const FmiConfig& c, uint64_t seed, uint64_t r, uint8_t* bases) {
  Random rng(mix(seed ^ 0x666d69) + r * 0x9e3779b97f4a7c15ull);
  const uint64_t at = rng.below(genome.size() - c.read_length + 1);
  const bool reverse = rng.next() & 1;
  for (uint32_t i = 0; i < c.read_length; ++i) {
    uint8_t b = reverse ? 3 - genome[at + c.read_length - 1 - i] : genome[at + i];
    if (rng.unit() < c.error_rate) b = static_cast<uint8_t>((b + 1 + rng.below(3)) & 3);
    bases[i] = b;
  }
}

}  // namespace

std::vector<uint8_t> synthetic_genome(uint64_t bases, double repeat_fraction, uint64_t seed) {
  Random rng(mix(seed ^ 0x67656e6f6d65));
  std::vector<uint8_t> g;
  g.reserve(bases);
  constexpr uint64_t kMinSegment = 100, kMaxSegment = 4000;
  constexpr double kRepeatDivergence = 0.02;
  while (g.size() < bases) {
    const uint64_t length = std::min(bases - g.size(), kMinSegment + rng.below(kMaxSegment - kMinSegment + 1));
    // A segment is a repeat with the probability that makes repeats `repeat_fraction` of the bases.
    if (g.size() >= length && rng.unit() < repeat_fraction) {
      const uint64_t from = rng.below(g.size() - length + 1);
      for (uint64_t i = 0; i < length; ++i) {
        uint8_t b = g[from + i];
        if (rng.unit() < kRepeatDivergence) b = static_cast<uint8_t>((b + 1 + rng.below(3)) & 3);
        g.push_back(b);
      }
    } else {
      for (uint64_t i = 0; i < length; ++i) g.push_back(static_cast<uint8_t>(rng.next() & 3));
    }
  }
  return g;
}

std::vector<uint8_t> fmd_text(const std::vector<uint8_t>& genome) {
  std::vector<uint8_t> text;
  text.reserve(2 * genome.size() + 1);
  for (uint8_t b : genome) text.push_back(static_cast<uint8_t>(b + 1));
  for (size_t i = genome.size(); i-- > 0;) text.push_back(static_cast<uint8_t>(3 - genome[i] + 1));
  text.push_back(0);
  return text;
}

// ---- the FMD index ---------------------------------------------------------------------------

FmdIndex::FmdIndex(const std::vector<uint8_t>& genome) {
  std::vector<uint32_t> sa;
  {
    const std::vector<uint8_t> text = fmd_text(genome);
    sa = suffix_array(text, 5);
    // The BWT in place of the suffix array: BWT[i] = text[SA[i] - 1] ('$' where SA[i] = 0).
    for (uint32_t& v : sa) v = v == 0 ? 0 : text[v - 1];
  }
  length_ = sa.size();
  // Every extension loads two random lines: huge pages spare the host a TLB miss on each.
  occ_.reserve((length_ >> kLineShift) + 1);
  advise_huge_pages(occ_.data(), occ_.capacity() * sizeof(OccLine));
  occ_.assign((length_ >> kLineShift) + 1, OccLine{});
  std::array<uint64_t, 4> count{};
  for (uint64_t i = 0; i < length_; ++i) {
    OccLine& line = occ_[i >> kLineShift];
    if ((i & (kLineBytes - 1)) == 0)
      for (unsigned b = 0; b < 4; ++b) line.count[b] = count[b];
    if (sa[i] == 0) {
      sentinel_ = i;
      continue;
    }
    const unsigned b = sa[i] - 1;
    line.bits[b] |= uint64_t{1} << (i & (kLineBytes - 1));
    ++count[b];
  }
  if ((length_ & (kLineBytes - 1)) == 0)
    for (unsigned b = 0; b < 4; ++b) occ_.back().count[b] = count[b];
  uint64_t before = 1;  // '$' sorts first
  for (unsigned b = 0; b < 4; ++b) {
    first_[b] = before;
    before += count[b];
  }
}

uint64_t FmdIndex::occ(unsigned base, uint64_t i) const {
  const OccLine& line = occ_[i >> kLineShift];
  return line.count[base] + popcount(line.bits[base] & ((uint64_t{1} << (i & (kLineBytes - 1))) - 1));
}

BiInterval FmdIndex::base_interval(unsigned base) const {
  const uint64_t s = (base == 3 ? length_ : first_[base + 1]) - first_[base];
  return BiInterval{first_[base], first_[3 - base], s};
}

void FmdIndex::extend_backward(const BiInterval& in, BiInterval out[4]) const {
  const OccLine& a = occ_[in.k >> kLineShift];
  const OccLine& b = occ_[(in.k + in.s) >> kLineShift];
  const uint64_t mask_a = (uint64_t{1} << (in.k & (kLineBytes - 1))) - 1;
  const uint64_t mask_b = (uint64_t{1} << ((in.k + in.s) & (kLineBytes - 1))) - 1;
  for (unsigned c = 0; c < 4; ++c) {
    const uint64_t from = a.count[c] + popcount(a.bits[c] & mask_a);
    const uint64_t to = b.count[c] + popcount(b.bits[c] & mask_b);
    out[c].k = first_[c] + from;
    out[c].s = to - from;
  }
  // The reverse complement's rows: rc(P) followed by '$' (P begins the text), then by
  // rc(T), rc(G), rc(C), rc(A), i.e. in the order of the extensions T, G, C, A.
  out[3].l = in.l + (sentinel_ >= in.k && sentinel_ < in.k + in.s);
  out[2].l = out[3].l + out[3].s;
  out[1].l = out[2].l + out[2].s;
  out[0].l = out[1].l + out[1].s;
}

BiInterval FmdIndex::backward(const BiInterval& in, unsigned base) const {
  BiInterval out[4];
  extend_backward(in, out);
  return out[base];
}

BiInterval FmdIndex::forward(const BiInterval& in, unsigned base) const {
  BiInterval out[4];
  extend_backward(BiInterval{in.l, in.k, in.s}, out);
  const BiInterval& r = out[3 - base];
  return BiInterval{r.l, r.k, r.s};
}

// ---- seeding ---------------------------------------------------------------------------------

BiInterval SmemFinder::extend(const BiInterval& in, unsigned base, bool forward, uint32_t loop_cost) {
  ++extensions_;
  const BiInterval from = forward ? BiInterval{in.l, in.k, in.s} : in;
  if (recorder_) {
    // The first line's address comes from the previous extension's counts; the second line is
    // loaded beside it.
    recorder_->charge(loop_cost + kPerExtension);
    const uint64_t first = FmdIndex::first_line(from), last = FmdIndex::last_line(from);
    recorder_->load(occ_base_ + first * kLineBytes, true);
    if (last != first) recorder_->load(occ_base_ + last * kLineBytes, false);
  }
  BiInterval out[4];
  index_.extend_backward(from, out);
  if (!forward) return out[base];
  const BiInterval& r = out[3 - base];
  return BiInterval{r.l, r.k, r.s};
}

uint32_t SmemFinder::smem1(const uint8_t* read, uint32_t len, uint32_t x, uint64_t min_intv, std::vector<Seed>& out) {
  min_intv = std::max<uint64_t>(min_intv, 1);
  if (recorder_) recorder_->charge(kPerSmemCall);
  // Forward from x: the intervals where the match's hit count drops, longest match last.
  curr_.clear();
  Seed ik{x, x + 1, index_.base_interval(read[x])};
  uint32_t i = x + 1;
  for (; i < len; ++i) {
    const BiInterval ok = extend(ik.interval, read[i], true, kForwardStep);
    if (ok.s != ik.interval.s) {
      curr_.push_back(ik);
      if (ok.s < min_intv) break;
    }
    ik.interval = ok;
    ik.end = i + 1;
  }
  if (i == len) curr_.push_back(ik);
  std::reverse(curr_.begin(), curr_.end());  // longest (fewest hits) first
  const uint32_t next = curr_.front().end;
  std::swap(prev_, curr_);
  // Backward: extend every match to the left; a match that can go no further is an SMEM unless
  // a longer one reached this start.
  const size_t first = out.size();
  for (int64_t at = static_cast<int64_t>(x) - 1; at >= -1; --at) {
    curr_.clear();
    for (const Seed& p : prev_) {
      BiInterval ok;
      if (at >= 0) ok = extend(p.interval, read[at], false, kBackwardStep);
      if (at < 0 || ok.s < min_intv) {
        const auto start = static_cast<uint32_t>(at + 1);
        if (curr_.empty() && (out.size() == first || start < out.back().start))
          out.push_back(Seed{start, p.end, p.interval});
      } else if (curr_.empty() || ok.s != curr_.back().interval.s) {
        curr_.push_back(Seed{static_cast<uint32_t>(at), p.end, ok});
      }
    }
    if (curr_.empty()) break;
    std::swap(prev_, curr_);
  }
  std::reverse(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
  return next;
}

void SmemFinder::smems(const uint8_t* read, uint32_t len, std::vector<Seed>& out) {
  for (uint32_t x = 0; x < len;) {
    found_.clear();
    x = smem1(read, len, x, 1, found_);
    for (const Seed& s : found_)
      if (s.length() >= min_seed_len_) out.push_back(s);
  }
}

void SmemFinder::last_seeds(const uint8_t* read, uint32_t len, std::vector<Seed>& out) {
  for (uint32_t x = 0; x < len;) {
    if (recorder_) recorder_->charge(kPerSmemCall);
    BiInterval ik = index_.base_interval(read[x]);
    uint32_t i = x + 1;
    for (; i < len; ++i) {
      ik = extend(ik, read[i], true, kForwardStep);
      if (ik.s < kMaxMemIntv && i - x >= min_seed_len_) break;
    }
    if (i == len) break;
    if (ik.s > 0) out.push_back(Seed{x, i + 1, ik});
    x = i + 1;
  }
}

void SmemFinder::seed(const uint8_t* read, uint32_t len, std::vector<Seed>& out) {
  const size_t first = out.size();
  smems(read, len, out);
  const size_t smems_end = out.size();
  const auto split_len = static_cast<uint32_t>(min_seed_len_ * kSplitFactor + .499);
  for (size_t j = first; j < smems_end; ++j) {
    if (recorder_) recorder_->charge(kPerReseedTest);
    const Seed p = out[j];
    if (p.length() < split_len || p.interval.s > kSplitWidth) continue;
    found_.clear();
    smem1(read, len, (p.start + p.end) / 2, p.interval.s + 1, found_);
    for (const Seed& s : found_)
      if (s.length() >= min_seed_len_) out.push_back(s);
  }
  last_seeds(read, len, out);
}

// ---- the workload ----------------------------------------------------------------------------

namespace {

// Thread t's stream: its first touches (the whole index for thread 0, which loads it; its share
// of the reads), the barrier, then its reads one at a time, each recorded into `ops_` and handed
// out from there.
class FmiStream : public ThreadStream {
 public:
  FmiStream(const FmiWorkload& w, std::shared_ptr<const std::vector<uint8_t>> genome,
            std::shared_ptr<const FmdIndex> index, unsigned t, uint64_t seed)
      : genome_(std::move(genome)),
        index_(std::move(index)),
        config_(w.config()),
        seed_(seed),
        share_(static_share(config_.reads, t, w.threads())),
        next_read_(share_.begin),
        occ_base_(w.occ_base()),
        reads_base_(w.read_address(0)),
        output_base_(w.output_base(t)),
        output_slots_(w.output_slots(t)),
        recorder_(ops_),
        finder_(*index_, config_.min_seed_len),
        bases_(config_.read_length) {
    finder_.trace(&recorder_, occ_base_);
    if (t == 0) index_touch_ = micro::FirstTouch({occ_base_}, Share{0, index_->lines() * kLineBytes / 8});
    const uint64_t bytes_begin = share_.begin * config_.read_length, bytes_end = share_.end * config_.read_length;
    read_touch_ = micro::FirstTouch({reads_base_}, Share{bytes_begin / 8, (bytes_end + 7) / 8});
  }

  size_t fill(StreamOp* out, size_t max) override {
    size_t n = 0;
    while (n < max) {
      if (head_ == ops_.size() && !refill()) break;
      const size_t k = std::min(max - n, ops_.size() - head_);
      std::copy_n(ops_.begin() + static_cast<std::ptrdiff_t>(head_), k, out + n);
      head_ += k;
      n += k;
    }
    return n;
  }

 private:
  static constexpr size_t kInitChunk = 4096;

  bool refill() {
    ops_.clear();
    head_ = 0;
    if (!initialised_) {
      StreamOp op;
      while (ops_.size() < kInitChunk && (index_touch_.next(op) || read_touch_.next(op))) ops_.push_back(op);
      if (ops_.empty()) {
        ops_.push_back(StreamOp{StreamOp::Kind::Barrier, false, true, 0, 1});
        initialised_ = true;
      }
      return true;
    }
    if (next_read_ == share_.end) return false;
    seed_read(next_read_++);
    return true;
  }

  void seed_read(uint64_t r) {
    make_read(*genome_, config_, seed_, r, bases_.data());
    recorder_.charge(kPerRead);
    const uint64_t at = reads_base_ + r * config_.read_length;
    for (uint64_t line = at / kLineBytes; line <= (at + config_.read_length - 1) / kLineBytes; ++line)
      recorder_.load(std::max(at, line * kLineBytes), false);
    seeds_.clear();
    finder_.seed(bases_.data(), config_.read_length, seeds_);
    for (size_t i = 0; i < seeds_.size(); ++i) {
      const uint64_t record = output_base_ + (next_slot_++ % output_slots_) * FmiWorkload::kSmemBytes;
      recorder_.charge(kPerSeedRecord);
      recorder_.store(record);
      const uint64_t last = record + FmiWorkload::kSmemBytes - 1;
      if (last / kLineBytes != record / kLineBytes) recorder_.store(last / kLineBytes * kLineBytes);
    }
    recorder_.charge(kPerSeedSort * static_cast<uint32_t>(seeds_.size()));
  }

  std::shared_ptr<const std::vector<uint8_t>> genome_;
  std::shared_ptr<const FmdIndex> index_;
  FmiConfig config_;
  uint64_t seed_;
  Share share_;
  uint64_t next_read_, occ_base_, reads_base_, output_base_, output_slots_, next_slot_ = 0;
  micro::FirstTouch index_touch_, read_touch_;
  bool initialised_ = false;
  std::vector<StreamOp> ops_;
  size_t head_ = 0;
  OpRecorder recorder_;
  SmemFinder finder_;
  std::vector<uint8_t> bases_;
  std::vector<Seed> seeds_;
};

}  // namespace

FmiWorkload::FmiWorkload(const FmiConfig& config, unsigned threads, uint64_t seed)
    : config_(config),
      threads_(threads),
      seed_(seed),
      genome_(
          std::make_shared<const std::vector<uint8_t>>(synthetic_genome(config.genome, config.repeat_fraction, seed))),
      index_(std::make_shared<const FmdIndex>(*genome_)) {
  ArrayAllocator layout(kFmiBase);
  occ_base_ = layout.allocate(index_->lines() * kLineBytes);
  reads_base_ = layout.allocate(config_.reads * config_.read_length);
  for (unsigned t = 0; t < threads_; ++t) {
    // GenomicsBench's per-thread matchArray: 20 SMEMs per read of the thread's quota.
    output_slots_.push_back(std::max<uint64_t>(1, static_share(config_.reads, t, threads_).size() * kSmemsPerRead));
    output_base_.push_back(layout.allocate(output_slots_.back() * kSmemBytes));
  }
  end_ = layout.end();
}

void FmiWorkload::read(uint64_t r, uint8_t* bases) const { make_read(*genome_, config_, seed_, r, bases); }

std::unique_ptr<ThreadStream> FmiWorkload::stream(unsigned t) const {
  return std::make_unique<FmiStream>(*this, genome_, index_, t, seed_);
}

namespace {

class FmiSpec : public WorkloadSpec {
 public:
  explicit FmiSpec(const ScopeContext& c) : WorkloadSpec(c) {}
  std::unique_ptr<Workload> create(unsigned threads, unsigned, uint64_t seed) const override {
    // (The ranges keep reads shorter than the genome: at most 1000 bases against at least 1024.)
    if (min_seed_len_ > read_length_)
      report_error(msg::kConfig, "fmi: min_seed_len " + std::to_string(min_seed_len_.get()) +
                                     " is longer than the reads (read_length " + std::to_string(read_length_.get()) +
                                     ")");
    FmiConfig c;
    c.genome = genome_;
    c.repeat_fraction = repeat_fraction_;
    c.read_length = read_length_;
    c.reads = reads_;
    c.error_rate = error_rate_;
    c.min_seed_len = min_seed_len_;
    return std::make_unique<FmiWorkload>(c, threads, seed);
  }

 private:
  // The index build's peak is about 6 host bytes per text symbol (text, suffix array, types,
  // then the occurrence lines): 2^28 bases, a text of 2^29, take about 3.5 GiB.
  Param<uint64_t> genome_{*this, "genome", uint64_t{1} << 24,
                          "Bases of the synthetic reference genome (the index covers both strands: 2 bytes a base)",
                          between(uint64_t{1} << 10, uint64_t{1} << 28)};
  Param<double> repeat_fraction_{*this, "repeat_fraction", 0.2,
                                 "Fraction of the genome made of mutated copies of earlier segments",
                                 between(0.0, 0.9)};
  Param<uint32_t> read_length_{*this, "read_length", 151u, "Bases per read (Illumina's 151 in GenomicsBench)",
                               between(32u, 1000u)};
  Param<uint64_t> reads_{*this, "reads", uint64_t{1} << 20,
                         "Reads, shared statically among the threads (the run's --instructions usually ends first)",
                         between(uint64_t{1}, uint64_t{1} << 26)};
  Param<double> error_rate_{*this, "error_rate", 0.01, "Substitution rate of the reads against the genome",
                            between(0.0, 0.25)};
  Param<uint32_t> min_seed_len_{*this, "min_seed_len", 19u, "Shortest SMEM kept (BWA-MEM's -k)", between(1u, 1000u)};
};

}  // namespace
}  // namespace genomics

STARNUMA_REGISTER_WORKLOAD(
    genomics::FmiSpec, "fmi",
    "GenomicsBench's fmi: BWA-MEM2's SMEM seeding of reads on an FMD index of a synthetic genome");

}  // namespace starnuma
