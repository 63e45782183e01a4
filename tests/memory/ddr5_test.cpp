#include "memory/ddr5.hpp"

#include <random>

#include <gtest/gtest.h>

namespace starnuma {
namespace {

using namespace literals;

struct Controller {
  Elaboration elab;
  ConfigNode cfg;
  std::unique_ptr<Ddr5Controller> ddr;
  explicit Controller(const std::string& yaml = "{}", const char* name = "mc") {
    cfg = load_yaml_string(yaml, "ddr.yaml");
    ddr = std::make_unique<Ddr5Controller>(name, ScopeContext{&elab, &cfg, name, cfg.location(), nullptr, "ddr5"},
                                           Ddr5Defaults{1, 32_GiB});
    ddr->check_unused_keys();
    EXPECT_TRUE(elab.diagnostics().empty());
  }
  // Moves `lines` lines (saturating, all issued at time 0) and returns the achieved GB/s.
  double stream(uint64_t lines, bool random) {
    std::mt19937_64 rng(7);
    Time last;
    for (uint64_t i = 0; i < lines; ++i) {
      uint64_t line = random ? rng() % (ddr->capacity().bytes() / 64) : i;
      last = std::max(last, ddr->access(Time(), MemOp::Read, line * 64, nullptr));
    }
    return static_cast<double>(lines * 64) / static_cast<double>(last.ps()) * 1e3;
  }
};

TEST(Ddr5, IdleBankReadIsControllerPlusTrcdPlusTcl) {
  Controller c;
  EXPECT_EQ(c.ddr->unloaded_read_latency(), 40_ns);
  EXPECT_EQ(c.ddr->access(1000_ns, MemOp::Read, 0, nullptr), 1040_ns);
}

TEST(Ddr5, RowHitMissAndConflictTimings) {
  Controller c;
  c.ddr->access(1000_ns, MemOp::Read, 0, nullptr);
  // Same row soon after: a row hit, controller + tCL.
  EXPECT_EQ(c.ddr->access(1050_ns, MemOp::Read, 64, nullptr) - 1050_ns, 24_ns);
  // Another row of the same bank (8 KiB row x 32 banks apart): precharge, activate, read.
  EXPECT_EQ(c.ddr->access(1090_ns, MemOp::Read, 8 * 1024 * 32, nullptr) - 1090_ns, 8_ns + 16_ns + 16_ns + 16_ns);
  // After the row timeout the bank was closed in the background: a plain activate.
  EXPECT_EQ(c.ddr->access(5000_ns, MemOp::Read, 0, nullptr) - 5000_ns, 40_ns);
}

// A stride of whole rows (8 KiB x 32 banks) stays in one bank by modulo: each access closes the
// previous one's row. With bank_hash: xor the row's bits pick other banks, so all eight activate
// in parallel.
TEST(Ddr5, XorBankHashSpreadsARowStrideOverTheBanks) {
  const uint64_t stride = 8 * 1024 * 32;
  for (const char* hash : {"none", "xor"}) {
    Controller c(std::string("{bank_hash: ") + hash + "}");
    Time last;
    for (uint64_t k = 0; k < 8; ++k) last = std::max(last, c.ddr->access(0_ns, MemOp::Read, k * stride, nullptr));
    const nlohmann::json conflicts = c.ddr->find_stat("row_conflicts")->to_json(sc_core::SC_ZERO_TIME);
    if (std::string(hash) == "none") {
      EXPECT_EQ(conflicts, 7) << hash;
      EXPECT_GT(last, Time::from_ps(7 * 32000));  // serialised by precharge and activate (tRP + tRCD each)
    } else {
      EXPECT_EQ(conflicts, 0) << hash;
      EXPECT_LT(last, 100_ns);  // only the ACT spacing (tRRD, tFAW) and the bus separate them
    }
    // Each line keeps one bank and row: read back at once, the next line of each offset finds its
    // row open in all eight banks with xor; by modulo the read-backs close each other's rows in
    // the one bank.
    for (uint64_t k = 0; k < 8; ++k) c.ddr->access(last, MemOp::Read, k * stride + 64, nullptr);
    const nlohmann::json hits = c.ddr->find_stat("row_hits")->to_json(sc_core::SC_ZERO_TIME);
    EXPECT_EQ(hits, std::string(hash) == "xor" ? 8 : 0) << hash;
  }
}

TEST(Ddr5, XorBankHashNeedsAPowerOfTwoBankCount) {
  Elaboration elab;
  ConfigNode cfg = load_yaml_string("{bank_hash: xor, banks_per_rank: 24}", "ddr.yaml");
  Ddr5Controller ddr("mc", ScopeContext{&elab, &cfg, "mc", cfg.location(), nullptr, "ddr5"}, Ddr5Defaults{1, 32_GiB});
  ASSERT_EQ(elab.diagnostics().count(), 1u);
  const std::string text = elab.diagnostics().issues()[0].str();
  EXPECT_NE(text.find("ddr.yaml:1:13: error: mc.bank_hash: xor needs a power-of-two number of banks"), std::string::npos)
      << text;
}

TEST(Ddr5, ChannelsInterleaveEveryChunk) {
  Controller c("{channels: 4, channel_interleave: 256B}");
  // Four chunks issued at once land on four channels: none waits for another's bus.
  for (uint64_t k = 0; k < 4; ++k) EXPECT_EQ(c.ddr->access(0_ns, MemOp::Read, k * 256, nullptr), 40_ns);
  // The fifth chunk is channel 0 again: same row, its burst follows the first line's.
  EXPECT_GT(c.ddr->access(0_ns, MemOp::Read, 4 * 256, nullptr), 40_ns);
}

TEST(Ddr5, SequentialStreamReachesMostOfThePeak) {
  Controller c;
  const double peak = 38.4;
  const double seq = c.stream(200000, false);
  EXPECT_GE(seq, 0.85 * peak) << seq << " GB/s";
  EXPECT_LE(seq, peak * 1.001);
}

TEST(Ddr5, RandomAccessIsMeasurablySlowerThanSequential) {
  Controller seq_c("{}", "sequential"), rnd_c("{}", "random");
  const double seq = seq_c.stream(100000, false);
  const double rnd = rnd_c.stream(100000, true);
  EXPECT_LT(rnd, 0.7 * seq) << "random " << rnd << " vs sequential " << seq;
  EXPECT_GT(rnd, 0.0);
}

TEST(Ddr5, WritesArePostedUntilTheWriteQueueFills) {
  Controller c("{write_queue: 4}");
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(c.ddr->access(0_ns, MemOp::Write, static_cast<uint64_t>(i) * 8 * 1024 * 32, nullptr), 8_ns);
  // Four writes to four rows of one bank are outstanding: the fifth waits for the first to drain.
  EXPECT_GT(c.ddr->access(0_ns, MemOp::Write, 5ull * 8 * 1024 * 32, nullptr), 8_ns);
}

}  // namespace
}  // namespace starnuma
