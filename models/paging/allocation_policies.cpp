// The built-in allocation policies: the multi-chip placement paper's FT, PI, HY and UA, and the CXL
// pooling paper's composed memory (weighted).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "paging/allocation_policy.hpp"
#include "paging/page_map.hpp"

namespace starnuma {
namespace {

constexpr size_t kNone = static_cast<size_t>(-1);

// A per-socket cursor over the nodes, round-robin: the next node from `socket`'s cursor that
// `eligible` accepts, the cursor left after it; npos when none does.
class RoundRobin {
 public:
  explicit RoundRobin(size_t sockets) : next_(sockets, 0) {}
  template <class Eligible>
  size_t next(const PageMap& pages, size_t socket, Eligible eligible) {
    size_t& next = next_.at(socket);
    for (size_t tried = 0; tried < pages.nodes().size(); ++tried) {
      const size_t node = next;
      next = (next + 1) % pages.nodes().size();
      if (eligible(node)) return node;
    }
    return kNone;
  }

 private:
  std::vector<size_t> next_;
};

// FT: the toucher's node, then the nearest with room (Linux's fallback list).
class FirstTouch : public AllocationPolicy {
 public:
  explicit FirstTouch(const AllocationSetup&) {}
  size_t node(const PageMap& pages, size_t socket) override { return pages.first_touch_node(socket); }
};

// PI: round-robin over every node first touch may use.
class Interleave : public AllocationPolicy {
 public:
  explicit Interleave(const AllocationSetup& s) : cursor_(s.sockets) {}
  size_t node(const PageMap& pages, size_t socket) override {
    return cursor_.next(pages, socket, [&](size_t n) { return pages.may_take(socket, n) && pages.reaches(socket, n); });
  }

 private:
  RoundRobin cursor_;
};

// HY: the toucher's node, then round-robin over the others once it is full.
class Hybrid : public AllocationPolicy {
 public:
  explicit Hybrid(const AllocationSetup& s) : cursor_(s.sockets) {}
  size_t node(const PageMap& pages, size_t socket) override {
    const size_t local = pages.fallback(socket).front();
    if (pages.may_take(socket, local)) return local;
    return cursor_.next(pages, socket,
                        [&](size_t n) { return n != local && pages.may_take(socket, n) && pages.reaches(socket, n); });
  }

 private:
  RoundRobin cursor_;
};

// UA: the toucher's node, then the least used by share of capacity (used/capacity compared as
// cross products, exactly); ties go to the nearer node.
class UsageAware : public AllocationPolicy {
 public:
  explicit UsageAware(const AllocationSetup&) {}
  size_t node(const PageMap& pages, size_t socket) override {
    const size_t local = pages.fallback(socket).front();
    if (pages.may_take(socket, local)) return local;
    const auto capacity = [&](size_t n) { return pages.nodes()[n].capacity / pages.page_size(); };
    const auto less_used = [&](size_t a, size_t b) {
      __extension__ typedef unsigned __int128 u128;  // pages times pages exceed 64 bits
      return u128{pages.pages_on(a)} * capacity(b) < u128{pages.pages_on(b)} * capacity(a);
    };
    size_t best = kNone;
    for (size_t n : pages.fallback(socket))
      if (pages.may_take(socket, n) && (best == kNone || less_used(n, best))) best = n;
    return best;
  }
};

// Composed memory: page k of a socket goes to a CPU-less node, round-robin, when
// floor((k + 1) share) passes floor(k share): exactly the share over any run of pages, spread
// evenly; the rest by first touch.
class Weighted : public AllocationPolicy {
 public:
  explicit Weighted(const AllocationSetup& s) : share_(s.cpuless_share), pages_(s.sockets, 0), cursor_(s.sockets) {}
  size_t node(const PageMap& pages, size_t socket) override {
    const uint64_t k = pages_.at(socket)++;
    const auto whole = [&](uint64_t n) { return static_cast<uint64_t>(static_cast<double>(n) * share_); };
    if (whole(k + 1) > whole(k)) {
      const size_t node = cursor_.next(pages, socket, [&](size_t n) {
        return pages.cpuless(n) && pages.may_take(socket, n) && pages.reaches(socket, n);
      });
      if (node != kNone) return node;
    }
    return pages.first_touch_node(socket);
  }

 private:
  double share_;
  std::vector<uint64_t> pages_;  // per socket: new pages placed so far
  RoundRobin cursor_;
};

}  // namespace

STARNUMA_REGISTER_ALLOCATION_POLICY(FirstTouch, "first-touch", false,
                                    "the toucher's node, then the nearest with room (Linux's fallback list)");
STARNUMA_REGISTER_ALLOCATION_POLICY(Interleave, "interleave", false, "round-robin over every node first touch may use");
STARNUMA_REGISTER_ALLOCATION_POLICY(Hybrid, "hybrid", false,
                                    "the toucher's node, then round-robin over the others once it is full");
STARNUMA_REGISTER_ALLOCATION_POLICY(UsageAware, "usage-aware", false,
                                    "the toucher's node, then the least used by share of capacity once it is full");
STARNUMA_REGISTER_ALLOCATION_POLICY(
    Weighted, "weighted", true,
    "a share os.cpuless_share of each socket's new pages round-robin over the "
    "CPU-less CXL nodes, the rest first-touch (the CXL pooling paper's composed memory)");

const AllocationPolicyType* find_allocation_policy(const std::string& name) {
  return AllocationPolicyRegistry::instance().find(name);
}

std::vector<std::string> allocation_names() {
  std::vector<std::string> names{"first-touch", "interleave", "hybrid", "usage-aware", "weighted"};
  for (const AllocationPolicyType* t : AllocationPolicyRegistry::instance().all())
    if (std::find(names.begin(), names.end(), t->name) == names.end()) names.push_back(t->name);
  return names;
}

}  // namespace starnuma
