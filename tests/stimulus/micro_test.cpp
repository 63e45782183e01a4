// The micro-benchmarks (stimulus/micro/): each kernel's functional check computed from the
// emitted stream, determinism, footprints, first-touch ownership, bounded memory, bad parameters.
#include "stimulus/micro/micro.hpp"

#include <malloc.h>

#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

#include <gtest/gtest.h>

#include "harness/expect_report.hpp"
#include "stimulus/stream_capture.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {
namespace {

bool in_range(uint64_t a, uint64_t base, uint64_t bytes) { return a >= base && a < base + bytes; }

// ---- stream --------------------------------------------------------------------------------

// Runs the streams on real arrays (threads one after another between barriers, as their loops
// touch disjoint elements) and checks STREAM's validation: every element has the value the
// scalar recurrence gives after the iterations.
void check_stream_validation(const std::string& text) {
  auto w = make_workload(text, 4, 2, 1);
  const auto& s = dynamic_cast<const micro::StreamWorkload&>(*w);
  const uint64_t n = s.elements();
  std::array<std::vector<double>, 3> arrays;
  for (auto& a : arrays) a.assign(n, NAN);
  auto locate = [&](uint64_t address) {
    for (int x = 0; x < 3; ++x)
      if (in_range(address, s.array(static_cast<micro::StreamKernel::Array>(x)), n * 8))
        return std::pair<int, uint64_t>(x, (address - s.array(static_cast<micro::StreamKernel::Array>(x))) / 8);
    ADD_FAILURE() << "address outside the arrays";
    return std::pair<int, uint64_t>(0, 0);
  };
  const Phases p = phases(*w);
  // Initialisation (a = 1, b = 2, c = 0): a thread's store to a page stands for its stores to its
  // elements of the page.
  for (unsigned t = 0; t < w->threads(); ++t) {
    const Share share = static_share(n, t, w->threads());
    for (const StreamOp& op : p[0][t]) {
      ASSERT_EQ(op.kind, StreamOp::Kind::Store);
      auto [x, j] = locate(op.address);
      for (uint64_t e = j; e < std::min(share.end, (j / 512 + 1) * 512); ++e)
        arrays[static_cast<size_t>(x)][e] = x == 0 ? 1.0 : x == 1 ? 2.0 : 0.0;
    }
  }
  ASSERT_EQ(p.size(), 2 + s.iterations() * s.kernels().size());  // init, every loop, nothing after the last
  for (size_t phase = 1; phase + 1 < p.size(); ++phase) {
    const micro::StreamKernel& k = s.kernels()[(phase - 1) % s.kernels().size()];
    uint64_t stores = 0;
    for (const auto& thread : p[phase]) {
      std::vector<std::pair<int, uint64_t>> loaded;
      for (const StreamOp& op : thread) {
        auto [x, j] = locate(op.address);
        if (op.kind == StreamOp::Kind::Load) {
          loaded.emplace_back(x, j);
          continue;
        }
        ++stores;
        ASSERT_EQ(x, k.dst);
        ASSERT_EQ(loaded.size(), k.src2 == micro::StreamKernel::None ? 1u : 2u);
        ASSERT_EQ(loaded[0], std::make_pair(static_cast<int>(k.src1), j));
        const double v1 = arrays[k.src1][j];
        const double v2 = loaded.size() == 2 ? arrays[k.src2][j] : 0.0;
        if (loaded.size() == 2) {
          ASSERT_EQ(loaded[1], std::make_pair(static_cast<int>(k.src2), j));
        }
        const double scalar = micro::kStreamScalar;
        arrays[k.dst][j] = k.dst == micro::StreamKernel::C   ? (k.src2 == micro::StreamKernel::None ? v1 : v1 + v2)
                           : k.dst == micro::StreamKernel::B ? scalar * v1
                                                             : v1 + scalar * v2;
        loaded.clear();
      }
    }
    EXPECT_EQ(stores, n) << "every element is written once per loop";
  }
  // STREAM's checkSTREAMresults: the same recurrence on scalars, average relative error < 1e-13.
  double aj = 1.0, bj = 2.0, cj = 0.0;
  for (unsigned i = 0; i < s.iterations(); ++i) {
    if (s.kernels().size() == 4) {
      cj = aj;
      bj = micro::kStreamScalar * cj;
      cj = aj + bj;
    }
    aj = bj + micro::kStreamScalar * cj;
  }
  const double expected[3] = {aj, bj, cj};
  for (int x = 0; x < 3; ++x) {
    double error = 0;
    for (double v : arrays[static_cast<size_t>(x)]) error += std::abs(v - expected[x]);
    const double scale = expected[x] == 0 ? 1 : std::abs(expected[x]);
    EXPECT_LT(error / static_cast<double>(n) / scale, 1e-13) << text << " array " << x;
  }
}

TEST(MicroStream, TriadPassesStreamValidation) { check_stream_validation("stream:elements=3001,iterations=3"); }
TEST(MicroStream, AllFourKernelsPassStreamValidation) {
  check_stream_validation("stream:elements=2000,iterations=4,kernels=all");
}

// ---- gups ----------------------------------------------------------------------------------

TEST(MicroGups, JumpAheadIsTheGeneratorsNthValue) {
  uint64_t ran = 1;
  for (uint64_t n = 0; n < 300; ++n, ran = micro::hpcc_next(ran)) EXPECT_EQ(micro::hpcc_starts(n), ran) << n;
  EXPECT_EQ(micro::hpcc_starts(64), 7u);  // x^64 = x^2 + x + 1 modulo the polynomial
  const uint64_t far = 123456789012345ull;
  ran = micro::hpcc_starts(far);
  for (uint64_t k = 0; k < 100; ++k, ran = micro::hpcc_next(ran)) ASSERT_EQ(micro::hpcc_starts(far + k), ran);
}

TEST(MicroGups, UpdatesFollowTheReferenceSequenceAndUndoThemselves) {
  auto w = make_workload("gups:log2_size=12,updates_per_word=4", 3, 1, 1);
  const auto& g = dynamic_cast<const micro::GupsWorkload&>(*w);
  ASSERT_EQ(g.updates(), 4u * 4096);
  const Phases p = phases(*w);
  ASSERT_EQ(p.size(), 2u);  // initialisation, the updates
  // The threads' updates, in thread order, are the sequential run's: HPCC's sequence from 1.
  std::vector<uint64_t> index;
  uint64_t ran = 1;
  for (const auto& thread : p[1]) {
    ASSERT_EQ(thread.size() % 2, 0u);
    for (size_t i = 0; i < thread.size(); i += 2) {
      ran = micro::hpcc_next(ran);
      EXPECT_EQ(thread[i].kind, StreamOp::Kind::Load);
      EXPECT_EQ(thread[i + 1].kind, StreamOp::Kind::Store);
      EXPECT_FALSE(thread[i + 1].dependent);  // its data depends on the load, not its address
      EXPECT_EQ(thread[i].address, thread[i + 1].address);
      ASSERT_EQ(thread[i].address, g.table() + (ran & (g.words() - 1)) * 8);
      index.push_back((thread[i].address - g.table()) / 8);
    }
  }
  ASSERT_EQ(index.size(), g.updates());
  // HPCC's verification: the same updates applied again restore table[i] = i.
  std::vector<uint64_t> table(g.words());
  for (uint64_t i = 0; i < table.size(); ++i) table[i] = i;
  auto apply = [&] {
    uint64_t r = 1;
    for (uint64_t k : index) table[k] ^= (r = micro::hpcc_next(r));
  };
  apply();
  uint64_t changed = 0;
  for (uint64_t i = 0; i < table.size(); ++i) changed += table[i] != i;
  EXPECT_GT(changed, table.size() / 2);
  apply();
  for (uint64_t i = 0; i < table.size(); ++i) ASSERT_EQ(table[i], i) << "word " << i;
}

// ---- vecsum --------------------------------------------------------------------------------

void check_vecsum(const std::string& text, unsigned threads, unsigned sockets, unsigned summers) {
  auto w = make_workload(text, threads, sockets, 1);
  const auto& v = dynamic_cast<const micro::VecsumWorkload&>(*w);
  EXPECT_EQ(v.summers(), summers);
  const Phases p = phases(*w);
  ASSERT_EQ(p.size(), 2 + v.repeats());  // initialisation, the passes, nothing after
  for (size_t pass = 1; pass <= v.repeats(); ++pass) {
    uint64_t sum = 0, loads = 0;
    for (unsigned t = 0; t < threads; ++t) {
      if (t >= summers) {
        EXPECT_TRUE(p[pass][t].empty()) << "thread " << t << " does not sum";
      }
      for (const StreamOp& op : p[pass][t]) {
        ASSERT_EQ(op.kind, StreamOp::Kind::Load);
        ASSERT_TRUE(in_range(op.address, v.vector(), v.elements() * 8));
        sum += micro::VecsumWorkload::value((op.address - v.vector()) / 8);
        ++loads;
      }
    }
    EXPECT_EQ(loads, v.elements());
    EXPECT_EQ(sum, micro::VecsumWorkload::expected_sum(v.elements())) << "pass " << pass;
  }
}

TEST(MicroVecsum, TheFirstSocketSumsTheVectorToTheClosedForm) {
  check_vecsum("vecsum:size=1MiB,repeats=3", 8, 2, 4);
  check_vecsum("vecsum:size=40KiB,repeats=2", 6, 4, 2);  // threads 0, 1 on socket 0 (6 * s / 4)
}
TEST(MicroVecsum, AllThreadsSumTheirOwnParts) {
  check_vecsum("vecsum:size=1MiB,repeats=2,summers=all", 8, 2, 8);
  auto w = make_workload("vecsum:size=64KiB,repeats=1,summers=all", 4, 4, 1);
  const Phases p = phases(*w);
  for (unsigned t = 0; t < 4; ++t) {  // a thread sums exactly the pages it initialised
    std::set<uint64_t> init, summed;
    for (const StreamOp& op : p[0][t]) init.insert(op.address / 4096);
    for (const StreamOp& op : p[1][t]) summed.insert(op.address / 4096);
    EXPECT_EQ(init, summed);
  }
}

// ---- kv ------------------------------------------------------------------------------------

TEST(MicroKv, TheTableHoldsEveryKeyOnceAndGetsReturnTheLastValuePut) {
  const unsigned threads = 3;
  auto w = make_workload("kv:keys=5000,load_factor=0.7,operations=4000", threads, 1, 9);
  const auto& kv = dynamic_cast<const micro::KvWorkload&>(*w);
  const micro::KvTable& table = kv.table();
  EXPECT_EQ(table.capacity(), 8192u);
  std::vector<int> seen(table.keys());
  for (uint64_t s = 0; s < table.capacity(); ++s)
    if (table.at(s) != micro::KvTable::kEmpty) ++seen.at(table.at(s));
  for (uint64_t k = 0; k < table.keys(); ++k) ASSERT_EQ(seen[k], 1) << "key " << k;

  // The probe path of a key, found by comparing keys from its home slot on.
  auto probe = [&](uint64_t key) {
    std::vector<uint64_t> path{table.home(key)};
    while (table.at(path.back()) != key) path.push_back((path.back() + 1) % table.capacity());
    return path;
  };
  const Phases p = phases(*w);
  ASSERT_EQ(p.size(), 2u);
  std::vector<uint64_t> value(table.capacity());  // the simulated program's values
  std::unordered_map<uint64_t, uint64_t> last;    // the reference: the last value of each key
  for (uint64_t key = 0; key < table.keys(); ++key)
    value[probe(key).back()] = last[key] = micro::KvWorkload::loaded_value(key);
  // The load: each page of slots is first touched by the thread whose insertion (rounds of one
  // per thread) reaches it first, at that slot.
  std::map<uint64_t, std::pair<unsigned, uint64_t>> first;  // page -> thread, slot
  for (uint64_t r = 0; r * threads < table.keys() + threads; ++r)
    for (unsigned t = 0; t < threads; ++t) {
      const Share share = static_share(table.keys(), t, threads);
      if (share.begin + r >= share.end) continue;
      const uint64_t slot = probe(share.begin + r).back();
      first.emplace(slot * 16 / 4096, std::make_pair(t, slot));
    }
  size_t touched = 0;
  for (unsigned t = 0; t < threads; ++t)
    for (const StreamOp& op : p[0][t]) {
      ASSERT_EQ(op.kind, StreamOp::Kind::Store);
      const auto& [thread, slot] = first.at((op.address - kv.slot_address(0)) / 4096);
      EXPECT_EQ(thread, t);
      EXPECT_EQ(op.address, kv.slot_address(slot));
      ++touched;
    }
  EXPECT_EQ(touched, first.size());
  uint64_t gets = 0, puts = 0;
  for (unsigned t = 0; t < threads; ++t) {  // the requests, one thread after another
    micro::KvRequests requests = kv.requests(t);
    size_t at = 0;
    for (int i = 0; i < 4000; ++i) {
      const micro::KvRequest r = requests.next();
      const std::vector<uint64_t> path = probe(r.key);
      for (uint64_t s : path) {
        ASSERT_EQ(p[1][t].at(at).kind, StreamOp::Kind::Load);
        ASSERT_EQ(p[1][t].at(at++).address, kv.slot_address(s));
      }
      if (r.put) {
        ASSERT_EQ(p[1][t].at(at).kind, StreamOp::Kind::Store);
        ASSERT_EQ(p[1][t].at(at++).address, kv.slot_address(path.back()) + 8);
        value[path.back()] = last[r.key] = r.value;
        ++puts;
      } else {
        ASSERT_EQ(value[path.back()], last.at(r.key)) << "get of key " << r.key;
        ++gets;
      }
    }
    EXPECT_EQ(at, p[1][t].size());
  }
  EXPECT_NEAR(static_cast<double>(gets) / (gets + puts), 0.5, 0.02);
}

TEST(MicroKv, ReadFractionAndSeedShapeTheRequests) {
  auto reads_only = make_workload("kv:keys=1000,read_fraction=1,operations=1000", 2, 1, 3);
  const Phases p = phases(*reads_only);
  for (const auto& thread : p[1])
    for (const StreamOp& op : thread) EXPECT_EQ(op.kind, StreamOp::Kind::Load);
  // Another seed: other keys, so another table layout.
  auto a = make_workload("kv:keys=1000", 1, 1, 3), b = make_workload("kv:keys=1000", 1, 1, 4);
  std::vector<uint64_t> x, y;
  for (const StreamOp& op : all_ops(*a, 0, 1000, 3000)) x.push_back(op.address);
  for (const StreamOp& op : all_ops(*b, 0, 1000, 3000)) y.push_back(op.address);
  EXPECT_NE(x, y);
}

// ---- every workload ------------------------------------------------------------------------

const std::vector<std::string> kSmall = {"stream:elements=5000,iterations=2", "gups:log2_size=13",
                                         "vecsum:size=256KiB,repeats=2", "kv:keys=3000,operations=2000"};

TEST(Micro, SameSeedSameStreamWhateverTheBatchSize) {
  for (const std::string& text : kSmall) {
    auto a = make_workload(text, 4, 2, 17), b = make_workload(text, 4, 2, 17);
    for (unsigned t : {0u, 3u}) {
      const auto x = all_ops(*a, t, 1000), y = all_ops(*b, t, 3);
      ASSERT_EQ(x.size(), y.size()) << text;
      for (size_t i = 0; i < x.size(); ++i) {
        ASSERT_EQ(x[i].address, y[i].address) << text << " op " << i;
        ASSERT_EQ(x[i].kind, y[i].kind);
        ASSERT_EQ(x[i].instructions, y[i].instructions);
        ASSERT_EQ(x[i].dependent, y[i].dependent);
      }
      EXPECT_EQ(a->stream(t)->fill(nullptr, 0), 0u);
    }
  }
}

TEST(Micro, FootprintsCoverEveryAddress) {
  struct Case {
    std::string text;
    uint64_t footprint;
  };
  const std::vector<Case> cases = {{"stream:elements=5000,iterations=1", 3 * 40960},  // 40000 B each, page-rounded
                                   {"gups:log2_size=13", 8192 * 8},
                                   {"vecsum:size=256KiB,repeats=1", 256 * 1024},
                                   {"kv:keys=3000,operations=2000", 8192 * 16}};  // 3000 / 0.5 -> 8192 slots
  for (const Case& c : cases) {
    auto w = make_workload(c.text, 3, 1, 2);
    EXPECT_EQ(w->footprint(), c.footprint) << c.text;
    EXPECT_TRUE(w->initialises());
    uint64_t lo = ~0ull, hi = 0;
    for (unsigned t = 0; t < 3; ++t)
      for (const StreamOp& op : all_ops(*w, t))
        if (op.kind != StreamOp::Kind::Barrier) {
          lo = std::min(lo, op.address);
          hi = std::max(hi, op.address);
        }
    EXPECT_LT(hi - lo, c.footprint) << c.text;
  }
}

TEST(Micro, EachThreadFirstTouchesItsOwnShare) {
  // stream, gups and vecsum: a thread's initialisation stores fall in its static share, and
  // together they touch every page of every array once.
  for (const std::string& text : {kSmall[0], kSmall[1], kSmall[2]}) {
    auto w = make_workload(text, 5, 5, 1);
    // The arrays: their bases and length in elements.
    std::vector<uint64_t> bases;
    uint64_t elements = 0;
    if (auto* s = dynamic_cast<const micro::StreamWorkload*>(w.get())) {
      bases = {s->array(micro::StreamKernel::A), s->array(micro::StreamKernel::B), s->array(micro::StreamKernel::C)};
      elements = s->elements();
    } else if (auto* g = dynamic_cast<const micro::GupsWorkload*>(w.get())) {
      bases = {g->table()};
      elements = g->words();
    } else {
      auto& v = dynamic_cast<const micro::VecsumWorkload&>(*w);
      bases = {v.vector()};
      elements = v.elements();
    }
    const Phases p = phases(*w);
    std::set<uint64_t> pages;
    for (unsigned t = 0; t < 5; ++t) {
      const Share share = static_share(elements, t, 5);
      std::set<uint64_t> mine;  // a page at a share boundary is touched by both threads
      for (const StreamOp& op : p[0][t]) {
        ASSERT_EQ(op.kind, StreamOp::Kind::Store);
        EXPECT_TRUE(mine.insert(op.address / 4096).second) << "one store per page";
        pages.insert(op.address / 4096);
        uint64_t base = 0;
        for (uint64_t b : bases)
          if (in_range(op.address, b, elements * 8)) base = b;
        ASSERT_NE(base, 0u) << text;
        const uint64_t index = (op.address - base) / 8;
        EXPECT_TRUE(index >= share.begin && index < share.end) << text << " thread " << t;
      }
    }
    EXPECT_EQ(pages.size(), bases.size() * ((elements * 8 + 4095) / 4096)) << text;
  }
  // kv: the load's first touches go to the slots of the thread's own keys.
  auto w = make_workload(kSmall[3], 5, 5, 1);
  const auto& kv = dynamic_cast<const micro::KvWorkload&>(*w);
  const Phases p = phases(*w);
  for (unsigned t = 0; t < 5; ++t) {
    const Share share = static_share(kv.table().keys(), t, 5);
    for (const StreamOp& op : p[0][t])
      if (op.kind == StreamOp::Kind::Store) {
        const uint32_t key = kv.table().at((op.address - kv.slot_address(0)) / 16);
        EXPECT_TRUE(key >= share.begin && key < share.end);
      }
  }
}

// Bytes the heap holds (small blocks and mmap'd ones).
size_t heap_in_use() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

TEST(Micro, HugeParametersDoNotAllocateBeforeStreaming) {
  const std::vector<std::string> huge = {"stream:elements=68719476736,iterations=1000000",
                                         "gups:log2_size=40,updates_per_word=1024", "vecsum:size=4TiB,repeats=1000000",
                                         "kv:keys=1000,operations=1125899906842624"};
  for (const std::string& text : huge) {
    const size_t before = heap_in_use();
    auto w = make_workload(text, 64, 16, 1);
    std::vector<std::unique_ptr<ThreadStream>> streams;
    for (unsigned t = 0; t < 64; ++t) streams.push_back(w->stream(t));
    StreamOp ops[256];
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(streams[7]->fill(ops, 256), 256u) << text;
    EXPECT_LT(heap_in_use() - before, size_t{1} << 20) << text;
  }
}

TEST(Micro, BadParametersAreClearErrors) {
  testing::expect_config_errors(
      {
          {"stream:elements=10", "stream.elements: value 10 is out of range [512, 68719476736]"},
          {"stream:kernels=copy", "'copy' is not one of triad, all"},
          {"stream:iteration=3", "unknown key 'iteration' (did you mean 'iterations'?)"},
          {"gups:log2_size=41", "gups.log2_size: value 41 is out of range [9, 40]"},
          {"gups:updates_per_word=0", "value 0 is out of range [1, 1024]"},
          {"vecsum:size=4100B", "vecsum: size 4100B is not a whole number of 8-byte elements"},
          {"vecsum:summers=some", "'some' is not one of socket, all"},
          {"kv:read_fraction=1.5", "kv.read_fraction: value 1.5 is out of range [0, 1]"},
          {"kv:keys=268435456,load_factor=0.05", "need 8589934592 slots; at most 536870912 are supported"},
      },
      [](const std::string& text) { make_workload(text, 4, 2, 1); });
}

}  // namespace
}  // namespace starnuma
