// The tracking hardware inside whole runs: impl: rtl against impl: model, impl: none against the
// results from before tracking existed, the metadata traffic on the fabric, configuration errors.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "harness/expect_report.hpp"
#include "harness/in_child.hpp"
#include "run/simulation.hpp"
#include "socket/socket.hpp"
#include "tracking/page_index_map.hpp"

namespace starnuma {
namespace {

using testing::capture_report;
using testing::in_child;

const std::string kPlatforms = std::string(STARNUMA_SOURCE_DIR) + "/platforms/";
// Marked hits need phase marks; 2 us gives several per run.
const std::string kWorkload = "sharing";
constexpr uint64_t kInstructions = 20000;

// A platform with `sets` applied and a run of the test workload on it (optionally dumping the
// tracking metadata).
struct Ran {
  std::unique_ptr<Platform> platform;
  RunResult r;
};
// The tests start from no tracking, the metadata in memory only and the hardware on in every run
// (what they were written for; the platform's own defaults are the paper's T16, its metadata
// through the LLCs, on when a migration reads it), then apply `sets`.
std::vector<std::string> from_bare(const std::vector<std::string>& sets) {
  std::vector<std::string> all{"topology.socket.tracking.impl=none", "topology.socket.tracking.metadata_path=memory",
                               "topology.socket.tracking.active=always"};
  all.insert(all.end(), sets.begin(), sets.end());
  return all;
}

Ran run_sharing(const std::vector<std::string>& sets, const std::string& dump = "") {
  Ran ran{Platform::build(kPlatforms + "starnuma16-scaled.yaml", from_bare(sets)), {}};
  RunOptions o;
  o.workload = kWorkload;
  o.instructions = kInstructions;
  o.dump_trackers = dump;
  ran.r = run_workload(*ran.platform, o);
  return ran;
}

// Everything a run reports but the host time: summary, statistics tree, metadata dump.
std::string tracked_run(const std::string& impl, unsigned bits, const std::string& trackers, const std::string& dump,
                        const std::string& path) {
  Ran ran = run_sharing(
      {"topology.socket.tracking.impl=" + impl, "topology.socket.tracking.counter_bits=" + std::to_string(bits),
       "topology.socket.tracking.trackers=" + trackers, "topology.socket.tracking.phase_interval=2us",
       "topology.socket.tracking.metadata_path=" + path},
      dump);
  nlohmann::ordered_json j = ran.r.to_json();
  j.erase("host_seconds");
  std::ifstream in(dump);
  return j.dump(1) + "\n--- dump ---\n" + std::string(std::istreambuf_iterator<char>(in), {});
}

void expect_rtl_equals_model(unsigned bits, const std::string& trackers = "per_socket",
                             const std::string& path = "memory") {
  // Per test and process: ctest runs these tests side by side, and a shared dump file let one
  // test read another's dump.
  const std::string dir = ::testing::TempDir() + ::testing::UnitTest::GetInstance()->current_test_info()->name() + "-" +
                          std::to_string(getpid());
  const std::string model = in_child([&] { return tracked_run("model", bits, trackers, dir + "-model.csv", path); });
  const std::string rtl = in_child([&] { return tracked_run("rtl", bits, trackers, dir + "-rtl.csv", path); });
  std::remove((dir + "-model.csv").c_str());  // their contents are in the strings compared
  std::remove((dir + "-rtl.csv").c_str());
  ASSERT_EQ(model.rfind("ERROR", 0), std::string::npos) << model;
  ASSERT_NE(model.find("\"tracker_writes\""), std::string::npos);
  ASSERT_NE(model.find("\n--- dump ---\nregion,"), std::string::npos);
  EXPECT_GT(model.size() - model.find("--- dump ---"), 200u);  // some regions were tracked
  EXPECT_NE(model.find("\"stalled_flushes\": "), std::string::npos);
  EXPECT_EQ(model.find("\"stalled_flushes\": 0,"), std::string::npos);  // the cores were held
  EXPECT_EQ(model, rtl);  // same metadata, same requests at the same times, same statistics
}

TEST(PlatformTracking, RtlAndModelAgreeOnAWholeRunAtT16) { expect_rtl_equals_model(16); }
TEST(PlatformTracking, RtlAndModelAgreeWithTheMetadataThroughTheLlc) {
  expect_rtl_equals_model(16, "per_socket", "llc");
}
TEST(PlatformTracking, RtlAndModelAgreeOnAWholeRunAtT0) { expect_rtl_equals_model(0); }
TEST(PlatformTracking, RtlAndModelAgreeWithATrackerPerCore) { expect_rtl_equals_model(8, "per_core"); }

uint64_t core_cycles(const nlohmann::json& socket) {
  uint64_t sum = 0;
  for (const auto& [name, part] : socket.items())
    if (name.rfind("core", 0) == 0) sum += part["cycles"].get<uint64_t>();
  return sum;
}

// Backpressure on a thrashing workload: on `sharing` nearly every L1 DTLB fill replaces a
// translation, so nearly every access flushes, far more than a tracker can take. The cores are
// held until their flushes are taken: no flush enters a queue after the cores have ended (so at
// most queue_depth updates per tracker remain when they end), a core's TLB is held no longer than
// the core runs, and the cores take longer than without tracking (tests/tracking/none_golden.json).
TEST(PlatformTracking, BackpressureHoldsTheCoresUntilTheTrackerTakesTheirFlushes) {
  Ran ran = run_sharing({"topology.socket.tracking.impl=model", "topology.socket.tracking.tlb=l1"});
  const auto& p = ran.platform;
  const RunResult& r = ran.r;
  const Time end = Time::from_ps(static_cast<int64_t>(sc_core::sc_time_stamp().value()));
  uint64_t cycles = 0;
  for (const Socket* s : p->fabric().requesters()) {
    const nlohmann::json& node = r.stats["nodes"][s->basename()];
    EXPECT_GT(s->tracking().last_flush_taken().ps(), 0) << s->basename();
    EXPECT_LE(s->tracking().last_flush_taken().ps(), end.ps()) << s->basename();
    EXPECT_GT(node["tracking"]["stalled_flushes"].get<uint64_t>(), 0u) << s->basename();
    EXPECT_GT(node["tracking"]["core_stall_cycles"].get<uint64_t>(), 0u) << s->basename();
    EXPECT_LE(node["tracking"]["core_stall_cycles"].get<uint64_t>(), core_cycles(node)) << s->basename();
    cycles += core_cycles(node);
  }
  std::ifstream in(std::string(STARNUMA_SOURCE_DIR) + "/tests/tracking/none_golden.json");
  const nlohmann::json none = nlohmann::json::parse(in);
  uint64_t none_cycles = 0;
  for (const auto& [name, node] : none["stats"]["nodes"].items()) none_cycles += core_cycles(node);
  EXPECT_GT(cycles, 2 * none_cycles);
}

// The tracker's requests are real fabric accesses: under first touch no data page lives in the
// pool, so every pool access is a metadata access (the region's default home).
TEST(PlatformTracking, MetadataTrafficLoadsTheFabricToThePool) {
  Ran ran = run_sharing({"topology.socket.tracking.impl=model"});
  const RunResult& r = ran.r;
  EXPECT_EQ(r.accesses[3], 0u);  // no demand access went to the pool
  uint64_t reads = 0, writes = 0, bytes = 0;
  for (const auto& [name, node] : r.stats["nodes"].items()) {
    if (!node.contains("tracking")) continue;
    reads += node["tracking"]["tracker_reads"].get<uint64_t>();
    writes += node["tracking"]["tracker_writes"].get<uint64_t>();
    bytes += node["tracking"]["metadata_bytes"].get<uint64_t>();
    EXPECT_EQ(node["tracking"]["flushes"], node["tracking"]["tracker_reads"]) << name;
  }
  EXPECT_GT(reads, 0u);
  EXPECT_GT(writes, 0u);
  EXPECT_EQ(bytes, 64 * (reads + writes));
  const auto& pool = r.stats["nodes"]["pool"]["memory"];
  EXPECT_EQ(pool["reads"].get<uint64_t>(), reads) << pool.dump();
  EXPECT_EQ(pool["writes"].get<uint64_t>(), writes);
}

// With impl: none nothing observes the cores: the results are the ones recorded before the
// tracking hardware existed (tests/tracking/none_golden.json: stats.json of the
// same run, host_seconds left out).
TEST(PlatformTracking, NoneLeavesResultsBitIdenticalToBefore) {
  // As recorded, before the start skew too (the cores in step).
  Ran ran = run_sharing({"coherence.enabled=false", "platform.quantum=500ns", "platform.start_skew=0ps"});
  const auto& p = ran.platform;
  const RunResult& r = ran.r;
  for (const Socket* s : p->fabric().requesters()) EXPECT_EQ(s->observer(), nullptr);
  nlohmann::json got = r.to_json();
  got.erase("host_seconds");
  for (auto& [name, node] : got["stats"]["nodes"].items()) {
    node.erase("tracking");                   // all zero, new
    for (auto& [part, stats] : node.items())  // new with coherence, all zero when it is off
      if (part.rfind("core", 0) == 0)
        for (const char* key :
             {"bt_socket_accesses", "bt_socket_latency_ps", "bt_socket_unloaded_ps", "bt_pool_accesses",
              "bt_pool_latency_ps", "bt_pool_unloaded_ps", "upgrades", "upgrade_latency_ps", "stlb_back_invalidations",
              "shootdowns", "migration_stalls", "migration_stall_ps"}) {
          EXPECT_EQ(stats.at(key), 0) << part << "." << key;
          stats.erase(key);
        }
    for (auto& [part, stats] : node.items())  // new: the percentiles of the misses counted above
      if (part.rfind("core", 0) == 0) {
        EXPECT_EQ(stats.at("memory_latency").at("count"), stats.at("llc_misses")) << part;
        stats.erase("memory_latency");
        // New too: the walker's LLC misses' time, at least the fabric's unloaded 40 ns each.
        EXPECT_GE(stats.at("walk_miss_latency_ps").get<uint64_t>(),
                  40'000 * stats.at("walk_llc_misses").get<uint64_t>())
            << part;
        stats.erase("walk_miss_latency_ps");
      }
  }
  got.erase("memory_latency_percentiles_ns");                 // new, from the same misses
  got["stats"].erase("coherence");                            // new too, and idle: coherence is off by default
  got["stats"].erase("os");                                   // the OS settings: no statistics of their own
  for (auto& [name, link] : got["stats"]["links"].items()) {  // new: coherence messages by kind, none here
    std::vector<std::string> coherent;
    for (const auto& [key, value] : link.items())
      if (key.rfind("coherent_", 0) == 0) {
        EXPECT_EQ(value, 0) << name << "." << key;
        coherent.push_back(key);
      }
    EXPECT_EQ(coherent.size(), 12u) << name;
    for (const std::string& key : coherent) link.erase(key);
  }
  std::ifstream in(std::string(STARNUMA_SOURCE_DIR) + "/tests/tracking/none_golden.json");
  nlohmann::json want = nlohmann::json::parse(in);
  got.erase("platform");  // the platform file's path as given
  want.erase("platform");
  // New since: what was asked against what was done, all as asked here.
  EXPECT_EQ(got["instructions_requested"], got["instructions"]);
  EXPECT_EQ(got["threads_ended_early"], 0);
  EXPECT_EQ(got["shortfalls"], nlohmann::json::array());
  EXPECT_EQ(got["measured_over"], "per-thread budgets");
  for (const char* key : {"instructions_requested", "threads_ended_early", "shortfalls", "measured_over"})
    got.erase(key);
  EXPECT_EQ(got, want);
}

TEST(PlatformTracking, MetadataApiDecodesTheDump) {
  Ran ran = run_sharing({"topology.socket.tracking.impl=model"});
  const RunResult& r = ran.r;
  ASSERT_TRUE(r.trackers);
  const TrackerMetadata& m = *r.trackers;
  uint64_t tracked = 0, shared = 0;
  for (uint64_t region = 0; region < m.regions(); ++region) {
    if (m.sharers(region) == 0) continue;
    ++tracked;
    if (m.sharers(region) & (m.sharers(region) - 1)) ++shared;
    EXPECT_LT(m.sharers(region), 1u << 16);
  }
  EXPECT_GT(tracked, 0u);
  EXPECT_GT(shared, 0u);  // `sharing` shares regions between sockets
  const std::string csv = m.csv();
  EXPECT_EQ(static_cast<uint64_t>(std::count(csv.begin(), csv.end(), '\n')), tracked + 1);
}

testing::Raised build_with(const std::vector<std::string>& sets) {
  return capture_report([&] { Platform::build(kPlatforms + "starnuma16-scaled.yaml", from_bare(sets)); });
}

TEST(PlatformTracking, BadValuesNameTheirKey) {
  auto r = build_with({"topology.socket.tracking.impl=verilog"});
  ASSERT_TRUE(r.raised);
  EXPECT_NE(r.message.find("tracking.impl"), std::string::npos) << r.message;
  r = build_with({"topology.socket.tracking.counter_bits=17"});
  ASSERT_TRUE(r.raised);
  EXPECT_NE(r.message.find("tracking.counter_bits: value 17 is out of range [0, 16]"), std::string::npos) << r.message;
  r = build_with({"topology.socket.tracking.region_size=768KiB"});
  ASSERT_TRUE(r.raised);
  EXPECT_NE(r.message.find("tracking.region_size: 768KiB is not a power of two"), std::string::npos) << r.message;
  r = build_with({"topology.socket.tracking.trackers=per_chip"});
  ASSERT_TRUE(r.raised);
  EXPECT_NE(r.message.find("tracking.trackers"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("per_core"), std::string::npos) << r.message;  // names the choices
}

// The annex on the STLB (the default): with no phase marks, exactly the STLB's evictions flush,
// once the 64-entry STLB is full (every set fills in this run). auto makes the STLB inclusive, so
// every LLC-missing load finds its page's annex entry; evictions drop L1 DTLB entries too.
TEST(PlatformTracking, TheStlbAnnexFlushesOnStlbEvictionsAndTracksEveryLoad) {
  Ran ran = run_sharing({"topology.socket.tracking.impl=model", "topology.socket.core.stlb.entries=64",
                         "topology.socket.core.stlb.ways=4"});
  const auto& p = ran.platform;
  uint64_t back_invalidations = 0;
  for (const Socket* s : p->fabric().requesters()) {
    EXPECT_TRUE(s->stlb_inclusive());
    const nlohmann::json& node = ran.r.stats["nodes"][s->basename()];
    uint64_t evictions = 0;
    for (const auto& [name, part] : node.items())
      if (name.rfind("core", 0) == 0) {
        const uint64_t misses = part["stlb_misses"].get<uint64_t>();
        ASSERT_GT(misses, 64u) << s->basename() << "." << name;
        evictions += misses - 64;
        back_invalidations += part["stlb_back_invalidations"].get<uint64_t>();
      }
    EXPECT_EQ(node["tracking"]["flushes"].get<uint64_t>(), evictions) << s->basename();
    EXPECT_EQ(node["tracking"]["untracked_loads"].get<uint64_t>(), 0u) << s->basename();
  }
  EXPECT_GT(back_invalidations, 0u);
}

// The paper flushes a marked annex entry on the translation's first access after the mark. With
// the annexes on the STLB, a page the L1 DTLB keeps never hits the STLB: its L1 hit reaches the
// STLB annex's marker instead. 16 pages chased by one thread stay in both TLBs (no eviction):
// without marks nothing flushes; with a mark every 2 us each page flushes once per mark.
std::string flushes_of_an_l1_resident_chase(bool marks) {
  return in_child([&] {
    std::vector<std::string> sets{"topology.socket.tracking.impl=model"};
    if (marks) sets.push_back("topology.socket.tracking.phase_interval=2us");
    auto p = Platform::build(kPlatforms + "starnuma16-scaled.yaml", from_bare(sets));
    RunOptions o;
    o.workload = "chase:footprint=64KiB,operations=20000,init_thread=0";
    o.instructions = 100000;
    const RunResult r = run_workload(*p, o);
    const auto& t = r.stats["nodes"]["socket0"]["tracking"];
    return std::to_string(t["flushes"].get<uint64_t>()) + " " + std::to_string(t["phase_marks"].get<uint64_t>()) + " " +
           std::to_string(r.stats["nodes"]["socket0"]["core0"]["stlb_misses"].get<uint64_t>());
  });
}

TEST(PlatformTracking, AMarkedPageTheL1DtlbKeepsFlushesOnItsFirstHit) {
  uint64_t flushes = 0, marks = 0, walks = 0;
  std::istringstream(flushes_of_an_l1_resident_chase(false)) >> flushes >> marks >> walks;
  EXPECT_EQ(flushes, 0u);
  EXPECT_EQ(walks, 0u);  // walked during the initialisation: the measured chase never misses a TLB
  std::istringstream(flushes_of_an_l1_resident_chase(true)) >> flushes >> marks >> walks;
  EXPECT_GT(marks, 1000u);  // the chasing core's, one per 2 us
  // About 16 chase loads per 2 us reach several of the 16 pages; each flushes once per mark.
  EXPECT_GT(flushes, 4 * marks);
  EXPECT_LE(flushes, 16 * marks);
}

// Through the LLC (the default) or a metadata cache of their own, the updates of hot regions stay
// near the walker: without coherence most requests hit and the metadata bytes on the fabric fall
// accordingly (timing only: the metadata's data is the same whichever path). Through memory,
// every request is a line. Through coherent LLCs the sockets take the lines from one another, so
// fewer hit than without coherence, and the pool's directory sees the tracker's transactions.
TEST(PlatformTracking, CachedMetadataPathsKeepHotEntriesOffThePool) {
  struct Traffic {
    uint64_t requests = 0, hits = 0, bytes = 0, pool_transactions = 0;
  };
  auto traffic = [](const std::string& path, bool coherence) {
    std::istringstream in(in_child([path, coherence] {
      Ran ran = run_sharing({"topology.socket.tracking.impl=model", "topology.socket.tracking.metadata_path=" + path,
                             std::string("coherence.enabled=") + (coherence ? "true" : "false")});
      uint64_t requests = 0, hits = 0, bytes = 0;
      for (const auto& [name, node] : ran.r.stats["nodes"].items()) {
        if (!node.contains("tracking")) continue;
        const auto& t = node["tracking"];
        requests += t["tracker_reads"].get<uint64_t>() + t["tracker_writes"].get<uint64_t>();
        hits += t["metadata_cache_hits"].get<uint64_t>() + t["metadata_llc_hits"].get<uint64_t>();
        bytes += t["metadata_bytes"].get<uint64_t>();
      }
      const uint64_t pool = coherence ? ran.r.stats["coherence"]["pool_directory_transactions"].get<uint64_t>() : 0;
      return std::to_string(requests) + " " + std::to_string(hits) + " " + std::to_string(bytes) + " " +
             std::to_string(pool);
    }));
    Traffic t;
    in >> t.requests >> t.hits >> t.bytes >> t.pool_transactions;
    return t;
  };
  const Traffic memory = traffic("memory", false);
  EXPECT_EQ(memory.hits, 0u);
  EXPECT_EQ(memory.bytes, memory.requests * 64);  // every request a line on the fabric
  for (const char* path : {"cache", "llc"}) {
    const Traffic cached = traffic(path, false);
    EXPECT_GT(cached.hits, cached.requests * 9 / 10) << path;
    EXPECT_LT(cached.bytes, memory.bytes / 5) << path;
  }
  const Traffic alone = traffic("llc", false), coherent = traffic("llc", true);
  // Through memory, the metadata requests bypass the directory: only the cores' misses are there.
  const Traffic bypass = traffic("memory", true);
  EXPECT_LT(coherent.hits * alone.requests, alone.hits * coherent.requests);
  EXPECT_GT(coherent.hits, 0u);
  EXPECT_GT(coherent.pool_transactions, bypass.pool_transactions);
}

// tracking.active: auto, the platforms' default, turns the hardware on only where a migration
// decides by the trackers; static placement leaves it idle (no flush, no metadata request), and
// the run says which in its summary. always runs it whatever the placement.
TEST(PlatformTracking, TheOsTurnsTheTrackersOnOnlyForAMigrationThatReadsThem) {
  auto state = [](Placement placement, const std::string& active) {
    return in_child([placement, active] {
      auto p = Platform::build(kPlatforms + "starnuma16-scaled.yaml",
                               {"topology.socket.tracking.active=" + active, "os.phase_instructions=10000"});
      RunOptions o;
      o.workload = kWorkload;
      o.instructions = kInstructions;
      o.placement = placement;
      const RunResult r = run_workload(*p, o);
      uint64_t flushes = 0;
      for (const auto& [name, node] : r.stats["nodes"].items())
        if (node.contains("tracking")) flushes += node["tracking"]["flushes"].get<uint64_t>();
      return r.summary_json()["tracking"].get<std::string>() + (flushes ? " flushes" : " none");
    });
  };
  EXPECT_EQ(state(Placement::FirstTouch, "auto"), "idle none");
  EXPECT_EQ(state(Placement::Oracle, "auto"), "idle none");
  EXPECT_EQ(state(Placement::Dynamic, "auto"), "on flushes");
  EXPECT_EQ(state(Placement::FirstTouch, "always"), "on flushes");
}

TEST(PlatformTracking, TheStlbAnnexNeedsAnInclusiveStlb) {
  auto r = build_with({"topology.socket.tracking.impl=model", "topology.socket.core.stlb.inclusive=false"});
  ASSERT_TRUE(r.raised);
  EXPECT_NE(r.message.find("tracking.tlb: the STLB annex needs an inclusive STLB"), std::string::npos) << r.message;
  EXPECT_FALSE(build_with({"topology.socket.tracking.impl=model", "topology.socket.tracking.tlb=l1",
                           "topology.socket.core.stlb.inclusive=false"})
                   .raised);
  // Without tracking, auto leaves the STLB as it was (the results from before, NoneLeaves...).
  auto p = Platform::build(kPlatforms + "starnuma16-scaled.yaml", from_bare({}));
  EXPECT_FALSE(p->fabric().requesters()[0]->stlb_inclusive());
}

TEST(PlatformTracking, RtlAcceptsOnlyWhatItIsBuiltFor) {
  auto r = build_with({"topology.socket.tracking.impl=rtl", "topology.socket.tracking.counter_bits=2"});
  ASSERT_TRUE(r.raised);
  EXPECT_NE(r.message.find(
                "tracking.counter_bits: 2 has no RTL build: with impl: rtl, counter_bits is one of 0, 1, 4, 8, 16"),
            std::string::npos)
      << r.message;
  r = build_with({"topology.socket.tracking.impl=rtl", "topology.socket.tracking.region_size=1MiB"});
  ASSERT_TRUE(r.raised);
  EXPECT_NE(r.message.find("tracking.region_size: the RTL is built for 512KiB regions"), std::string::npos)
      << r.message;
  r = build_with({"topology.socket.tracking.impl=rtl", "topology.socket.core.stlb.entries=768"});
  ASSERT_TRUE(r.raised);
  EXPECT_NE(r.message.find("tracking.impl: the RTL annex is built for a 1536-entry STLB, this core's has 768"),
            std::string::npos)
      << r.message;
  r = build_with(
      {"topology.socket.tracking.impl=rtl", "topology.socket.tracking.tlb=l1", "topology.socket.core.dtlb.entries=32"});
  ASSERT_TRUE(r.raised);
  EXPECT_NE(r.message.find("64-entry L1 DTLB"), std::string::npos) << r.message;
  EXPECT_FALSE(build_with({"topology.socket.tracking.impl=rtl", "topology.socket.core.dtlb.entries=32"}).raised);
  // impl: model takes them all.
  EXPECT_FALSE(build_with({"topology.socket.tracking.impl=model", "topology.socket.tracking.counter_bits=2",
                           "topology.socket.tracking.region_size=1MiB"})
                   .raised);
}

// Found when the platform is built (so `check` reports it), at the --set that gave it.
TEST(PlatformTracking, UnknownMetadataHomeIsAConfigError) {
  auto r = capture_report([&] {
    Platform::build(kPlatforms + "starnuma16-scaled.yaml",
                    {"topology.socket.tracking.impl=model", "topology.socket.tracking.metadata_home=socket99"});
  });
  ASSERT_TRUE(r.raised);
  EXPECT_EQ(r.type, "starnuma/config");
  EXPECT_NE(r.message.find("--set topology.socket.tracking.metadata_home=socket99: error: "
                           "nodes.socket0.tracking.metadata_home: no node 'socket99' with memory"),
            std::string::npos)
      << r.message;
}

TEST(PlatformTracking, DumpWithoutTrackingIsAUsageError) {
  auto p = Platform::build(kPlatforms + "starnuma16-scaled.yaml", from_bare({}));
  RunOptions o;
  o.workload = kWorkload;
  o.instructions = 1000;
  o.dump_trackers = ::testing::TempDir() + "/never.csv";
  auto r = capture_report([&] { run_workload(*p, o); });
  ASSERT_TRUE(r.raised);
  EXPECT_EQ(r.type, "starnuma/usage");
}

TEST(PageIndexMap, AgreesWithAReferenceMapUnderChurn) {
  PageIndexMap m(64);
  std::map<uint64_t, unsigned> ref;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200000; ++i) {
    const uint64_t page = rng() % 300;
    if (ref.count(page)) {
      ASSERT_EQ(m.find(page), ref[page]);
      if (rng() % 2) {
        ASSERT_EQ(m.erase(page), ref[page]);
        ref.erase(page);
      }
    } else {
      ASSERT_EQ(m.find(page), PageIndexMap::kNone);
      const unsigned index = m.insert(page);
      if (ref.size() == 64) {
        ASSERT_EQ(index, PageIndexMap::kNone);
        continue;
      }
      ASSERT_LT(index, 64u);
      for (const auto& [p, k] : ref) ASSERT_NE(k, index);
      ref[page] = index;
    }
  }
}

}  // namespace
}  // namespace starnuma
