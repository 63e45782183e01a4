// The fmi workload (stimulus/genomics/): the suffix array against a naive sort, backward and
// forward search against naive occurrence counts, the SMEMs against a brute-force search of the
// text, and the streams' addresses, first touches, determinism and parameter errors.
#include <algorithm>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "harness/expect_report.hpp"
#include "stimulus/genomics/fmi.hpp"
#include "stimulus/genomics/suffix_array.hpp"
#include "stimulus/layout.hpp"
#include "stimulus/stream_capture.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {
namespace {

using genomics::BiInterval;
using genomics::FmdIndex;
using genomics::Seed;

std::vector<uint32_t> naive_suffix_array(const std::vector<uint8_t>& t) {
  std::vector<uint32_t> sa(t.size());
  for (uint32_t i = 0; i < sa.size(); ++i) sa[i] = i;
  std::sort(sa.begin(), sa.end(), [&](uint32_t a, uint32_t b) {
    return std::lexicographical_compare(t.begin() + a, t.end(), t.begin() + b, t.end());
  });
  return sa;
}

// The genome and its reverse complement as bases 0..3: what the index covers.
std::vector<uint8_t> both_strands(const std::vector<uint8_t>& g) {
  std::vector<uint8_t> t(g);
  for (size_t i = g.size(); i-- > 0;) t.push_back(static_cast<uint8_t>(3 - g[i]));
  return t;
}

uint64_t naive_count(const std::vector<uint8_t>& text, const std::vector<uint8_t>& p) {
  uint64_t n = 0;
  for (size_t i = 0; i + p.size() <= text.size(); ++i) n += std::equal(p.begin(), p.end(), text.begin() + i);
  return n;
}

std::vector<uint8_t> reverse_complement(std::vector<uint8_t> p) {
  std::reverse(p.begin(), p.end());
  for (uint8_t& b : p) b = static_cast<uint8_t>(3 - b);
  return p;
}

TEST(FmiSuffixArray, IsTheSortedPermutation) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const size_t n = 1 + rng() % 400;
    const unsigned alphabet = 2 + static_cast<unsigned>(rng() % 4);
    std::vector<uint8_t> t(n);
    for (size_t i = 0; i < n; ++i)  // periodic texts recurse deeply, random ones rarely
      t[i] = static_cast<uint8_t>(1 + (trial % 2 ? rng() % (alphabet - 1) : (i % 7 == 0) % (alphabet - 1)));
    t.back() = 0;
    const auto sa = genomics::suffix_array(t, alphabet);
    ASSERT_EQ(sa, naive_suffix_array(t)) << "trial " << trial;
    std::vector<uint32_t> sorted(sa);
    std::sort(sorted.begin(), sorted.end());
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(sorted[i], i);
  }
  const auto text = genomics::fmd_text(genomics::synthetic_genome(3000, 0.3, 5));
  EXPECT_EQ(genomics::suffix_array(text, 5), naive_suffix_array(text));
  EXPECT_THROW(genomics::suffix_array({1, 2, 1}, 3), std::invalid_argument);  // no sentinel
}

TEST(FmiIndex, SearchIntervalsAreTheNaiveOccurrences) {
  const auto genome = genomics::synthetic_genome(5000, 0.3, 3);
  const auto text = both_strands(genome);
  const FmdIndex index(genome);
  const auto sa = naive_suffix_array(genomics::fmd_text(genome));
  ASSERT_EQ(index.length(), sa.size());
  EXPECT_EQ(sa[index.sentinel_row()], 0u);
  // The occurrence lines: occ equals a count over the BWT.
  const auto full = genomics::fmd_text(genome);
  std::array<uint64_t, 4> count{};
  for (uint64_t i = 0; i <= sa.size(); ++i) {
    for (unsigned b = 0; b < 4; ++b) ASSERT_EQ(index.occ(b, i), count[b]) << "row " << i;
    if (i < sa.size() && sa[i] > 0) ++count[full[sa[i] - 1] - 1];
  }
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 400; ++trial) {
    const size_t len = 1 + rng() % 14;
    std::vector<uint8_t> p(len);
    if (trial % 2) {
      for (uint8_t& b : p) b = static_cast<uint8_t>(rng() % 4);
    } else {
      const size_t at = rng() % (text.size() - len);
      std::copy_n(text.begin() + static_cast<std::ptrdiff_t>(at), len, p.begin());
    }
    // Backward search (right to left) and forward search (left to right) give one interval.
    BiInterval back = index.base_interval(p.back()), fwd = index.base_interval(p.front());
    for (size_t i = len - 1; i-- > 0;) back = index.backward(back, p[i]);
    for (size_t i = 1; i < len; ++i) fwd = index.forward(fwd, p[i]);
    const uint64_t expected = naive_count(text, p);
    ASSERT_EQ(back.s, expected) << "trial " << trial;
    ASSERT_EQ(fwd, back) << "trial " << trial;
    // k's rows start with P, l's with its reverse complement.
    const auto rc = reverse_complement(p);
    for (uint64_t r = 0; r < back.s; ++r) {
      for (size_t i = 0; i < len; ++i) {
        ASSERT_EQ(full[sa[back.k + r] + i], p[i] + 1);
        ASSERT_EQ(full[sa[back.l + r] + i], rc[i] + 1);
      }
    }
  }
}

// Brute force: e(a), the end of the longest match of the read starting at a, by scanning the
// text; [a, e(a)) is an SMEM when no match starting earlier reaches e(a).
std::vector<std::pair<uint32_t, uint32_t>> brute_force_smems(const std::vector<uint8_t>& text,
                                                             const std::vector<uint8_t>& read, unsigned min_len) {
  std::vector<std::pair<uint32_t, uint32_t>> smems;
  uint32_t reach = 0;
  for (uint32_t a = 0; a < read.size(); ++a) {
    uint32_t longest = 0;
    for (size_t i = 0; i < text.size(); ++i) {
      uint32_t m = 0;
      while (a + m < read.size() && i + m < text.size() && text[i + m] == read[a + m]) ++m;
      longest = std::max(longest, m);
    }
    const uint32_t end = a + longest;
    if (end > reach && longest >= min_len) smems.emplace_back(a, end);
    reach = std::max(reach, end);
  }
  return smems;
}

TEST(FmiSeeding, SmemsAreTheBruteForceOnes) {
  for (unsigned min_len : {1u, 12u, 19u}) {
    auto w =
        make_workload("fmi:genome=3000,repeat_fraction=0.4,reads=40,error_rate=0.04,read_length=100,min_seed_len=" +
                          std::to_string(min_len),
                      1, 1, 9);
    const auto& f = dynamic_cast<const genomics::FmiWorkload&>(*w);
    const auto text = both_strands(f.genome());
    genomics::SmemFinder finder(f.index(), min_len);
    size_t total = 0;
    for (uint64_t r = 0; r < 40; ++r) {
      std::vector<uint8_t> read(100);
      f.read(r, read.data());
      std::vector<Seed> smems;
      finder.smems(read.data(), 100, smems);
      const auto expected = brute_force_smems(text, read, min_len);
      ASSERT_EQ(smems.size(), expected.size()) << "read " << r << " min " << min_len;
      for (size_t i = 0; i < smems.size(); ++i) {
        ASSERT_EQ(std::make_pair(smems[i].start, smems[i].end), expected[i]) << "read " << r << " smem " << i;
        const std::vector<uint8_t> match(read.begin() + smems[i].start, read.begin() + smems[i].end);
        ASSERT_EQ(smems[i].interval.s, naive_count(text, match));
      }
      total += smems.size();
    }
    EXPECT_GT(total, 40u) << "min " << min_len;
  }
}

TEST(FmiSeeding, ReseedingAndLastSeedsFollowBwaRules) {
  auto w = make_workload("fmi:genome=20000,repeat_fraction=0.5,reads=30", 1, 1, 4);
  const auto& f = dynamic_cast<const genomics::FmiWorkload&>(*w);
  const auto text = both_strands(f.genome());
  genomics::SmemFinder finder(f.index(), 19);
  std::vector<uint8_t> read(151);
  size_t extra = 0;
  for (uint64_t r = 0; r < 30; ++r) {
    f.read(r, read.data());
    std::vector<Seed> first, all;
    finder.smems(read.data(), 151, first);
    finder.seed(read.data(), 151, all);
    ASSERT_GE(all.size(), first.size());
    for (size_t i = 0; i < first.size(); ++i) ASSERT_EQ(all[i].start, first[i].start);
    for (size_t i = first.size(); i < all.size(); ++i) {  // every extra seed is a real match
      const std::vector<uint8_t> match(read.begin() + all[i].start, read.begin() + all[i].end);
      ASSERT_GE(all[i].length(), 19u);
      ASSERT_EQ(all[i].interval.s, naive_count(text, match));
      ASSERT_GT(all[i].interval.s, 0u);
    }
    extra += all.size() - first.size();
  }
  EXPECT_GT(extra, 30u);
}

// ---- streams ---------------------------------------------------------------------------------

bool same(const std::vector<StreamOp>& a, const std::vector<StreamOp>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const StreamOp& x, const StreamOp& y) {
    return x.kind == y.kind && x.address == y.address && x.instructions == y.instructions &&
           x.dependent == y.dependent && x.starts_measurement == y.starts_measurement;
  });
}

TEST(FmiWorkload, StreamsTouchOnlyTheIndexReadsAndOwnOutput) {
  const unsigned threads = 4;
  auto w = make_workload("fmi:genome=65536,reads=64", threads, 2, 1);
  const auto& f = dynamic_cast<const genomics::FmiWorkload&>(*w);
  const uint64_t occ_bytes = f.index().lines() * 64, read_bytes = 64 * 151;
  EXPECT_EQ(f.occ_base(), uint64_t{1} << 44);
  EXPECT_GE(f.footprint(), occ_bytes + read_bytes);
  for (unsigned t = 0; t < threads; ++t) {
    const auto ops = all_ops(*w, t, 7);
    const Share share = static_share(64, t, threads);
    std::set<uint64_t> index_pages;
    size_t barrier = 0, occ_loads = 0, stores = 0;
    for (size_t i = 0; i < ops.size(); ++i) {
      const StreamOp& op = ops[i];
      const uint64_t a = op.address;
      const bool in_occ = a >= f.occ_base() && a < f.occ_base() + occ_bytes;
      const bool in_reads = a >= f.read_address(0) && a < f.read_address(64);
      if (op.kind == StreamOp::Kind::Barrier) {
        ASSERT_EQ(barrier, 0u) << "one barrier";
        ASSERT_TRUE(op.starts_measurement);
        barrier = i;
        continue;
      }
      ASSERT_LT(a, uint64_t{1} << 47);
      if (barrier == 0) {  // initialisation: thread 0 loads the index; each thread its reads
        ASSERT_EQ(op.kind, StreamOp::Kind::Store);
        if (in_occ) {
          ASSERT_EQ(t, 0u);
          index_pages.insert(a / 4096);
        } else {
          ASSERT_TRUE(in_reads);
          ASSERT_GE(a + 8, f.read_address(share.begin));
          ASSERT_LT(a, f.read_address(share.end));
        }
      } else if (op.kind == StreamOp::Kind::Load) {
        ASSERT_TRUE(in_occ || (a >= f.read_address(share.begin) && a < f.read_address(share.end)));
        ASSERT_EQ(a % 64 == 0, in_occ || a % 64 == 0);
        occ_loads += in_occ;
      } else {
        ++stores;
        ASSERT_GE(a, f.output_base(t));
        ASSERT_LT(a, f.output_base(t) + f.output_slots(t) * genomics::FmiWorkload::kSmemBytes);
      }
    }
    ASSERT_GT(barrier, 0u);
    if (t == 0) {
      EXPECT_EQ(index_pages.size(), (occ_bytes + 4095) / 4096) << "the index is loaded by thread 0";
    }
    // The seeds recomputed without tracing: one record store (two across a line) each.
    genomics::SmemFinder finder(f.index(), 19);
    std::vector<Seed> seeds;
    std::vector<uint8_t> read(151);
    for (uint64_t r = share.begin; r < share.end; ++r) {
      f.read(r, read.data());
      finder.seed(read.data(), 151, seeds);
    }
    EXPECT_GE(stores, seeds.size());
    EXPECT_LE(stores, 2 * seeds.size());
    EXPECT_GE(occ_loads, finder.extensions());
    EXPECT_LE(occ_loads, 2 * finder.extensions());
  }
}

TEST(FmiWorkload, DeterministicAndSeeded) {
  auto a = make_workload("fmi:genome=32768,reads=32", 2, 1, 5);
  auto b = make_workload("fmi:genome=32768,reads=32", 2, 1, 5);
  auto c = make_workload("fmi:genome=32768,reads=32", 2, 1, 6);
  for (unsigned t = 0; t < 2; ++t) {
    const auto ops = all_ops(*a, t, 1000);
    EXPECT_TRUE(same(ops, all_ops(*b, t, 13))) << "same seed, other batch size";
    EXPECT_TRUE(same(ops, all_ops(*a, t, 4096))) << "a second stream of one workload";
    EXPECT_FALSE(same(ops, all_ops(*c, t, 1000))) << "another seed";
  }
  EXPECT_NE(genomics::synthetic_genome(4096, 0.2, 1), genomics::synthetic_genome(4096, 0.2, 2));
}

TEST(FmiWorkload, ParameterErrors) {
  testing::expect_config_errors(
      {
          {"fmi:read_length=20", "fmi.read_length: value 20 is out of range"},
          {"fmi:genome=4096,read_length=50,min_seed_len=60", "min_seed_len 60 is longer than the reads"},
          {"fmi:genome=1099511627776", "fmi.genome: value 1099511627776 is out of range"},
          {"fmi:error_rate=0.9", "fmi.error_rate: value 0.9 is out of range"},
          {"fmi:reads=0", "fmi.reads: value 0 is out of range"},
      },
      [](const std::string& text) { make_workload(text, 4, 2, 1); });
}

}  // namespace
}  // namespace starnuma
