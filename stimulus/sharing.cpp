// `sharing`: pages with a given distribution of sharer counts, the pattern behind StarNUMA's
// vagabond pages (Fig. 2). Each page gets a number of sharing sockets k drawn from `sharers` and a
// random set of k sockets; a thread reads and writes random lines of its socket's pages, choosing a
// page with weight k^hotness, so widely shared pages take most accesses. The defaults approximate
// the paper's BFS: 17 % of pages have one sharer, 7 % more than eight (2 % all 16), and those take
// about two thirds of the accesses (docs/workloads.md).
#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <vector>

#include "common/host_prefetch.hpp"
#include "common/text.hpp"
#include "stimulus/weight_index.hpp"
#include "stimulus/layout.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {

using namespace literals;

namespace {

constexpr uint64_t kSharingBase = uint64_t{1} << 34;

struct SharingLayout {
  std::vector<uint8_t> sharers;              // per page: how many sockets share it
  std::vector<std::vector<uint32_t>> pages;  // per socket: the pages it shares
  std::vector<WeightIndex> weights;          // per socket: its pages' cumulative weights
};

class SharingStream : public ThreadStream {
 public:
  SharingStream(const SharingLayout& layout, unsigned socket, double store_fraction, uint32_t gap, uint64_t operations,
                uint64_t seed)
      : pages_(layout.pages[socket]),
        weights_(layout.weights[socket]),
        store_fraction_(store_fraction),
        gap_(gap),
        operations_(operations),
        rng_(seed) {}
  // Each operation draws its page, whether it stores, and its line, in that order. The draws of a
  // batch are made first and their pages looked up in stages, each stage prefetching what the next
  // reads, so the lookups' host cache misses overlap; the operations are those drawn one by one.
  size_t fill(StreamOp* out, size_t max) override {
    if (pages_.empty()) return 0;
    size_t n = 0;
    const double total = weights_.total();
    while (n < max && done_ < operations_) {
      const size_t m = static_cast<size_t>(std::min<uint64_t>({kBatch, max - n, operations_ - done_}));
      for (size_t k = 0; k < m; ++k) {
        Draw& d = batch_[k];
        d.u = unit() * total;
        d.store = unit() < store_fraction_;
        d.line = rng_() % (kPageBytes / kLineBytes);
        d.slice = weights_.slice(d.u);
        weights_.prefetch_slice(d.slice);
      }
      for (size_t k = 0; k < m; ++k) weights_.prefetch_weights(batch_[k].slice);
      for (size_t k = 0; k < m; ++k) {
        Draw& d = batch_[k];
        d.page = std::min(weights_.find_in_slice(d.slice, d.u), pages_.size() - 1);
        host_prefetch(&pages_[d.page]);
      }
      for (size_t k = 0; k < m; ++k) {
        const Draw& d = batch_[k];
        out[n + k] = StreamOp{d.store ? StreamOp::Kind::Store : StreamOp::Kind::Load, false, false, gap_,
                              kSharingBase + uint64_t{pages_[d.page]} * kPageBytes + d.line * kLineBytes};
      }
      n += m;
      done_ += m;
    }
    return n;
  }

 private:
  double unit() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }
  const std::vector<uint32_t>& pages_;
  const WeightIndex& weights_;
  double store_fraction_;
  uint32_t gap_;
  uint64_t operations_, done_ = 0;
  std::mt19937_64 rng_;
  struct Draw {
    double u;
    size_t slice;  // of the weights, where u falls
    size_t page;   // the index in pages_ it lands on
    uint64_t line;
    bool store;
  };
  static constexpr uint64_t kBatch = 16;
  Draw batch_[kBatch];
};

class Sharing : public Workload {
 public:
  Sharing(SharingLayout layout, unsigned threads, unsigned sockets, double store_fraction, uint32_t gap,
          uint64_t operations, uint64_t seed)
      : layout_(std::move(layout)),
        threads_(threads),
        sockets_(sockets),
        store_fraction_(store_fraction),
        gap_(gap),
        operations_(operations),
        seed_(seed) {}
  unsigned threads() const override { return threads_; }
  uint64_t footprint() const override { return layout_.sharers.size() * kPageBytes; }
  std::unique_ptr<ThreadStream> stream(unsigned t) const override {
    // Threads are placed on sockets in order, equally many each.
    const unsigned socket = static_cast<unsigned>(static_cast<uint64_t>(t) * sockets_ / threads_);
    return std::make_unique<SharingStream>(layout_, socket, store_fraction_, gap_, operations_, thread_seed(seed_, t));
  }
  const SharingLayout& layout() const { return layout_; }

 private:
  SharingLayout layout_;
  unsigned threads_, sockets_;
  double store_fraction_;
  uint32_t gap_;
  uint64_t operations_, seed_;
};

class SharingSpec : public WorkloadSpec {
 public:
  explicit SharingSpec(const ScopeContext& c) : WorkloadSpec(c) { parse_distribution(); }

  std::unique_ptr<Workload> create(unsigned threads, unsigned sockets, uint64_t seed) const override {
    for (const auto& [k, p] : distribution_)
      if (k > sockets)
        report_error(msg::kConfig, "sharing: pages with " + std::to_string(k) + " sharers need " + std::to_string(k) +
                                       " sockets; the platform has " + std::to_string(sockets));
    SharingLayout layout;
    layout.pages.resize(sockets);
    std::vector<std::vector<double>> cumulative(sockets);
    std::mt19937_64 rng(thread_seed(seed, 0xffffffffu));
    std::vector<unsigned> order(sockets);
    for (uint32_t page = 0; page < pages_; ++page) {
      double u = static_cast<double>(rng() >> 11) * 0x1.0p-53, acc = 0;
      unsigned k = distribution_.back().first;
      for (const auto& [count, p] : distribution_)
        if (u < (acc += p)) {
          k = count;
          break;
        }
      layout.sharers.push_back(static_cast<uint8_t>(k));
      std::iota(order.begin(), order.end(), 0u);
      for (unsigned i = 0; i < k; ++i) std::swap(order[i], order[i + rng() % (sockets - i)]);
      const double weight = std::pow(static_cast<double>(k), hotness_);
      for (unsigned i = 0; i < k; ++i) {
        const unsigned s = order[i];
        layout.pages[s].push_back(page);
        cumulative[s].push_back((cumulative[s].empty() ? 0.0 : cumulative[s].back()) + weight);
      }
    }
    for (std::vector<double>& c : cumulative) layout.weights.emplace_back(std::move(c));
    return std::make_unique<Sharing>(std::move(layout), threads, sockets, store_fraction_, instructions_, operations_,
                                     seed);
  }

 private:
  // "1:0.17,2:0.3,..." -> (sharers, probability), checked to be a distribution.
  void parse_distribution() {
    const ConfigNode* at = config() ? config()->find("sharers") : nullptr;
    std::istringstream in(sharers_.get());
    std::string item;
    double total = 0;
    while (std::getline(in, item, ',')) {
      const size_t colon = item.find(':');
      auto k = colon == std::string::npos ? Parsed<int64_t>::fail("") : parse_integer(item.substr(0, colon));
      auto p = colon == std::string::npos ? Parsed<double>::fail("") : parse_real(item.substr(colon + 1));
      if (!k || !p || *k.value < 1 || *k.value > 255 || *p.value < 0) {
        error(at, "sharers", "'" + item + "' is not SHARERS:FRACTION (e.g. 16:0.02)");
        return;
      }
      distribution_.emplace_back(static_cast<unsigned>(*k.value), *p.value);
      total += *p.value;
    }
    if (distribution_.empty() || std::abs(total - 1.0) > 1e-6)
      error(at, "sharers", "the fractions add up to " + format_real(total) + ", not 1");
  }

  Param<uint32_t> pages_{*this, "pages", 16384u, "Pages of shared data (4 KiB each)", between(1u, 1u << 28)};
  Param<std::string> sharers_{*this, "sharers", "1:0.17,2:0.30,4:0.31,8:0.15,12:0.05,16:0.02",
                              "Distribution of the number of sockets sharing a page, SHARERS:FRACTION,..."};
  Param<double> hotness_{*this, "hotness", 2.2, "A page with k sharers is chosen with weight k^hotness",
                         between(0.0, 10.0)};
  Param<double> store_fraction_{*this, "store_fraction", 0.25, "Fraction of memory operations that are stores",
                                between(0.0, 1.0)};
  Param<uint32_t> instructions_{*this, "instructions", 4u, "Non-memory instructions between memory operations",
                                between(0u, 100000u)};
  Param<uint64_t> operations_{*this, "operations", uint64_t{1} << 40, "Memory operations per thread",
                              between(uint64_t{1}, uint64_t{1} << 50)};
  std::vector<std::pair<unsigned, double>> distribution_;
};

}  // namespace

STARNUMA_REGISTER_WORKLOAD(
    SharingSpec, "sharing",
    "Pages shared by a given distribution of socket counts; widely shared pages are the hottest");

}  // namespace starnuma
