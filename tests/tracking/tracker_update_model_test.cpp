#include "tracking/tracker_update_model.hpp"

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <vector>

namespace starnuma {
namespace {

struct LoggedMemory : MetadataMemory {
  uint64_t read(uint64_t addr) override {
    log.push_back({addr, false});
    return words[addr];
  }
  void write(uint64_t addr, uint64_t data) override {
    log.push_back({addr, true});
    words[addr] = data;
  }
  std::map<uint64_t, uint64_t> words;
  std::vector<std::pair<uint64_t, bool>> log;
};

TEST(TrackerUpdateModel, EntriesAreBasePlusRegionTimesAPowerOfTwoSize) {
  TrackerUpdateModel t8({16, 8, 128, 0x1000});
  EXPECT_EQ(t8.entry_bytes(), 4u);  // 24 bits -> 4 bytes
  EXPECT_EQ(t8.entry_address(0), 0x1000u);
  EXPECT_EQ(t8.entry_address(127), 0x1000u);  // last page of region 0
  EXPECT_EQ(t8.entry_address(128), 0x1004u);  // first page of region 1
  EXPECT_EQ(TrackerUpdateModel({16, 0, 128, 0}).entry_bytes(), 2u);
  EXPECT_EQ(TrackerUpdateModel({32, 16, 128, 0}).entry_bytes(), 8u);
}

TEST(TrackerUpdateModel, SetsTheSocketBitAndAddsWithSaturation) {
  TrackerUpdateModel t({16, 4, 128, 0});
  LoggedMemory m;
  m.words[0] = 0xff000000 | (14u << 16) | 0x0001;  // high bits unused: kept
  EXPECT_TRUE(t.update({0, 5, 3, 2}, m));
  EXPECT_EQ(t.sharers(m.words[0]), 0x0005u);
  EXPECT_EQ(t.count(m.words[0]), 15u);
  EXPECT_EQ(m.words[0] >> 24, 0xffu);
  ASSERT_EQ(m.log.size(), 2u);
  EXPECT_FALSE(m.log[0].second);
  EXPECT_TRUE(m.log[1].second);
}

TEST(TrackerUpdateModel, SkipsTheWriteWhenNothingChanges) {
  TrackerUpdateModel t({16, 4, 128, 0});
  LoggedMemory m;
  m.words[4] = (15u << 16) | 0x0004;  // socket 2 set, counter saturated
  EXPECT_FALSE(t.update({0, 130, 9, 2}, m));
  EXPECT_EQ(m.log.size(), 1u);  // the read only
}

TEST(TrackerUpdateModel, T0OnlySetsBits) {
  TrackerUpdateModel t({16, 0, 128, 0});
  LoggedMemory m;
  EXPECT_TRUE(t.update({0, 1, 0, 15}, m));
  EXPECT_EQ(m.words[0], 0x8000u);
  EXPECT_FALSE(t.update({0, 2, 0, 15}, m));                     // already a sharer: read, no write
  EXPECT_THROW(t.update({0, 2, 1, 15}, m), std::out_of_range);  // T0 flushes carry no count
}

TEST(TrackerUpdateModel, RejectsBadConfigurations) {
  EXPECT_THROW(TrackerUpdateModel({12, 4, 128, 0}), std::invalid_argument);
  EXPECT_THROW(TrackerUpdateModel({16, 4, 100, 0}), std::invalid_argument);
  EXPECT_THROW(TrackerUpdateModel({16, 20, 128, 0}), std::invalid_argument);
}

}  // namespace
}  // namespace starnuma
