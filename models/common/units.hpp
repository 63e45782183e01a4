// Physical quantities used by parameters: time, size, bandwidth, frequency.
// Values in YAML always carry a unit ("25ns", "32KiB", "20.8GB/s", "2.4GHz"); a bare number where
// a unit is required is an error. Time and size are exact integers (picoseconds, bytes) so that
// parsing never rounds; bandwidth and frequency are doubles.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <systemc>

namespace starnuma {

// Comparisons shared by the quantities, on their raw value.
template <class Q>
struct Ordered {
  friend constexpr bool operator==(Q a, Q b) { return a.raw() == b.raw(); }
  friend constexpr bool operator!=(Q a, Q b) { return a.raw() != b.raw(); }
  friend constexpr bool operator<(Q a, Q b) { return a.raw() < b.raw(); }
  friend constexpr bool operator<=(Q a, Q b) { return a.raw() <= b.raw(); }
  friend constexpr bool operator>(Q a, Q b) { return a.raw() > b.raw(); }
  friend constexpr bool operator>=(Q a, Q b) { return a.raw() >= b.raw(); }
};

class Time : public Ordered<Time> {
 public:
  constexpr Time() = default;
  static constexpr Time from_ps(int64_t ps) { return Time(ps); }
  static constexpr Time from_ns(int64_t ns) { return Time(ns * 1000); }
  constexpr int64_t ps() const { return ps_; }
  constexpr int64_t raw() const { return ps_; }
  constexpr double ns() const { return static_cast<double>(ps_) / 1e3; }
  sc_core::sc_time to_sc() const { return sc_core::sc_time(static_cast<double>(ps_), sc_core::SC_PS); }

  constexpr Time operator+(Time o) const { return Time(ps_ + o.ps_); }
  constexpr Time operator-(Time o) const { return Time(ps_ - o.ps_); }
  constexpr Time operator*(int64_t k) const { return Time(ps_ * k); }

 private:
  constexpr explicit Time(int64_t ps) : ps_(ps) {}
  int64_t ps_ = 0;
};

class Size : public Ordered<Size> {
 public:
  constexpr Size() = default;
  static constexpr Size from_bytes(uint64_t b) { return Size(b); }
  static constexpr Size kib(uint64_t k) { return Size(k << 10); }
  static constexpr Size mib(uint64_t m) { return Size(m << 20); }
  static constexpr Size gib(uint64_t g) { return Size(g << 30); }
  constexpr uint64_t bytes() const { return bytes_; }
  constexpr uint64_t raw() const { return bytes_; }

 private:
  constexpr explicit Size(uint64_t b) : bytes_(b) {}
  uint64_t bytes_ = 0;
};

class Bandwidth : public Ordered<Bandwidth> {
 public:
  constexpr Bandwidth() = default;
  static constexpr Bandwidth from_bytes_per_s(double v) { return Bandwidth(v); }
  static constexpr Bandwidth gbps(double gb_per_s) { return Bandwidth(gb_per_s * 1e9); }
  constexpr double bytes_per_s() const { return v_; }
  constexpr double gb_per_s() const { return v_ / 1e9; }
  constexpr double raw() const { return v_; }

 private:
  constexpr explicit Bandwidth(double v) : v_(v) {}
  double v_ = 0;
};

class Frequency : public Ordered<Frequency> {
 public:
  constexpr Frequency() = default;
  static constexpr Frequency from_hz(double hz) { return Frequency(hz); }
  static constexpr Frequency ghz(double g) { return Frequency(g * 1e9); }
  constexpr double hz() const { return hz_; }
  constexpr double raw() const { return hz_; }

 private:
  constexpr explicit Frequency(double hz) : hz_(hz) {}
  double hz_ = 0;
};

// A parse either yields a value or says, in one sentence, what is wrong with the text.
template <class T>
struct Parsed {
  std::optional<T> value;
  std::string error;
  static Parsed ok(T v) { return Parsed{std::move(v), {}}; }
  static Parsed fail(std::string e) { return Parsed{std::nullopt, std::move(e)}; }
  explicit operator bool() const { return value.has_value(); }
};

Parsed<Time> parse_time(std::string_view text);
Parsed<Size> parse_size(std::string_view text);
Parsed<Bandwidth> parse_bandwidth(std::string_view text);
Parsed<Frequency> parse_frequency(std::string_view text);
Parsed<int64_t> parse_integer(std::string_view text);
Parsed<double> parse_real(std::string_view text);
Parsed<bool> parse_bool(std::string_view text);

// Canonical text: the largest unit that shows the value exactly (time, size) or with at most six
// significant digits (bandwidth, frequency). format_x(parse_x(s)) parses back to the same value.
std::string format_time(Time t);
std::string format_size(Size s);
std::string format_bandwidth(Bandwidth b);
std::string format_frequency(Frequency f);
std::string format_real(double v);

// The unit names each quantity accepts, for error messages and the YAML reference.
extern const char* const kTimeUnits;
extern const char* const kSizeUnits;
extern const char* const kBandwidthUnits;
extern const char* const kFrequencyUnits;

namespace literals {
constexpr Time operator""_ps(unsigned long long v) { return Time::from_ps(static_cast<int64_t>(v)); }
constexpr Time operator""_ns(unsigned long long v) { return Time::from_ps(static_cast<int64_t>(v) * 1000); }
constexpr Time operator""_us(unsigned long long v) { return Time::from_ps(static_cast<int64_t>(v) * 1000000); }
constexpr Size operator""_B(unsigned long long v) { return Size::from_bytes(v); }
constexpr Size operator""_KiB(unsigned long long v) { return Size::kib(v); }
constexpr Size operator""_MiB(unsigned long long v) { return Size::mib(v); }
constexpr Size operator""_GiB(unsigned long long v) { return Size::gib(v); }
}  // namespace literals

}  // namespace starnuma
