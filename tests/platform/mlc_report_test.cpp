// Intel MLC's text, read and written (platform/mlc_report.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "harness/expect_report.hpp"
#include "platform/mlc_report.hpp"

namespace starnuma {
namespace {

// MLC v3.11b's default run on a two-socket Intel server, tab-separated as MLC prints it (its
// loaded-latency table shortened to six rows).
std::string real_output() {
  std::ifstream in(std::string(STARNUMA_SOURCE_DIR) + "/tests/inputs/mlc/v3.11b-two-sockets.txt");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(MlcReport, ReadsEverySectionOfARealOutput) {
  const MlcReport r = parse_mlc(real_output(), "v3.11b.txt");
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_EQ(r.notes[0], "Intel(R) Memory Latency Checker - v3.11b");
  EXPECT_EQ(r.idle_latency_ns.rows, (std::vector<int>{0, 1}));
  EXPECT_EQ(r.idle_latency_ns.columns, (std::vector<int>{0, 1}));
  EXPECT_DOUBLE_EQ(r.idle_latency_ns.values[0][1], 141.0);
  EXPECT_DOUBLE_EQ(r.idle_latency_ns.values[1][1], 81.5);
  ASSERT_EQ(r.peak_injection.size(), 5u);
  EXPECT_EQ(r.peak_injection[1].name, "3:1 Reads-Writes");
  EXPECT_DOUBLE_EQ(r.peak_injection[1].mb_per_s, 150658.6);
  EXPECT_EQ(r.peak_injection[4].name, "Stream-triad like");
  EXPECT_DOUBLE_EQ(r.bandwidth_mb_per_s.values[1][0], 34385.7);
  EXPECT_EQ(r.loaded_traffic, "Using Read-only traffic type");
  ASSERT_EQ(r.loaded_latency.size(), 6u);
  EXPECT_EQ(r.loaded_latency[3].delay, 300);
  EXPECT_DOUBLE_EQ(r.loaded_latency[3].latency_ns, 127.88);
  EXPECT_DOUBLE_EQ(r.loaded_latency[5].mb_per_s, 2932.1);
}

TEST(MlcReport, WhatItWritesItReadsBack) {
  MlcReport r;
  r.notes = {"starnuma mlc: a test"};
  r.idle_latency_ns = {{0, 1}, {0, 1, 2}, {{80, 130, 180}, {130, 80, NAN}}};
  r.peak_injection = {{"ALL Reads", 40000.5}, {"1:1 Reads-Writes", 64000}};
  r.bandwidth_mb_per_s = {{0}, {0, 1}, {{100000, 20000}}};
  r.loaded_traffic = "Using Read-only traffic type";
  r.loaded_latency = {{0, 900.5, 39000}, {250, 181.25, 4000}};
  const MlcReport back = parse_mlc(mlc_text(r), "written");
  EXPECT_EQ(back.notes, r.notes);
  EXPECT_EQ(back.idle_latency_ns.columns, r.idle_latency_ns.columns);
  EXPECT_DOUBLE_EQ(back.idle_latency_ns.values[1][0], 130);
  EXPECT_TRUE(std::isnan(back.idle_latency_ns.values[1][2]));
  ASSERT_EQ(back.peak_injection.size(), 2u);
  EXPECT_EQ(back.peak_injection[1].name, "1:1 Reads-Writes");
  EXPECT_DOUBLE_EQ(back.peak_injection[1].mb_per_s, 64000);
  EXPECT_DOUBLE_EQ(back.bandwidth_mb_per_s.values[0][1], 20000);
  EXPECT_EQ(back.loaded_traffic, r.loaded_traffic);
  ASSERT_EQ(back.loaded_latency.size(), 2u);
  EXPECT_EQ(back.loaded_latency[1].delay, 250);
  EXPECT_DOUBLE_EQ(back.loaded_latency[1].latency_ns, 181.25);
  EXPECT_DOUBLE_EQ(back.loaded_latency[0].mb_per_s, 39000);
}

// Each bad input is a starnuma/input error naming the file, the line and what it expected.
void expect_refused(const std::string& text, const std::string& says) {
  auto r = testing::capture_report([&] { parse_mlc(text, "mine.txt"); });
  ASSERT_TRUE(r.raised) << text;
  EXPECT_EQ(r.type, "starnuma/input");
  EXPECT_NE(r.message.find(says), std::string::npos) << r.message;
}

TEST(MlcReport, BadOutputIsAnErrorNamingItsLine) {
  expect_refused("hello\nworld\n", "mine.txt: no section of Intel MLC's output");
  expect_refused("Measuring idle latencies (in ns)...\n\t\tNuma node\nNuma node\t0\t1\n 0\t80.1\n",
                 "mine.txt:4: a row of 2 values after its node number, not 1");
  expect_refused("Measuring idle latencies (in ns)...\nNuma node\t0\t1\n 0\t80.1\tfast\n",
                 "mine.txt:3: a number, not 'fast'");
  expect_refused("Measuring idle latencies (in ns)...\nnothing here\n", "has no \"Numa node 0 1 ...\" header");
  expect_refused("Measuring Peak Injection Memory Bandwidths for the system\nALL Reads : lots\n",
                 "mine.txt:2: a bandwidth in MB/sec after 'ALL Reads :'");
  expect_refused("Measuring Loaded Latencies for the system\n=====\n 00000\t300.5\n",
                 "mine.txt:3: a row \"delay latency(ns) bandwidth(MB/sec)\"");
  expect_refused("Measuring Loaded Latencies for the system\nInject\tLatency\n", "has no rows");
}

}  // namespace
}  // namespace starnuma
