#include "common/units.hpp"

#include <gtest/gtest.h>

namespace starnuma {
namespace {

using namespace literals;

TEST(Units, TimeParsesExactlyInEveryUnit) {
  EXPECT_EQ(parse_time("25ns").value->ps(), 25000);
  EXPECT_EQ(parse_time("1.2us").value->ps(), 1200000);
  EXPECT_EQ(parse_time("12.5ns").value->ps(), 12500);
  EXPECT_EQ(parse_time("3ms").value->ps(), 3000000000LL);
  EXPECT_EQ(parse_time("2s").value->ps(), 2000000000000LL);
  EXPECT_EQ(parse_time("7ps").value->ps(), 7);
  EXPECT_EQ(parse_time("25 ns").value->ps(), 25000);
  EXPECT_EQ(parse_time("1e3ns").value->ps(), 1000000);
  EXPECT_EQ(parse_time("0.000001ms").value->ps(), 1000);
}

TEST(Units, TimeRejectsBareNumbersUnknownUnitsAndSubPicosecond) {
  auto bare = parse_time("25");
  ASSERT_FALSE(bare);
  EXPECT_EQ(bare.error, "'25' needs a time unit (one of ps, ns, us, ms, s)");
  auto unknown = parse_time("25nss");
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error.find("unknown time unit 'nss'"), std::string::npos);
  EXPECT_FALSE(parse_time("0.5ps"));
  EXPECT_FALSE(parse_time("ns"));
  EXPECT_FALSE(parse_time(""));
  EXPECT_FALSE(parse_time("25ns extra"));
  EXPECT_FALSE(parse_time("99999999999s"));  // beyond int64 picoseconds
}

TEST(Units, SizeUsesBinaryUnitsAndRejectsAmbiguousOnes) {
  EXPECT_EQ(parse_size("32KiB").value->bytes(), 32768u);
  EXPECT_EQ(parse_size("2MiB").value->bytes(), 2u << 20);
  EXPECT_EQ(parse_size("48GiB").value->bytes(), 48ull << 30);
  EXPECT_EQ(parse_size("1.5KiB").value->bytes(), 1536u);
  EXPECT_EQ(parse_size("64B").value->bytes(), 64u);
  auto mb = parse_size("2MB");
  ASSERT_FALSE(mb);
  EXPECT_NE(mb.error.find("ambiguous"), std::string::npos);
  EXPECT_NE(mb.error.find("MiB"), std::string::npos);
  EXPECT_FALSE(parse_size("0.3B"));
  EXPECT_FALSE(parse_size("-1KiB"));
  EXPECT_FALSE(parse_size("64"));
}

TEST(Units, BandwidthAndFrequency) {
  EXPECT_DOUBLE_EQ(parse_bandwidth("20.8GB/s").value->bytes_per_s(), 20.8e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth("13GB/s").value->gb_per_s(), 13.0);
  EXPECT_DOUBLE_EQ(parse_bandwidth("1GiB/s").value->bytes_per_s(), 1073741824.0);
  EXPECT_DOUBLE_EQ(parse_bandwidth("500MB/s").value->bytes_per_s(), 5e8);
  auto bits = parse_bandwidth("64Gb/s");
  ASSERT_FALSE(bits);
  EXPECT_NE(bits.error.find("bytes per second"), std::string::npos);
  EXPECT_FALSE(parse_bandwidth("20.8"));
  EXPECT_DOUBLE_EQ(parse_frequency("2.4GHz").value->hz(), 2.4e9);
  EXPECT_DOUBLE_EQ(parse_frequency("800MHz").value->hz(), 8e8);
  EXPECT_FALSE(parse_frequency("2.4Ghz"));
  EXPECT_FALSE(parse_frequency("2.4"));
}

// The sign used to be applied twice: -5GB/s read as +5 GB/s (issue 18).
TEST(Units, NegativeBandwidthsAndFrequenciesAreRefusedAndRealsKeepTheirSign) {
  const auto bw = parse_bandwidth("-5GB/s");
  ASSERT_FALSE(bw);
  EXPECT_NE(bw.error.find("a bandwidth cannot be negative"), std::string::npos);
  const auto f = parse_frequency("-2.4GHz");
  ASSERT_FALSE(f);
  EXPECT_NE(f.error.find("a frequency cannot be negative"), std::string::npos);
  EXPECT_DOUBLE_EQ(*parse_real("-0.5").value, -0.5);
  EXPECT_DOUBLE_EQ(*parse_real("+0.5").value, 0.5);
  EXPECT_DOUBLE_EQ(parse_bandwidth("+5GB/s").value->gb_per_s(), 5.0);
  EXPECT_FALSE(parse_real("nan"));
  EXPECT_FALSE(parse_real("inf"));
}

TEST(Units, PlainNumbersAndBooleans) {
  EXPECT_EQ(*parse_integer("28").value, 28);
  EXPECT_EQ(*parse_integer("-3").value, -3);
  EXPECT_EQ(*parse_integer("1e9").value, 1000000000);
  EXPECT_FALSE(parse_integer("2.5"));
  EXPECT_FALSE(parse_integer("4cores"));
  EXPECT_DOUBLE_EQ(*parse_real("0.2").value, 0.2);
  EXPECT_FALSE(parse_real("20%"));
  EXPECT_TRUE(*parse_bool("true").value);
  EXPECT_FALSE(*parse_bool("false").value);
  EXPECT_FALSE(parse_bool("yes"));
}

TEST(Units, FormattingPicksTheLargestExactUnitAndRoundTrips) {
  EXPECT_EQ(format_time(25_ns), "25ns");
  EXPECT_EQ(format_time(Time::from_ps(1200000)), "1.2us");
  EXPECT_EQ(format_time(Time::from_ps(12500)), "12.5ns");
  EXPECT_EQ(format_time(Time::from_ps(7)), "7ps");
  EXPECT_EQ(format_time(Time()), "0ns");
  EXPECT_EQ(format_size(32_KiB), "32KiB");
  EXPECT_EQ(format_size(48_GiB), "48GiB");
  EXPECT_EQ(format_size(Size::from_bytes(1536)), "1536B");
  EXPECT_EQ(format_bandwidth(Bandwidth::gbps(20.8)), "20.8GB/s");
  EXPECT_EQ(format_bandwidth(Bandwidth::from_bytes_per_s(5e8)), "500MB/s");
  EXPECT_EQ(format_frequency(Frequency::ghz(2.4)), "2.4GHz");
  for (const char* t : {"25ns", "1.2us", "12.5ns", "3ms", "7ps", "1.000001s"})
    EXPECT_EQ(parse_time(format_time(*parse_time(t).value)).value->ps(), parse_time(t).value->ps()) << t;
  for (const char* s : {"32KiB", "1536B", "48GiB", "1TiB"})
    EXPECT_EQ(parse_size(format_size(*parse_size(s).value)).value->bytes(), parse_size(s).value->bytes()) << s;
  for (const char* b : {"20.8GB/s", "13GB/s", "40GB/s", "1.5kB/s"})
    EXPECT_EQ(parse_bandwidth(format_bandwidth(*parse_bandwidth(b).value)).value->bytes_per_s(),
              parse_bandwidth(b).value->bytes_per_s())
        << b;
}

TEST(Units, TimeConvertsToSystemC) { EXPECT_EQ(Time::from_ps(12500).to_sc(), sc_core::sc_time(12.5, sc_core::SC_NS)); }

}  // namespace
}  // namespace starnuma
