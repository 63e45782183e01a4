// The functional pass paced by time (checkpoint --pace time; docs/sampling.md, "Paced by time"):
// each thread's clock is its instructions at full width plus its LLC misses' unloaded latencies,
// and a thread runs only while its clock is behind the common horizon.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <unistd.h>

#include "coherence/coherence.hpp"
#include "fabric/fabric.hpp"
#include "platform/platform.hpp"
#include "run/functional_pass.hpp"
#include "run/run_setup.hpp"
#include "run/time_pace.hpp"
#include "socket/socket.hpp"

namespace starnuma {
namespace {

namespace fs = std::filesystem;

const std::string kPlatform = std::string(STARNUMA_SOURCE_DIR) + "/platforms/starnuma16-scaled.yaml";

// What the pass's LLCs answer: a load from the home's memory, or from `supplier`'s LLC.
FunctionalLlcs::Outcome supplied_by(int supplier = -1) {
  FunctionalLlcs::Outcome o;
  o.supplier = supplier;
  return o;
}

TEST(TimePace, ClocksInstructionsAtFullWidthAndMissesAtTheirHomesUnloadedLatency) {
  auto p = Platform::build(kPlatform, {});
  const Fabric& fabric = p->fabric();
  const std::vector<ThreadPlace> threads = place_threads(fabric);
  TimePace pace(fabric, threads, 1000);
  const Socket& s0 = *fabric.requesters()[0];
  const unsigned width = s0.core_config().width;
  pace.retire(0, 4000ull * width);
  EXPECT_NEAR(pace.cycles(0), 4000, 0.1);  // an instruction's share of a cycle, to the femtosecond
  EXPECT_EQ(pace.cycles(1), 0);

  const double cycle_ps = 1e12 / s0.frequency().hz();
  const double lookups = s0.core_config().l1d.latency() + s0.core_config().l2.latency() + s0.llc_config().latency();
  // A miss costs its home's unloaded read from thread 0's socket: the pool's more than socket 0's own.
  double before = pace.cycles(0), local = 0, far = 0;
  for (size_t r = 0; r < fabric.address_map().size(); ++r) {
    const Fabric::Range& range = fabric.address_map()[r];
    pace.access(0, (range.base + range.size / 2) >> 6, 6, false, supplied_by());
    const double cost = pace.cycles(0) - before;
    before = pace.cycles(0);
    EXPECT_NEAR(cost, lookups + static_cast<double>(fabric.unloaded_latency(0, r).ps()) / cycle_ps, 0.01) << range.name;
    if (range.name == "socket0") local = cost;
    far = std::max(far, cost);
  }
  EXPECT_GT(local, lookups);
  EXPECT_GT(far, 1.5 * local);
}

// Socket 0's first thread on the scaled StarNUMA machine, paced with the coherent protocol: what
// each access adds to its clock, against what the clock should add (the lookups and a latency).
struct Socket0Clock {
  std::unique_ptr<Platform> p = Platform::build(kPlatform, {});
  const Fabric& fabric = p->fabric();
  const Coherence& coherence = p->coherence();
  const std::vector<ThreadPlace> threads = place_threads(fabric);
  TimePace pace{fabric, threads, 1000, &coherence};
  const Socket& s0 = *fabric.requesters()[0];
  const double cycle_ps = 1e12 / s0.frequency().hz();
  const double lookups = s0.core_config().l1d.latency() + s0.core_config().l2.latency() + s0.llc_config().latency();
  double before = 0;

  size_t range(const std::string& name) const {
    const auto& map = fabric.address_map();
    const auto it = std::find_if(map.begin(), map.end(), [&](const Fabric::Range& r) { return r.name == name; });
    EXPECT_NE(it, map.end()) << name;
    return static_cast<size_t>(it - map.begin());
  }
  uint64_t line(size_t range) const {
    const Fabric::Range& r = fabric.address_map()[range];
    return (r.base + r.size / 2) >> 6;
  }
  double cost(size_t range, bool store, const FunctionalLlcs::Outcome& out) {
    pace.access(0, line(range), 6, store, out);
    const double c = pace.cycles(0) - before;
    before = pace.cycles(0);
    return c;
  }
  double expected(Time latency) const { return lookups + static_cast<double>(latency.ps()) / cycle_ps; }
};

// A line another socket's LLC supplies costs the protocol's unloaded block transfer (as a timed
// core's unloaded latency counts it), whatever its home's memory would have cost; without the
// protocol (LLCs not coherent) the pass names no supplier and the clock reads the home.
TEST(TimePace, ClocksALineItsOwnerSuppliesAtTheUnloadedBlockTransfer) {
  Socket0Clock c;
  const size_t local = c.range("socket0"), pool = c.range("pool");
  // Socket 0's own line held M by socket 9 (another chassis): three ways across the fabric.
  const double forwarded = c.cost(local, false, supplied_by(9));
  EXPECT_NEAR(forwarded, c.expected(c.coherence.unloaded_bt_socket(0, 0, 9)), 0.01);
  EXPECT_GT(forwarded, 3 * c.cost(local, false, supplied_by())) << "far more than the local read";
  EXPECT_NEAR(c.cost(pool, false, supplied_by(5)), c.expected(c.coherence.unloaded_bt_pool(0, pool, 5)), 0.01);
  TimePace without(c.fabric, c.threads, 1000);  // not coherent: the home's read, whatever is named
  without.access(0, c.line(local), 6, false, supplied_by(9));
  EXPECT_NEAR(without.cycles(0), c.expected(c.fabric.unloaded_latency(0, local)), 0.01);
}

// A store that invalidates sharers is answered no sooner than their acks (Coherence::invalidate:
// the home's snoop to each, its ack to the requester), and a store to a line its LLC holds shared
// waits for the home's grant, without data; both as the protocol's unloaded figures.
TEST(TimePace, ClocksAStoreAtItsInvalidationsAcksAndAnUpgradeAtItsGrant) {
  Socket0Clock c;
  const size_t local = c.range("socket0"), pool = c.range("pool");
  const auto home = [&](size_t range) { return c.fabric.address_map()[range].first_home; };
  const double read = c.cost(local, false, supplied_by());
  FunctionalLlcs::Outcome shared = supplied_by();
  shared.invalidated = uint64_t{1} << 9;  // socket 9, another chassis, held it shared
  const double store = c.cost(local, true, shared);
  EXPECT_NEAR(store, c.expected(c.coherence.unloaded_acks(0, home(local), shared.invalidated)), 0.01);
  EXPECT_GT(store, 3 * read) << "the acks cross the fabric twice; the local read does not";
  // Several sharers: the latest ack, as the protocol's figure for the set (the clock takes it from
  // a table of single sharers), for a socket's home and the pool's.
  for (const size_t range : {local, pool}) {
    FunctionalLlcs::Outcome many = supplied_by();
    many.invalidated = (uint64_t{1} << 3) | (uint64_t{1} << 9) | (uint64_t{1} << 14);
    const double expected = std::max(c.expected(c.coherence.unloaded_acks(0, home(range), many.invalidated)),
                                     c.expected(c.fabric.unloaded_latency(0, range)));
    EXPECT_NEAR(c.cost(range, true, many), expected, 0.01) << range;
  }
  FunctionalLlcs::Outcome upgrade = supplied_by();
  upgrade.upgrade = true;
  EXPECT_NEAR(c.cost(pool, true, upgrade), c.expected(c.coherence.unloaded_grant(0, home(pool))), 0.01);
  EXPECT_EQ(c.pace.waiting_cycles(0), 0) << "one thread alone saturates nothing";
}

// Each message of a transaction busies the link directions it crosses: two stores of socket 0 to
// a line of socket 13 send two lines back over each link of the way (34.5 ns each on a scaled
// NUMALink), under a stretch's worth; invalidating 14 sharers each adds 24 snoops to the other
// chassis on socket 13's link to its FLEX ASIC, which overflow it, and the stores wait.
TEST(TimePace, BooksEachMessageOfTheProtocolOnTheLinksItCrosses) {
  auto p = Platform::build(kPlatform, {});
  const Fabric& fabric = p->fabric();
  const Coherence& coherence = p->coherence();
  const std::vector<ThreadPlace> threads = place_threads(fabric);
  const auto& map = fabric.address_map();
  const auto socket13 =
      std::find_if(map.begin(), map.end(), [](const Fabric::Range& r) { return r.name == "socket13"; });
  ASSERT_NE(socket13, map.end());
  const auto waited = [&](uint64_t sharers) {
    TimePace pace(fabric, threads, 1000, &coherence);
    FunctionalLlcs::Outcome out = supplied_by();
    out.invalidated = sharers;
    double sum = 0;
    for (size_t t = 0; t < 2; ++t) {
      EXPECT_EQ(threads[t].socket, 0u);
      pace.access(t, socket13->base >> 6, 6, true, out);
      sum += pace.waiting_cycles(t);
    }
    return sum;
  };
  EXPECT_EQ(waited(0), 0) << "two lines fit a stretch";
  const uint64_t others = 0xffff & ~(uint64_t{1} << 0) & ~(uint64_t{1} << 13);
  EXPECT_GT(waited(others), 0) << "the snoops fill socket 13's link";
}

// A stretch of 100 ns takes requests in any order until full; then they move to the next one with
// room, and wait from their time to where its booked work ends. A long request spills over.
TEST(TimePace, StretchesBookBusyTimeAndWaitOnlyWhenFull) {
  constexpr uint64_t ns = 1000000;  // femtoseconds
  static_assert(TimePace::kStretchNs == 100);
  TimePace::Stretches s;
  EXPECT_EQ(s.book(90 * ns, 10 * ns), 0u);
  for (int k = 0; k < 9; ++k) EXPECT_EQ(s.book(50 * ns, 10 * ns), 0u) << "out of time order, room left";
  EXPECT_EQ(s.book(20 * ns, 10 * ns), 80 * ns) << "full: the next stretch, from its start";
  EXPECT_EQ(s.book(20 * ns, 250 * ns), 90 * ns) << "after the 10 ns booked there";
  EXPECT_EQ(s.book(150 * ns, 10 * ns), 210 * ns) << "behind the spilled request, to 360 ns";
  EXPECT_EQ(s.book(450 * ns, 10 * ns), 0u);
}

// Misses made at once queue where a server is saturated: 60 threads' misses to socket 15's memory
// at the same instant overflow a stretch of its UPI link (about 21.5 ns a line at the scaled
// 2.97 GB/s). A tracker's queue stalls its core only beyond its depth.
TEST(TimePace, CountsSaturatedServersAndAFullTrackerQueue) {
  auto p = Platform::build(kPlatform, {});
  const Fabric& fabric = p->fabric();
  const std::vector<ThreadPlace> threads = place_threads(fabric);
  TimePace pace(fabric, threads, 1000);
  const auto& map = fabric.address_map();
  const auto socket15 =
      std::find_if(map.begin(), map.end(), [](const Fabric::Range& r) { return r.name == "socket15"; });
  ASSERT_NE(socket15, map.end());
  const Fabric::Range& far = map.back();
  double least = 1e300, most = 0;
  for (size_t t = 0; t < threads.size(); ++t) {
    if (threads[t].socket == 15) continue;
    pace.access(t, socket15->base >> 6, 6, false, supplied_by());
    least = std::min(least, pace.waiting_cycles(t));
    most = std::max(most, pace.waiting_cycles(t));
  }
  const double stretch_cycles = TimePace::kStretchNs * 1e-9 * fabric.requesters()[0]->frequency().hz();
  EXPECT_EQ(least, 0);
  EXPECT_GT(most, 0.5 * stretch_cycles) << "some wait for a later stretch";
  // The manifest's `busiest` names it: socket 15's link out to its FLEX ASIC, a line for each of the
  // 48 misses from the other chassis (sockets 12-14 reach socket 15 over their own UPI links).
  const std::vector<TimePace::Busy> busiest = pace.busiest(0.5);
  ASSERT_FALSE(busiest.empty());
  EXPECT_EQ(busiest.front().server, "links.upi_socket15_flex7: socket15->flex7");
  EXPECT_EQ(busiest.front().messages, 48u);
  EXPECT_GT(busiest.front().utilization, 0.5);
  EXPECT_LE(busiest.front().utilization, 1.0);
  EXPECT_GT(busiest.front().mean_wait_ns, 0);
  for (size_t k = 1; k < busiest.size(); ++k) EXPECT_LE(busiest[k].utilization, busiest[k - 1].utilization);

  const Socket& s1 = *fabric.requesters()[1];
  const double service = s1.tracking().issue_cycles() + 2.0 * s1.llc_config().latency() + s1.tracking().modify_cycles();
  const size_t t = 4;  // socket 1's first thread, no miss yet
  ASSERT_EQ(threads[t].socket, 1u);
  pace.tracker_update(t, far.base >> 6, 6, true, true);
  EXPECT_EQ(pace.waiting_cycles(t), 0);
  // Updates back to back: the core runs ahead of its tracker by the queue's depth, then at its pace.
  constexpr int kUpdates = 40;
  for (int k = 1; k < kUpdates; ++k) pace.tracker_update(t, far.base >> 6, 6, true, true);
  const double expected = (kUpdates - 1 - s1.tracking().queue_depth()) * service;
  EXPECT_NEAR(pace.waiting_cycles(t), expected, stretch_cycles);
}

TEST(TimePace, RunsOnlyThreadsBehindTheHorizonAndReleasesABarrierAtItsLastArrival) {
  auto p = Platform::build(kPlatform, {});
  const std::vector<ThreadPlace> threads = place_threads(p->fabric());
  TimePace pace(p->fabric(), threads, 100);
  const unsigned width = p->fabric().requesters()[0]->core_config().width;
  const auto all = [](size_t) { return true; };
  EXPECT_TRUE(pace.behind(0));
  pace.retire(0, 150ull * width);  // past the horizon (100 cycles)
  EXPECT_FALSE(pace.behind(0));
  pace.after_round(all);  // the others are still behind: the horizon stays
  EXPECT_FALSE(pace.behind(0));
  EXPECT_TRUE(pace.behind(1));
  for (size_t t = 1; t < threads.size(); ++t) pace.retire(t, 120ull * width);
  pace.after_round(all);        // everyone reached it: a quantum past the earliest (120 cycles)
  EXPECT_TRUE(pace.behind(0));  // 150 < 220
  pace.retire(0, 100ull * width);
  EXPECT_FALSE(pace.behind(0));  // 250
  // Threads 0 and 1 at a barrier leave at thread 0's clock.
  pace.release([](size_t t) { return t < 2; });
  EXPECT_NEAR(pace.cycles(1), 250, 0.01);
  EXPECT_NEAR(pace.cycles(2), 120, 0.01);
}

std::string folder(const std::string& name) {
  return (fs::temp_directory_path() / ("starnuma-pace-" + std::to_string(getpid()) + "-" + name)).string();
}

// tc's threads share the graph's vertices statically and meet at no barrier: paced by time, those
// whose lines live far retire less; by equal turns all retire the mean. A pass's clocks end within
// a quantum and one turn of each other, a ten times finer quantum than the default leaves the
// threads' places where they were (converged), and the same pass twice writes the same manifest.
TEST(FunctionalPass, PacedByTimeLetsThreadsDriftByTheirMissesLatencies) {
  auto p = Platform::build(kPlatform, {"os.phase_instructions=20000"});
  const auto run = [&](bool time, unsigned quantum, const std::string& name) {
    FunctionalPassOptions o;
    o.workload = "tc:scale=14";
    o.seed = 1;
    o.checkpoints = 2;
    o.warm_llcs = true;
    o.time_pace = time;
    o.pace_quantum_cycles = quantum;
    o.out = folder(name);
    nlohmann::ordered_json m = run_functional_pass(*p, o).manifest;
    fs::remove_all(o.out);
    return m;
  };
  const unsigned quantum = FunctionalPassOptions{}.pace_quantum_cycles;
  const nlohmann::ordered_json turns = run(false, quantum, "turns"), time = run(true, quantum, "time"),
                               again = run(true, quantum, "again"), finer = run(true, quantum / 10, "finer");
  EXPECT_EQ(turns["pace"]["by"], "turns");
  ASSERT_EQ(time["pace"]["by"], "time");
  EXPECT_EQ(time["pace"], again["pace"]);
  EXPECT_EQ(time["phases"], again["phases"]);
  const nlohmann::ordered_json& threads = time["pace"]["threads"];
  ASSERT_EQ(threads.size(), time["threads"].get<size_t>());
  EXPECT_EQ(threads[0]["core"], "socket0.core0");
  double least = 1e300, most = 0, earliest = 1e300, latest = 0;
  for (const auto& t : threads) {
    least = std::min(least, t["instructions"].get<double>());
    most = std::max(most, t["instructions"].get<double>());
    earliest = std::min(earliest, t["cycles"].get<double>());
    latest = std::max(latest, t["cycles"].get<double>());
  }
  EXPECT_GT(most, 1.5 * least) << "tc's threads should drift apart when paced by time";
  EXPECT_LT(latest - earliest, quantum + 8 * 10000) << "a quantum and one turn of misses at most";
  // The same work for the mean thread either way (the phases' clock), spread only when paced.
  EXPECT_NEAR(time["phases"][1]["mean_instructions"].get<double>(),
              turns["phases"][1]["mean_instructions"].get<double>(), 2000);
  // Converged: a ten times finer quantum leaves the places' spread and moves the threads by 2 % on
  // average. A single thread may move more, at any quantum (one by 10 % between quanta of 10 and 1
  // cycles): which of two bookings fills a stretch first moves its thread's clock, and the one after
  // it (docs/sampling.md, "The protocol's messages on the links").
  const auto spread = [](const nlohmann::ordered_json& pace) {
    std::vector<double> work;
    for (const auto& t : pace["threads"]) work.push_back(t["instructions"].get<double>());
    double mean = 0, square = 0;
    for (double w : work) mean += w / static_cast<double>(work.size());
    for (double w : work) square += (w - mean) * (w - mean) / static_cast<double>(work.size());
    return std::sqrt(square) / mean;
  };
  EXPECT_NEAR(spread(time["pace"]), spread(finer["pace"]), 0.02 * spread(finer["pace"]));
  double moved = 0;
  for (size_t t = 0; t < threads.size(); ++t) {
    const double finer_place = finer["pace"]["threads"][t]["instructions"].get<double>();
    const double place = threads[t]["instructions"].get<double>();
    moved += std::abs(place - finer_place) / finer_place / static_cast<double>(threads.size());
    EXPECT_NEAR(place, finer_place, 0.2 * finer_place) << threads[t]["core"];
  }
  EXPECT_LT(moved, 0.02);
}

}  // namespace
}  // namespace starnuma
