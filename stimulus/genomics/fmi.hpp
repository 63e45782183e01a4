// `fmi`: GenomicsBench's fmi kernel, BWA-MEM2's seeding. An FMD index (the FM-index of a genome
// and its reverse complement, searched in both directions) of a synthetic genome, and for each
// read the super-maximal exact matches (SMEMs) found by bidirectional extension as BWA-MEM's
// bwt_smem1 finds them, then BWA-MEM's re-seeding and LAST-like seeding rounds. The seeds are
// really computed; each thread's stream carries the occurrence-table lines every extension
// loads, its reads' bytes and the stores of its seeds to its output buffer.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "stimulus/stream.hpp"

namespace starnuma::genomics {

// Bases are 0..3 = A, C, G, T; the complement of b is 3 - b.

// `bases` seeded random bases in which about `repeat_fraction` of the genome are copies of earlier
// segments (100 to 4000 bases) with 2 % substitutions, so seeds have several hits as in real genomes.
std::vector<uint8_t> synthetic_genome(uint64_t bases, double repeat_fraction, uint64_t seed);

// The indexed text: the genome, its reverse complement, then '$'; symbols 0 = '$', 1..4 = A..T.
std::vector<uint8_t> fmd_text(const std::vector<uint8_t>& genome);

// A bidirectional interval: rows [k, k + s) of the suffix array start with the pattern P, rows
// [l, l + s) with its reverse complement (the text is its own reverse complement, so both hold s).
struct BiInterval {
  uint64_t k = 0, l = 0, s = 0;
  bool operator==(const BiInterval& o) const { return k == o.k && l == o.l && s == o.s; }
};

class FmdIndex {
 public:
  // BWA-MEM2's CP_OCC: one 64-byte line per 64 BWT positions holding the occurrences of each base
  // before the line and, per base, one bit per position that holds it ('$' holds none).
  struct OccLine {
    uint64_t count[4];
    uint64_t bits[4];
  };
  static constexpr unsigned kLineShift = 6;

  explicit FmdIndex(const std::vector<uint8_t>& genome);
  uint64_t length() const { return length_; }  // of the text: 2 x genome + 1
  uint64_t lines() const { return occ_.size(); }
  uint64_t sentinel_row() const { return sentinel_; }  // the BWT row holding '$'
  uint64_t occ(unsigned base, uint64_t i) const;       // occurrences of `base` in BWT[0, i)
  BiInterval base_interval(unsigned base) const;
  // out[b]: the interval of bP, from the two lines holding rows k and k + s (BWA-MEM2's backwardExt).
  void extend_backward(const BiInterval& in, BiInterval out[4]) const;
  BiInterval backward(const BiInterval& in, unsigned base) const;  // bP
  BiInterval forward(const BiInterval& in, unsigned base) const;   // Pb: rc(P)'s backward extension
  // The lines an extension of `in` loads (in the direction of k): k's and k + s's.
  static uint64_t first_line(const BiInterval& in) { return in.k >> kLineShift; }
  static uint64_t last_line(const BiInterval& in) { return (in.k + in.s) >> kLineShift; }

 private:
  std::vector<OccLine> occ_;
  std::array<uint64_t, 4> first_{};  // BWA's C array: rows before the first suffix starting with b
  uint64_t length_ = 0, sentinel_ = 0;
};

// A seed: read positions [start, end) match the text at the interval's rows.
struct Seed {
  uint32_t start = 0, end = 0;
  BiInterval interval;
  uint32_t length() const { return end - start; }
};

// What the seeding's memory operations are, for a thread's stream: each op carries the
// non-memory instructions charged since the previous one.
class OpRecorder {
 public:
  explicit OpRecorder(std::vector<StreamOp>& ops) : ops_(ops) {}
  void charge(uint32_t instructions) { pending_ += instructions; }
  void load(uint64_t address, bool dependent) { emit(StreamOp::Kind::Load, address, dependent); }
  void store(uint64_t address) { emit(StreamOp::Kind::Store, address, false); }

 private:
  void emit(StreamOp::Kind kind, uint64_t address, bool dependent) {
    ops_.push_back(StreamOp{kind, dependent, false, pending_, address});
    pending_ = 0;
  }
  std::vector<StreamOp>& ops_;
  uint32_t pending_ = 0;
};

// BWA-MEM's seeding on one read (bases 0..3). Tracing is optional: with a recorder, every
// extension loads its occurrence lines at `occ_base` and charges the cost model's instructions.
class SmemFinder {
 public:
  // BWA-MEM's defaults: -k 19, split_factor 1.5, split_width 10, max_mem_intv 20.
  static constexpr double kSplitFactor = 1.5;
  static constexpr uint64_t kSplitWidth = 10, kMaxMemIntv = 20;

  SmemFinder(const FmdIndex& index, unsigned min_seed_len) : index_(index), min_seed_len_(min_seed_len) {}
  void trace(OpRecorder* recorder, uint64_t occ_base) {
    recorder_ = recorder;
    occ_base_ = occ_base;
  }
  // bwt_smem1: appends the SMEMs containing x whose intervals hold at least `min_intv` rows, by
  // start; returns the end of the longest match starting at x (where the next search starts).
  uint32_t smem1(const uint8_t* read, uint32_t len, uint32_t x, uint64_t min_intv, std::vector<Seed>& out);
  // The first round: every SMEM of at least min_seed_len bases, by start.
  void smems(const uint8_t* read, uint32_t len, std::vector<Seed>& out);
  // The third round (bwt_seed_strategy1 from every position): the shortest forward match of
  // more than min_seed_len bases with fewer than kMaxMemIntv hits.
  void last_seeds(const uint8_t* read, uint32_t len, std::vector<Seed>& out);
  // The three rounds as GenomicsBench's fmi runs them: SMEMs, re-seeding from the middle of long
  // SMEMs with at most kSplitWidth hits, LAST-like seeds.
  void seed(const uint8_t* read, uint32_t len, std::vector<Seed>& out);
  uint64_t extensions() const { return extensions_; }

 private:
  BiInterval extend(const BiInterval& in, unsigned base, bool forward, uint32_t loop_cost);

  const FmdIndex& index_;
  unsigned min_seed_len_;
  OpRecorder* recorder_ = nullptr;
  uint64_t occ_base_ = 0, extensions_ = 0;
  std::vector<Seed> prev_, curr_, found_;
};

struct FmiConfig {
  uint64_t genome = uint64_t{1} << 24;
  double repeat_fraction = 0.2;
  uint32_t read_length = 151;
  uint64_t reads = uint64_t{1} << 20;
  double error_rate = 0.01;
  unsigned min_seed_len = 19;
};

class FmiWorkload : public Workload {
 public:
  static constexpr uint64_t kSmemBytes = 40;     // BWA-MEM2's SMEM record {rid, m, n, k, l, s}
  static constexpr uint64_t kSmemsPerRead = 20;  // GenomicsBench's output allocation per read
  FmiWorkload(const FmiConfig& config, unsigned threads, uint64_t seed);
  unsigned threads() const override { return threads_; }
  uint64_t footprint() const override { return end_ - occ_base_; }
  std::unique_ptr<ThreadStream> stream(unsigned thread) const override;
  bool initialises() const override { return true; }

  const FmiConfig& config() const { return config_; }
  const FmdIndex& index() const { return *index_; }
  const std::vector<uint8_t>& genome() const { return *genome_; }
  // Read r (0 <= r < reads): its bases, a uniformly placed window of either strand with
  // substitutions at error_rate.
  void read(uint64_t r, uint8_t* bases) const;
  uint64_t occ_base() const { return occ_base_; }
  uint64_t read_address(uint64_t r) const { return reads_base_ + r * config_.read_length; }
  uint64_t output_base(unsigned t) const { return output_base_[t]; }
  uint64_t output_slots(unsigned t) const { return output_slots_[t]; }

 private:
  FmiConfig config_;
  unsigned threads_;
  uint64_t seed_;
  std::shared_ptr<const std::vector<uint8_t>> genome_;
  std::shared_ptr<const FmdIndex> index_;
  uint64_t occ_base_ = 0, reads_base_ = 0, end_ = 0;
  std::vector<uint64_t> output_base_, output_slots_;
};

}  // namespace starnuma::genomics
