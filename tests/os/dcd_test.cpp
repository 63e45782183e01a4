// Dynamic capacity (pool/pool_dcd.hpp, os/dcd_agent.hpp): the schedule's syntax, the page map's
// frontier, and releases under a running workload that move every page out and lose none.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "harness/expect_report.hpp"
#include "harness/in_child.hpp"
#include "harness/run_platform.hpp"
#include "paging/page_map.hpp"
#include "platform/platform.hpp"
#include "pool/pool_dcd.hpp"
#include "run/simulation.hpp"

namespace starnuma {
namespace {

using namespace literals;
constexpr uint64_t kPage = 4096;

TEST(DcdSchedule, ReadsEventsByTimeAndByPhase) {
  const DcdSchedule s = parse_dcd_schedule(" release 4MiB at 20us ;add 2MiB at phase 3");
  ASSERT_TRUE(s.error.empty()) << s.error;
  ASSERT_EQ(s.events.size(), 2u);
  EXPECT_EQ(s.events[0].kind, DcdEvent::Kind::Release);
  EXPECT_EQ(s.events[0].bytes, 4u << 20);
  EXPECT_FALSE(s.events[0].at_phase);
  EXPECT_EQ(s.events[0].at, 20_us);
  EXPECT_EQ(s.events[0].text, "release 4MiB at 20us");
  EXPECT_EQ(s.events[1].kind, DcdEvent::Kind::Add);
  EXPECT_TRUE(s.events[1].at_phase);
  EXPECT_EQ(s.events[1].phase, 3u);
  EXPECT_TRUE(parse_dcd_schedule("").events.empty());
}

TEST(DcdSchedule, NamesTheEventThatIsWrong) {
  EXPECT_EQ(parse_dcd_schedule("add 2MiB at 1us; shrink 2MiB at 2us").error,
            "event 2 ('shrink 2MiB at 2us') is not 'add SIZE at TIME', 'release SIZE at TIME' or '... at phase N'");
  EXPECT_NE(parse_dcd_schedule("add 2MB at 1us").error.find("event 1"), std::string::npos);
  EXPECT_NE(parse_dcd_schedule("add 2MiB at 1 us").error.find("event 1"), std::string::npos);
  EXPECT_EQ(parse_dcd_schedule("release 2MiB at phase 0").error,
            "event 1 ('release 2MiB at phase 0') names phase '0'; phases count from 1");
  EXPECT_EQ(parse_dcd_schedule("add 0B at 1us").error, "event 1 ('add 0B at 1us') moves no capacity");
  EXPECT_FALSE(parse_dcd_schedule("add 2MiB at 1us;").error.empty());  // an empty event
}

// A socket of 8 pages and a pool of 8 of which 4 are online.
PageMap dcd_map() {
  std::vector<PageMap::Node> nodes{{"s0", 0, 8 * kPage, true}, {"pool", 8 * kPage, 8 * kPage, false}};
  nodes[1].online = 4 * kPage;
  nodes[1].movable_only = true;
  return PageMap(kPage, std::move(nodes), {{0, 1}});
}

TEST(PageMapFrontier, OnlyOnlineFramesTakePagesAndAnAddBringsMore) {
  PageMap m = dcd_map();
  EXPECT_EQ(m.free_pages(1), 4u);
  for (uint64_t p = 0; p < 4; ++p) EXPECT_TRUE(m.place(p, 1));
  EXPECT_TRUE(m.full(1));
  EXPECT_FALSE(m.place(4, 1));
  m.add_capacity(1, 6);
  EXPECT_EQ(m.free_pages(1), 2u);
  EXPECT_TRUE(m.place(4, 1));
  EXPECT_EQ(m.check(), "");
}

TEST(PageMapFrontier, AReleaseListsItsPagesDropsItsFreeFramesAndEndsWhenEmpty) {
  PageMap m = dcd_map();
  for (uint64_t p = 0; p < 4; ++p) ASSERT_TRUE(m.place(p, 1));  // frames 0..3
  m.release(m.move(1, 0).from);                                 // frame 1 free
  m.release(m.move(3, 0).from);                                 // frame 3 free
  // Release the top 2 frames: page 2 (frame 2) must leave; free frame 3 is dropped, frame 1 kept.
  const std::vector<uint64_t> out = m.begin_release(1, 2);
  EXPECT_EQ(out, std::vector<uint64_t>{2});
  EXPECT_TRUE(m.releasing(1));
  EXPECT_EQ(m.free_pages(1), 1u);
  EXPECT_EQ(m.release_left(1), 1u);
  EXPECT_EQ(m.check(), "");
  // It moves within its node, onto the online free frame.
  const PageMap::Moved moved = m.move(2, 1);
  EXPECT_EQ(moved.to, 8u + 1);
  EXPECT_EQ(m.release_left(1), 1u);  // the old frame is in use until its copy ends
  m.release(moved.from);
  EXPECT_EQ(m.release_left(1), 0u);
  EXPECT_EQ(m.check(), "");
  m.finish_release(1);
  EXPECT_FALSE(m.releasing(1));
  EXPECT_EQ(m.online_frames(1), 2u);
  EXPECT_EQ(m.pages_on(1), 2u);
  EXPECT_EQ(m.frames_used(1), 2u);
  EXPECT_TRUE(m.full(1));
  EXPECT_EQ(m.check(), "");
  m.add_capacity(1, 8);
  EXPECT_EQ(m.free_pages(1), 6u);
}

TEST(PageMapFrontier, NoPageTableFrameGoesToMemoryThatCanGoOffline) {
  std::vector<PageMap::Node> nodes{{"s0", 0, 1 * kPage, true}, {"cxl", 8 * kPage, 8 * kPage, true}};
  nodes[1].movable_only = true;
  PageMap m(kPage, std::move(nodes), {{0, 1}});
  m.translate(0, 0);  // fills socket 0
  m.translate(kPage, 0);
  EXPECT_EQ(m.node_of(1), 1u);  // data goes to the CXL node
  const auto r = testing::capture_report([&] { m.allocate_frame(0); });
  ASSERT_TRUE(r.raised);
  EXPECT_NE(r.message.find("out of memory: no node can hold a page-table page"), std::string::npos);
}

TEST(PageMapFrontier, AMoveWithinItsNodeIsOnlyOutOfAReleasedExtent) {
  PageMap m = dcd_map();
  ASSERT_TRUE(m.place(0, 1));
  const auto r = testing::capture_report([&] { m.move(0, 1); });
  ASSERT_TRUE(r.raised);
  EXPECT_NE(r.message.find("to the node it is on"), std::string::npos);
}

// starnuma16-scaled with dynamic placement filling a pool of 4 MiB online out of its shared pages.
// The OS may put half the footprint (4 MiB) in the pool; extents of 512 KiB.
std::vector<std::string> dcd(const std::string& schedule, const std::string& initial = "4MiB") {
  // Phases of 5 K of the mean thread: sharing's threads run up to 8x apart, and T0 needs every
  // socket still running (its fastest threads end their 160 K by the mean thread's 20 K).
  std::vector<std::string> sets{"os.phase_instructions=5000",
                                "os.page_cycles=300",
                                "os.pool_fraction=0.5",
                                "coherence.enabled=false",
                                "topology.socket.tracking.counter_bits=0",
                                "nodes.pool.dcd.enabled=true",
                                "nodes.pool.dcd.block=512KiB",
                                "nodes.pool.dcd.initial=" + initial};
  if (!schedule.empty()) sets.push_back("nodes.pool.dcd.schedule=" + schedule);
  return sets;
}

bool said(const RunResult& r, const std::string& sentence) {
  return std::find(r.shortfalls.begin(), r.shortfalls.end(), sentence) != r.shortfalls.end();
}

RunResult run(const std::vector<std::string>& sets, Placement placement = Placement::Dynamic) {
  return testing::run_platform("starnuma16-scaled.yaml", "sharing:pages=2048", 160000, placement, sets);
}

TEST(DynamicCapacity, AReleaseMovesEveryPageOutOfItsExtentInTime) {
  // The pool's 256 frames fill from the bottom; by phase 8 (the mean thread's 40 K) the upper half
  // holds some of its pages, which the migration thread may be moving out too.
  const RunResult r = run(dcd("release 512KiB at phase 8", "1MiB"));
  const auto& e = r.dcd["pool"]["events"][0];
  ASSERT_EQ(e["status"], "done") << e.dump();
  const uint64_t in_extent = e["pages_in_extent"], moved = e["pages_moved"], others = e["pages_moved_by_others"];
  EXPECT_GT(in_extent, 0u) << "the pool's upper half held no page: nothing tested";
  EXPECT_EQ(moved + others, in_extent);
  EXPECT_GT(moved, 0u);
  EXPECT_LE(e["pages_kept_on_device"].get<uint64_t>(), moved);
  EXPECT_EQ(r.dcd["pool"]["online_bytes"], 512u << 10);
  EXPECT_LE(r.dcd["pool"]["pages_on_device"].get<uint64_t>(), 128u);
  // The thread moves one page after another: each takes the OS's page cycles and a copy.
  const double per_page_ns = 300 / 2.4;  // the scaled sockets' 2.4 GHz
  EXPECT_GT(e["duration_ns"].get<double>(), static_cast<double>(moved) * per_page_ns);
  EXPECT_GT(r.dcd["pool"]["shootdowns_sent"].get<uint64_t>(), 0u);
  for (const std::string& s : r.shortfalls) EXPECT_EQ(s.find("dynamic-capacity"), std::string::npos) << s;
}

TEST(DynamicCapacity, PlacementBeforeTheRunSeesOnlyTheInitialCapacity) {
  // The oracle fills the pool with up to 0.2 of the footprint, but only 1 MiB is online.
  const RunResult r = run(dcd("release 1MiB at 5us", "1MiB"), Placement::Oracle);
  const auto& e = r.dcd["pool"]["events"][0];
  ASSERT_EQ(e["status"], "done") << e.dump();
  EXPECT_GT(e["pages_in_extent"].get<uint64_t>(), 0u);
  EXPECT_LE(e["pages_in_extent"].get<uint64_t>(), 256u);
  EXPECT_EQ(e["pages_moved"], e["pages_in_extent"]);
  EXPECT_EQ(r.dcd["pool"]["pages_on_device"], 0u);
  EXPECT_EQ(r.dcd["pool"]["online_bytes"], 0u);
}

TEST(DynamicCapacity, WhatCannotBeDoneIsRefusedAndSaid) {
  // Only 4 MiB is online, and the device has 768 GiB.
  const RunResult r = run(dcd("release 8MiB at 1us; add 1024GiB at 2us; add 2MiB at 1s"));
  const auto& events = r.dcd["pool"]["events"];
  EXPECT_EQ(events[0]["status"], "refused");
  EXPECT_EQ(events[0]["reason"], "only 4MiB is online");
  EXPECT_EQ(events[1]["status"], "refused");
  EXPECT_EQ(events[2]["status"], "pending");
  EXPECT_TRUE(said(r, "pool's dynamic-capacity event 'release 8MiB at 1us' was refused: only 4MiB is online"));
  EXPECT_TRUE(said(r, "pool's dynamic-capacity event 'add 2MiB at 1s' did not come before the workload ended"));
  EXPECT_EQ(r.dcd["pool"]["online_bytes"], 4u << 20);
}

// Separate servers on a pool device (lmp4-physical-scaled): no server reaches another's memory, so
// a release must fit in the device's own frames.
RunResult on_servers(const std::string& workload, const std::vector<std::string>& sets) {
  RunOptions o;
  o.workload = workload;
  o.instructions = 1000000000;  // the workload's own end
  o.placement = Placement::FirstTouch;
  return testing::run_platform("lmp4-physical-scaled.yaml", o, sets);
}

TEST(DynamicCapacity, OnSeparateHostsAReleaseMustFitInTheDevice) {
  const RunResult r = on_servers(
      "vecsum:size=8MiB,repeats=1@socket0",
      {"os.allocation=weighted", "os.cpuless_share=1", "nodes.pool.dcd.enabled=true", "nodes.pool.dcd.block=1MiB",
       "nodes.pool.dcd.initial=16MiB", "nodes.pool.dcd.schedule=release 8MiB at 20us; release 8MiB at 40us"});
  const auto& events = r.dcd["pool"]["events"];
  EXPECT_EQ(events[0]["status"], "done") << events[0].dump();  // the upper half held nothing
  EXPECT_EQ(events[0]["pages_in_extent"], 0u);
  EXPECT_EQ(events[1]["status"], "refused") << events[1].dump();
  const uint64_t held = events[1]["pages_in_extent"];
  EXPECT_GT(held, 0u);
  EXPECT_EQ(events[1]["reason"],
            "the extent holds " + std::to_string(held) + " pages and the rest of memory has room for 0");
  EXPECT_EQ(r.dcd["pool"]["online_bytes"], 8u << 20);
}

// Page tables never go to memory that can go offline: a server whose own memory is full cannot
// put them on the pool, and says why.
TEST(DynamicCapacity, APageTableNeverGoesToCapacityThatCanBeReleased) {
  const auto e = testing::capture_report([] {
    on_servers("vecsum:size=24MiB,repeats=1@socket0",
               {"nodes.pool.dcd.enabled=true", "nodes.pool.dcd.block=1MiB", "nodes.pool.dcd.initial=64MiB"});
  });
  EXPECT_EQ(e.type, "starnuma/input");
  EXPECT_NE(e.message.find("no page tables, as Linux's ZONE_MOVABLE"), std::string::npos) << e.message;
}

TEST(DynamicCapacity, AnAddIsUsedByTheNextPhases) {
  const uint64_t before = std::stoull(
      testing::in_child([] { return std::to_string(run(dcd("", "1MiB")).migration["to_pool"].get<uint64_t>()); }));
  const RunResult after = run(dcd("add 3MiB at phase 1", "1MiB"));
  EXPECT_EQ(after.dcd["pool"]["events"][0]["status"], "done");
  EXPECT_GT(after.migration["to_pool"].get<uint64_t>(), before);
  EXPECT_GT(after.dcd["pool"]["pages_on_device"].get<uint64_t>(), 256u);
}

}  // namespace
}  // namespace starnuma
