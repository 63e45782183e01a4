// SA-IS: classify suffixes as S (smaller than the next suffix) or L, sort the LMS substrings by
// induced sorting, name them, sort the reduced string (recursively if names repeat), then induce
// the whole order from the sorted LMS suffixes.
#include "stimulus/genomics/suffix_array.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace starnuma::genomics {

namespace {

constexpr uint32_t kEmpty = ~uint32_t{0};

template <class Char>
class Sais {
 public:
  Sais(const Char* s, uint32_t* sa, uint32_t n, uint32_t k) : s_(s), sa_(sa), n_(n), type_(n), bucket_(k) {}

  void run() {
    type_[n_ - 1] = true;  // the sentinel is S
    for (uint32_t i = n_ - 1; i-- > 0;) type_[i] = s_[i] < s_[i + 1] || (s_[i] == s_[i + 1] && type_[i + 1]);
    // 1. Sort the LMS substrings: LMS positions at their buckets' ends, then induce.
    std::fill(sa_, sa_ + n_, kEmpty);
    ends();
    for (uint32_t i = 1; i < n_; ++i)
      if (lms(i)) sa_[--bucket_[s_[i]]] = i;
    induce();
    // 2. Name them: equal LMS substrings get equal names, in sorted order.
    uint32_t n1 = 0;
    for (uint32_t i = 0; i < n_; ++i)
      if (lms(sa_[i])) sa_[n1++] = sa_[i];
    std::fill(sa_ + n1, sa_ + n_, kEmpty);
    uint32_t names = 0, previous = kEmpty;
    for (uint32_t i = 0; i < n1; ++i) {
      const uint32_t at = sa_[i];
      if (previous == kEmpty || !same_substring(at, previous)) ++names;
      previous = at;
      sa_[n1 + at / 2] = names - 1;  // LMS positions are at least 2 apart
    }
    // The reduced string: the names in text order, packed at the end of sa.
    uint32_t* reduced = sa_ + n_ - n1;
    for (uint32_t i = n_, j = n_; i-- > n1;)
      if (sa_[i] != kEmpty) sa_[--j] = sa_[i];
    // 3. Sort the reduced string's suffixes: recursively unless every name is distinct.
    if (names < n1) {
      Sais<uint32_t>(reduced, sa_, n1, names).run();
    } else {
      for (uint32_t i = 0; i < n1; ++i) sa_[reduced[i]] = i;
    }
    // 4. Induce the suffix array from the sorted LMS suffixes.
    for (uint32_t i = 1, j = 0; i < n_; ++i)
      if (lms(i)) reduced[j++] = i;
    for (uint32_t i = 0; i < n1; ++i) sa_[i] = reduced[sa_[i]];
    std::fill(sa_ + n1, sa_ + n_, kEmpty);
    ends();
    for (uint32_t i = n1; i-- > 0;) {
      const uint32_t at = sa_[i];
      sa_[i] = kEmpty;
      sa_[--bucket_[s_[at]]] = at;
    }
    induce();
  }

 private:
  bool lms(uint32_t i) const { return i != kEmpty && i > 0 && type_[i] && !type_[i - 1]; }
  void counts() {
    std::fill(bucket_.begin(), bucket_.end(), 0);
    for (uint32_t i = 0; i < n_; ++i) ++bucket_[s_[i]];
  }
  void starts() {
    counts();
    uint32_t sum = 0;
    for (uint32_t& b : bucket_) sum += std::exchange(b, sum);
  }
  void ends() {
    counts();
    uint32_t sum = 0;
    for (uint32_t& b : bucket_) b = sum += b;
  }
  // L suffixes from left to right, then S suffixes from right to left.
  void induce() {
    starts();
    for (uint32_t i = 0; i < n_; ++i)
      if (sa_[i] != kEmpty && sa_[i] > 0 && !type_[sa_[i] - 1]) sa_[bucket_[s_[sa_[i] - 1]]++] = sa_[i] - 1;
    ends();
    for (uint32_t i = n_; i-- > 0;)
      if (sa_[i] != kEmpty && sa_[i] > 0 && type_[sa_[i] - 1]) sa_[--bucket_[s_[sa_[i] - 1]]] = sa_[i] - 1;
  }
  bool same_substring(uint32_t a, uint32_t b) const {
    for (uint32_t d = 0;; ++d) {
      if (a + d == n_ || b + d == n_ || s_[a + d] != s_[b + d] || type_[a + d] != type_[b + d]) return false;
      if (d > 0 && (lms(a + d) || lms(b + d))) return lms(a + d) && lms(b + d);
    }
  }

  const Char* s_;
  uint32_t* sa_;
  uint32_t n_;
  std::vector<bool> type_;  // true: S
  std::vector<uint32_t> bucket_;
};

}  // namespace

std::vector<uint32_t> suffix_array(const std::vector<uint8_t>& text, unsigned alphabet) {
  if (text.empty() || text.back() != 0 || text.size() >= kEmpty)
    throw std::invalid_argument("suffix_array: the text must end with a unique 0 and be shorter than 2^32 - 1");
  std::vector<uint32_t> sa(text.size());
  if (text.size() == 1) return sa;
  Sais<uint8_t>(text.data(), sa.data(), static_cast<uint32_t>(text.size()), alphabet).run();
  return sa;
}

}  // namespace starnuma::genomics
