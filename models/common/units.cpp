#include "units.hpp"

#include <array>
#include <cmath>
#include <variant>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <limits>

namespace starnuma {

const char* const kTimeUnits = "ps, ns, us, ms, s";
const char* const kSizeUnits = "B, KiB, MiB, GiB, TiB";
const char* const kBandwidthUnits = "B/s, kB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s";
const char* const kFrequencyUnits = "Hz, kHz, MHz, GHz";

namespace {

__extension__ typedef unsigned __int128 u128;

// A decimal number as written: value = (negative ? -1 : 1) * digits * 10^exp10, exactly.
struct Decimal {
  bool negative = false;
  u128 digits = 0;
  int exp10 = 0;
  std::string_view text;  // the number part of the input
  std::string_view unit;  // what follows it (one optional space skipped)
};

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

// Splits "20.8GB/s" into number and unit; fails on anything that does not start with a number.
std::optional<Decimal> split_decimal(std::string_view s) {
  Decimal d;
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) d.negative = s[i++] == '-';
  size_t significant = 0;
  bool any_digit = false;
  auto take_digit = [&](char c) -> bool {
    if (significant >= 36) return false;  // beyond what u128 holds exactly
    d.digits = d.digits * 10 + static_cast<unsigned>(c - '0');
    if (d.digits != 0) ++significant;
    return true;
  };
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    if (!take_digit(s[i++])) return std::nullopt;
    any_digit = true;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      if (!take_digit(s[i++])) return std::nullopt;
      --d.exp10;
      any_digit = true;
    }
  }
  if (!any_digit) return std::nullopt;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E') && i + 1 < s.size() &&
      (std::isdigit(static_cast<unsigned char>(s[i + 1])) ||
       ((s[i + 1] == '+' || s[i + 1] == '-') && i + 2 < s.size() &&
        std::isdigit(static_cast<unsigned char>(s[i + 2]))))) {
    ++i;
    bool neg = false;
    if (s[i] == '+' || s[i] == '-') neg = s[i++] == '-';
    int e = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      e = e * 10 + (s[i++] - '0');
      if (e > 400) return std::nullopt;
    }
    d.exp10 += neg ? -e : e;
  }
  d.text = s.substr(0, i);
  if (i < s.size() && s[i] == ' ') ++i;
  d.unit = s.substr(i);
  return d;
}

// digits * 10^exp10 * multiplier as an exact integer, if it is one and fits in int64.
std::optional<int64_t> exact_integer(const Decimal& d, u128 multiplier, int extra_exp10) {
  u128 v = d.digits;
  if (v != 0 && multiplier > std::numeric_limits<u128>::max() / v) return std::nullopt;
  v *= multiplier;
  int e = d.exp10 + extra_exp10;
  for (; e > 0; --e) {
    if (v > std::numeric_limits<u128>::max() / 10) return std::nullopt;
    v *= 10;
  }
  for (; e < 0; ++e) {
    if (v % 10 != 0) return std::nullopt;
    v /= 10;
  }
  if (v > static_cast<u128>(std::numeric_limits<int64_t>::max())) return std::nullopt;
  int64_t r = static_cast<int64_t>(v);
  return d.negative ? -r : r;
}

// The magnitude (the sign is `negative`'s).
double to_double(const Decimal& d) {
  double v = 0;
  std::string_view t = d.text;
  if (!t.empty() && (t.front() == '+' || t.front() == '-')) t.remove_prefix(1);
  std::from_chars(t.data(), t.data() + t.size(), v);
  return v;
}

struct UnitSpec {
  const char* name;
  double scale;     // for real-valued quantities
  u128 multiplier;  // for exact quantities
  int exp10;        // for exact quantities
};

const UnitSpec* find_unit(std::string_view unit, const UnitSpec* begin, const UnitSpec* end) {
  for (const UnitSpec* u = begin; u != end; ++u)
    if (unit == u->name) return u;
  return nullptr;
}

constexpr std::array<UnitSpec, 5> kTime{
    {{"ps", 1e-12, 1, 0}, {"ns", 1e-9, 1, 3}, {"us", 1e-6, 1, 6}, {"ms", 1e-3, 1, 9}, {"s", 1, 1, 12}}};
constexpr std::array<UnitSpec, 5> kSize{{{"B", 1, 1, 0},
                                         {"KiB", 0, u128(1) << 10, 0},
                                         {"MiB", 0, u128(1) << 20, 0},
                                         {"GiB", 0, u128(1) << 30, 0},
                                         {"TiB", 0, u128(1) << 40, 0}}};
constexpr std::array<UnitSpec, 8> kBandwidth{{{"B/s", 1, 0, 0},
                                              {"kB/s", 1e3, 0, 0},
                                              {"MB/s", 1e6, 0, 0},
                                              {"GB/s", 1e9, 0, 0},
                                              {"TB/s", 1e12, 0, 0},
                                              {"KiB/s", 1024.0, 0, 0},
                                              {"MiB/s", 1048576.0, 0, 0},
                                              {"GiB/s", 1073741824.0, 0, 0}}};
constexpr std::array<UnitSpec, 4> kFrequency{
    {{"Hz", 1, 0, 0}, {"kHz", 1e3, 0, 0}, {"MHz", 1e6, 0, 0}, {"GHz", 1e9, 0, 0}}};

// Shared front half of every unit parse: a number, then a unit from the table.
template <size_t N>
std::variant<std::string, std::pair<Decimal, const UnitSpec*>> number_and_unit(std::string_view text,
                                                                               const char* quantity,
                                                                               const std::array<UnitSpec, N>& table,
                                                                               const char* unit_list,
                                                                               const char* example) {
  auto d = split_decimal(text);
  if (!d)
    return quoted(text) + " is not a " + quantity + " (expected a number followed by a unit, e.g. " + example + ")";
  if (d->unit.empty()) return quoted(text) + " needs a " + quantity + " unit (one of " + unit_list + ")";
  const UnitSpec* u = find_unit(d->unit, table.data(), table.data() + N);
  if (!u)
    return quoted(text) + ": unknown " + quantity + " unit " + quoted(d->unit) + " (expected one of " + unit_list + ")";
  return std::make_pair(*d, u);
}

std::string trim_decimal(std::string s) {
  if (s.find('.') == std::string::npos) return s;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

// |value| / 10^shift as an exact decimal string.
std::string exact_decimal(int64_t value, int shift) {
  bool neg = value < 0;
  uint64_t v = neg ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  std::string digits = std::to_string(v);
  if (shift > 0) {
    if (static_cast<int>(digits.size()) <= shift)
      digits.insert(0, static_cast<size_t>(shift - static_cast<int>(digits.size()) + 1), '0');
    digits.insert(digits.size() - static_cast<size_t>(shift), ".");
  }
  return (neg ? "-" : "") + trim_decimal(digits);
}

std::string shortest(double v) {
  std::array<char, 64> buf{};
  auto r = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  return std::string(buf.data(), r.ptr);
}

// `units` lists decimal units from the smallest; the largest with |v| >= its scale is used.
std::string format_scaled(double v, const UnitSpec* units, size_t count) {
  size_t i = count - 1;
  while (i > 0 && std::abs(v) < units[i].scale) --i;
  return shortest(v / units[i].scale) + units[i].name;
}

}  // namespace

Parsed<Time> parse_time(std::string_view text) {
  auto r = number_and_unit(text, "time", kTime, kTimeUnits, "25ns");
  if (auto* e = std::get_if<std::string>(&r)) return Parsed<Time>::fail(*e);
  auto& [d, u] = std::get<1>(r);
  auto ps = exact_integer(d, 1, u->exp10);
  if (!ps) return Parsed<Time>::fail(quoted(text) + " is finer than the 1 ps resolution or too large");
  return Parsed<Time>::ok(Time::from_ps(*ps));
}

Parsed<Size> parse_size(std::string_view text) {
  auto d = split_decimal(text);
  if (d && (d->unit == "kB" || d->unit == "KB" || d->unit == "MB" || d->unit == "GB" || d->unit == "TB")) {
    std::string iec = std::string(1, static_cast<char>(std::toupper(d->unit[0]))) + "iB";
    return Parsed<Size>::fail(quoted(text) + ": " + quoted(d->unit) + " is ambiguous for a size; write " + iec +
                              " (powers of 1024)");
  }
  auto r = number_and_unit(text, "size", kSize, kSizeUnits, "32KiB");
  if (auto* e = std::get_if<std::string>(&r)) return Parsed<Size>::fail(*e);
  auto& [dec, u] = std::get<1>(r);
  if (dec.negative && dec.digits != 0) return Parsed<Size>::fail(quoted(text) + ": a size cannot be negative");
  auto bytes = exact_integer(dec, u->multiplier, 0);
  if (!bytes) return Parsed<Size>::fail(quoted(text) + " is not a whole number of bytes or is too large");
  return Parsed<Size>::ok(Size::from_bytes(static_cast<uint64_t>(*bytes)));
}

Parsed<Bandwidth> parse_bandwidth(std::string_view text) {
  auto d = split_decimal(text);
  if (d && (d->unit == "Gb/s" || d->unit == "Gbit/s" || d->unit == "Mb/s" || d->unit == "Gbps"))
    return Parsed<Bandwidth>::fail(quoted(text) + ": bandwidth is in bytes per second; write GB/s (1 GB/s = 8 Gbit/s)");
  auto r = number_and_unit(text, "bandwidth", kBandwidth, kBandwidthUnits, "20.8GB/s");
  if (auto* e = std::get_if<std::string>(&r)) return Parsed<Bandwidth>::fail(*e);
  auto& [dec, u] = std::get<1>(r);
  if (dec.negative && dec.digits != 0)
    return Parsed<Bandwidth>::fail(quoted(text) + ": a bandwidth cannot be negative");
  return Parsed<Bandwidth>::ok(Bandwidth::from_bytes_per_s(to_double(dec) * u->scale));
}

Parsed<Frequency> parse_frequency(std::string_view text) {
  auto r = number_and_unit(text, "frequency", kFrequency, kFrequencyUnits, "2.4GHz");
  if (auto* e = std::get_if<std::string>(&r)) return Parsed<Frequency>::fail(*e);
  auto& [dec, u] = std::get<1>(r);
  if (dec.negative && dec.digits != 0)
    return Parsed<Frequency>::fail(quoted(text) + ": a frequency cannot be negative");
  return Parsed<Frequency>::ok(Frequency::from_hz(to_double(dec) * u->scale));
}

Parsed<int64_t> parse_integer(std::string_view text) {
  auto d = split_decimal(text);
  if (!d || !d->unit.empty()) return Parsed<int64_t>::fail(quoted(text) + " is not an integer");
  auto v = exact_integer(*d, 1, 0);
  if (!v) {
    bool fractional = d->exp10 < 0 && exact_integer(Decimal{false, d->digits, 0, {}, {}}, 1, 0).has_value();
    return Parsed<int64_t>::fail(quoted(text) + (fractional ? " is not a whole number" : " is too large"));
  }
  return Parsed<int64_t>::ok(*v);
}

Parsed<double> parse_real(std::string_view text) {
  auto d = split_decimal(text);
  if (!d || !d->unit.empty()) return Parsed<double>::fail(quoted(text) + " is not a number");
  return Parsed<double>::ok(to_double(*d) * (d->negative ? -1 : 1));
}

Parsed<bool> parse_bool(std::string_view text) {
  if (text == "true") return Parsed<bool>::ok(true);
  if (text == "false") return Parsed<bool>::ok(false);
  return Parsed<bool>::fail(quoted(text) + " is not a boolean (write true or false)");
}

std::string format_time(Time t) {
  int64_t ps = t.ps();
  if (ps == 0) return "0ns";
  for (size_t i = kTime.size(); i-- > 0;) {
    int64_t unit = 1;
    for (int k = 0; k < kTime[i].exp10; ++k) unit *= 10;
    if (std::llabs(ps) >= unit || i == 0) return exact_decimal(ps, kTime[i].exp10) + kTime[i].name;
  }
  return std::to_string(ps) + "ps";
}

std::string format_size(Size s) {
  uint64_t b = s.bytes();
  for (size_t i = kSize.size(); i-- > 1;) {
    uint64_t unit = static_cast<uint64_t>(kSize[i].multiplier);
    if (b != 0 && b % unit == 0) return std::to_string(b / unit) + kSize[i].name;
  }
  return std::to_string(b) + "B";
}

std::string format_bandwidth(Bandwidth b) { return format_scaled(b.bytes_per_s(), kBandwidth.data(), 5); }
std::string format_frequency(Frequency f) { return format_scaled(f.hz(), kFrequency.data(), kFrequency.size()); }
std::string format_real(double v) { return shortest(v); }

}  // namespace starnuma
