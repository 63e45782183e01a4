#include "bench_common.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace starnuma::bench {
namespace {

bool plusarg(const char* arg, const char* name, const char** value) {
  const size_t n = std::strlen(name);
  if (std::strncmp(arg, name, n) != 0) return false;
  if (arg[n] == '\0') {
    *value = nullptr;
    return true;
  }
  if (arg[n] != '=') return false;
  *value = arg + n + 1;
  return true;
}

uint64_t number(const char* bench, const char* arg, const char* value) {
  char* end = nullptr;
  const unsigned long long v = value ? std::strtoull(value, &end, 10) : 0;
  if (!value || *value == '\0' || *end != '\0') {
    std::fprintf(stderr, "%s: %s needs a number\n", bench, arg);
    std::exit(2);
  }
  return v;
}

uint64_t splitmix(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

Options parse_options(int argc, char** argv, const char* bench) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    const char* v = nullptr;
    if (plusarg(a, "+seed", &v)) o.seed = number(bench, a, v);
    else if (plusarg(a, "+width", &v)) o.width = static_cast<unsigned>(number(bench, a, v));
    else if (plusarg(a, "+cycles", &v)) o.cycles = number(bench, a, v);
    else if (plusarg(a, "+trace", &v)) {
      o.trace = true;
      if (v) o.trace_file = v;
    } else if (std::strncmp(a, "+verilator+", 11) != 0) {
      std::fprintf(stderr,
                   "%s: unknown argument '%s'\n"
                   "usage: %s [+seed=N] [+width=0|1|4|8|16] [+cycles=N] [+trace[=file.fst]]\n",
                   bench, a, bench);
      std::exit(2);
    }
  }
  return o;
}

Rng::Rng(uint64_t seed) {
  for (uint64_t& s : s_) s = splitmix(seed);
}

uint64_t Rng::next() {
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

int Coverage::add(const char* name, bool applicable) {
  points_.push_back({name, applicable});
  return static_cast<int>(points_.size()) - 1;
}

double Coverage::percent() const {
  unsigned total = 0, hit = 0;
  for (const Point& p : points_) {
    if (!p.applicable) continue;
    ++total;
    hit += p.hits > 0;
  }
  return total ? 100.0 * hit / total : 100.0;
}

bool Coverage::complete() const {
  for (const Point& p : points_)
    if (p.applicable && p.hits == 0) return false;
  return true;
}

void Coverage::report() const {
  for (const Point& p : points_) {
    if (!p.applicable) std::printf("  coverage %-28s n/a\n", p.name.c_str());
    else
      std::printf("  coverage %-28s %10llu%s\n", p.name.c_str(), static_cast<unsigned long long>(p.hits),
                  p.hits ? "" : "   <- MISSED");
  }
}

void Scoreboard::check(bool ok, const std::string& what) {
  ++checked_;
  if (ok) return;
  if (++errors_ <= 10) std::printf("MISMATCH: %s\n", what.c_str());
}

int summarize(const char* bench, const Options& o, const Scoreboard& sb, const Coverage& cov, uint64_t transactions,
              bool rtl_assertion_failed) {
  cov.report();
  const bool pass = sb.errors() == 0 && !rtl_assertion_failed && cov.complete();
  const char* why = sb.errors()            ? " (scoreboard mismatches)"
                    : rtl_assertion_failed ? " (RTL assertion failed)"
                    : !cov.complete()      ? " (coverage incomplete)"
                                           : "";
  std::printf("%s T%u seed=%llu: %s%s, %llu transactions, %llu checks, %llu errors, coverage %.1f%%\n", bench, o.width,
              static_cast<unsigned long long>(o.seed), pass ? "PASS" : "FAIL", why,
              static_cast<unsigned long long>(transactions), static_cast<unsigned long long>(sb.checked()),
              static_cast<unsigned long long>(sb.errors()), cov.percent());
  return pass ? 0 : 1;
}

}  // namespace starnuma::bench
