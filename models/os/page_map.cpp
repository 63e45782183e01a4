#include "os/page_map.hpp"

#include <algorithm>

#include "common/diagnostics.hpp"
#include "common/text.hpp"

namespace starnuma {

PageMap::PageMap(uint64_t page_size, std::vector<Node> nodes, std::vector<std::vector<size_t>> fallback)
    : page_size_(page_size), page_shift_(0), nodes_(std::move(nodes)), fallback_(std::move(fallback)),
      used_(nodes_.size(), 0) {
  if (page_size_ == 0 || (page_size_ & (page_size_ - 1)) != 0) report_internal("page size must be a power of two");
  if (nodes_.size() > 254) report_internal("the page map holds at most 254 memory nodes");
  while ((uint64_t{1} << page_shift_) != page_size_) ++page_shift_;
  direct_.assign(kDirectChunks, nullptr);
}

uint64_t PageMap::entry(uint64_t vpage) const {
  const uint64_t key = vpage >> kChunkBits;
  const Chunk* c = nullptr;
  if (key < kDirectChunks) {
    c = direct_[key];
  } else if (auto it = chunks_.find(key); it != chunks_.end()) {
    c = &it->second;
  }
  return c ? (*c)[vpage & ((uint64_t{1} << kChunkBits) - 1)] : 0;
}

uint64_t& PageMap::slot(uint64_t vpage) {
  const uint64_t key = vpage >> kChunkBits;
  Chunk* c = key < kDirectChunks ? direct_[key] : nullptr;
  if (!c) {
    c = &chunks_[key];  // unordered_map nodes do not move
    if (c->empty()) c->assign(size_t{1} << kChunkBits, 0);
    if (key < kDirectChunks) direct_[key] = c;
  }
  return (*c)[vpage & ((uint64_t{1} << kChunkBits) - 1)];
}

uint64_t PageMap::take_frame(size_t node) { return (nodes_[node].base >> page_shift_) + used_[node]++; }

bool PageMap::allocate(uint64_t vpage, size_t node) {
  if (full(node)) return false;
  slot(vpage) = (take_frame(node) << 8) | (node + 1);
  return true;
}

size_t PageMap::first_touch_node(size_t socket) const {
  for (size_t node : fallback_.at(socket))
    if (nodes_[node].first_touch && !full(node)) return node;
  return static_cast<size_t>(-1);
}

uint64_t PageMap::translate(uint64_t vaddr, size_t socket) {
  const uint64_t vpage = vaddr >> page_shift_;
  uint64_t e = slot(vpage);
  if (e == 0) {
    const size_t node = first_touch_node(socket);
    if (node == static_cast<size_t>(-1))
      report_error(msg::kInput, "out of memory: no node can hold virtual page " + hex(vpage << page_shift_) +
                                    " touched by socket " + std::to_string(socket));
    allocate(vpage, node);
    e = slot(vpage);
  }
  return address(e, vaddr);
}

uint64_t PageMap::allocate_frame(size_t socket) {
  const size_t node = first_touch_node(socket);
  if (node == static_cast<size_t>(-1))
    report_error(msg::kInput, "out of memory: no node can hold a page-table page for socket " + std::to_string(socket));
  ++frames_;
  return take_frame(node) << page_shift_;
}

bool PageMap::place(uint64_t vpage, size_t node) {
  if (placed(vpage)) report_internal("page " + hex(vpage) + " placed twice");
  return allocate(vpage, node);
}

size_t PageMap::node_of(uint64_t vpage) const {
  const uint64_t e = entry(vpage);
  if (e == 0) report_internal("page " + hex(vpage) + " is not placed");
  return static_cast<size_t>((e & 0xff) - 1);
}

std::vector<uint64_t> AccessProfile::pages() const {
  std::vector<uint64_t> p;
  p.reserve(touched_.size());
  for (const auto& kv : touched_) p.push_back(kv.first);
  std::sort(p.begin(), p.end());
  return p;
}

uint64_t AccessProfile::accesses(uint64_t vpage, size_t socket) const {
  auto it = counts_.find(vpage / pages_per_region_ * sockets_ + socket);
  return it == counts_.end() ? 0 : it->second;
}

unsigned AccessProfile::sharers(uint64_t vpage) const {
  unsigned n = 0;
  for (size_t s = 0; s < sockets_; ++s) n += accesses(vpage, s) > 0;
  return n;
}

void place_oracle(PageMap& map, const AccessProfile& profile, size_t pool, unsigned pool_sharers) {
  const std::vector<uint64_t> pages = profile.pages();
  auto total = [&](uint64_t p) {
    uint64_t t = 0;
    for (size_t s = 0; s < profile.sockets(); ++s) t += profile.accesses(p, s);
    return t;
  };
  // Widely shared pages to the pool, hottest first (ties: lower page), while it has room.
  if (pool != static_cast<size_t>(-1)) {
    std::vector<std::pair<uint64_t, uint64_t>> shared;  // (accesses, page)
    for (uint64_t p : pages)
      if (profile.sharers(p) > pool_sharers) shared.emplace_back(total(p), p);
    std::sort(shared.begin(), shared.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    for (const auto& [count, p] : shared)
      if (!map.place(p, pool)) break;
  }
  // Everything else to its most frequent socket, else by that socket's fallback order (via first touch).
  for (uint64_t p : pages) {
    if (map.placed(p)) continue;
    size_t best = 0;
    for (size_t s = 1; s < profile.sockets(); ++s)
      if (profile.accesses(p, s) > profile.accesses(p, best)) best = s;
    map.translate(p * map.page_size(), best);
  }
}

}  // namespace starnuma
