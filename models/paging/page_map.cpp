#include "paging/page_map.hpp"

#include <algorithm>

#include "common/diagnostics.hpp"
#include "common/text.hpp"

namespace starnuma {

PageMap::PageMap(uint64_t page_size, std::vector<Node> nodes, std::vector<std::vector<size_t>> fallback)
    : page_size_(page_size),
      page_shift_(0),
      nodes_(std::move(nodes)),
      fallback_(std::move(fallback)),
      used_(nodes_.size(), 0),
      next_(nodes_.size(), 0),
      free_(nodes_.size()),
      owners_(nodes_.size()) {
  if (page_size_ == 0 || (page_size_ & (page_size_ - 1)) != 0) report_internal("page size must be a power of two");
  if (nodes_.size() > 254) report_internal("the page map holds at most 254 memory nodes");
  while ((uint64_t{1} << page_shift_) != page_size_) ++page_shift_;
  owner_.assign(nodes_.size(), static_cast<size_t>(-1));
  foreign_.assign(nodes_.size(), 0);
  for (size_t s = 0; s < fallback_.size(); ++s)
    if (!fallback_[s].empty()) owner_.at(fallback_[s].front()) = s;
  direct_.assign(kDirectChunks, nullptr);
  online_.assign(nodes_.size(), 0);
  bound_.assign(nodes_.size(), 0);
  releasing_.assign(nodes_.size(), false);
  draining_.assign(nodes_.size(), 0);
  for (size_t n = 0; n < nodes_.size(); ++n) {
    const uint64_t capacity = nodes_[n].capacity >> page_shift_;
    online_[n] = nodes_[n].online == ~uint64_t{0} ? capacity : nodes_[n].online >> page_shift_;
    bound_[n] = std::min(online_[n], capacity);
  }
}

void PageMap::add_capacity(size_t node, uint64_t frames) {
  if (releasing_[node] || frames < online_[node])
    report_internal("capacity added to " + nodes_[node].name + " during a release or below what is online");
  online_[node] = frames;
  bound_[node] = std::min(frames, nodes_[node].capacity >> page_shift_);
}

std::vector<uint64_t> PageMap::begin_release(size_t node, uint64_t keep) {
  if (releasing_[node] || keep >= online_[node])
    report_internal("a release of " + nodes_[node].name + " during another or of nothing online");
  releasing_[node] = true;
  bound_[node] = std::min(bound_[node], keep);
  online_[node] = keep;  // what the node keeps once the release completes
  std::vector<uint64_t>& free = free_[node];
  const uint64_t first = first_frame(node), bound = bound_[node];
  const auto dropped = std::remove_if(free.begin(), free.end(), [&](uint64_t ppage) { return ppage - first >= bound; });
  const uint64_t free_above = static_cast<uint64_t>(free.end() - dropped);
  free.erase(dropped, free.end());
  draining_[node] = next_[node] > bound ? next_[node] - bound - free_above : 0;
  std::vector<uint64_t> pages;
  for (uint64_t i = bound; i < next_[node]; ++i)
    if (owners_[node][i]) pages.push_back(owners_[node][i] - 1);
  return pages;
}

void PageMap::finish_release(size_t node) {
  if (!releasing_[node] || draining_[node] != 0)
    report_internal("the release of " + nodes_[node].name + " finished with frames still in use");
  releasing_[node] = false;
  next_[node] = std::min(next_[node], bound_[node]);
  owners_[node].resize(next_[node]);
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

uint64_t PageMap::take_frame(size_t node) {
  ++used_[node];
  if (!free_[node].empty()) {
    const uint64_t f = free_[node].back();
    free_[node].pop_back();
    return f;
  }
  if (next_[node] >= bound_[node]) report_internal("a frame taken from full node " + nodes_[node].name);
  owners_[node].push_back(0);
  return first_frame(node) + next_[node]++;
}

bool PageMap::allocate(uint64_t vpage, size_t node, size_t socket) {
  if (full(node)) return false;
  const uint64_t frame = socket == static_cast<size_t>(-1) ? take_frame(node) : take_frame_for(socket, node);
  slot(vpage) = (frame << 8) | (node + 1);
  owners_[node][frame - first_frame(node)] = vpage + 1;
  return true;
}

PageMap::Moved PageMap::move(uint64_t vpage, size_t node) {
  uint64_t& e = slot(vpage);
  if (e == 0) report_internal("migration of page " + hex(vpage) + ", which is not placed");
  const size_t from_node = static_cast<size_t>((e & 0xff) - 1);
  // Within its node only out of an extent under release (onto an online frame).
  if (from_node == node && !(releasing_[node] && (e >> 8) - first_frame(node) >= bound_[node]))
    report_internal("migration of page " + hex(vpage) + " to the node it is on");
  if (full(node)) report_internal("migration of page " + hex(vpage) + " to full node " + nodes_[node].name);
  const uint64_t from = e >> 8, to = take_frame(node);
  e = (to << 8) | (node + 1);
  owners_[from_node][from - first_frame(from_node)] = 0;
  owners_[node][to - first_frame(node)] = vpage + 1;
  ++moves_[vpage];
  ++pages_moved_;
  return {from, to};
}

void PageMap::release(uint64_t ppage) {
  const size_t node = node_at(ppage);
  if (node == static_cast<size_t>(-1) || ppage - first_frame(node) >= next_[node] ||
      owners_[node][ppage - first_frame(node)] != 0)
    report_internal("release of physical page " + hex(ppage) + ", which is not a frame a migration left");
  --used_[node];
  if (ppage - first_frame(node) >= bound_[node]) {  // in an extent going offline: not handed out again
    --draining_[node];
    return;
  }
  free_[node].push_back(ppage);
}

uint64_t PageMap::owner(uint64_t ppage) const {
  const size_t node = node_at(ppage);
  if (node == static_cast<size_t>(-1) || ppage - first_frame(node) >= next_[node]) return kNoPage;
  return owner(node, ppage - first_frame(node));
}

size_t PageMap::node_at(uint64_t ppage) const {
  for (size_t n = 0; n < nodes_.size(); ++n)
    if (ppage >= first_frame(n) && ppage - first_frame(n) < (nodes_[n].capacity >> page_shift_)) return n;
  return static_cast<size_t>(-1);
}

std::string PageMap::check() const {
  uint64_t data_pages = 0;
  for (size_t n = 0; n < nodes_.size(); ++n) {
    if (used_[n] > nodes_[n].capacity / page_size_) return nodes_[n].name + " holds more pages than its capacity";
    // Frames of an extent under release that were freed are neither in use nor free.
    const uint64_t above = next_[n] > bound_[n] ? next_[n] - bound_[n] : 0;
    if (!releasing_[n] && above) return nodes_[n].name + " has frames handed out beyond its online capacity";
    const uint64_t gone = releasing_[n] ? above - draining_[n] : 0;
    if (used_[n] + free_[n].size() + gone != next_[n]) return nodes_[n].name + ": frames in use and free do not add up";
    for (uint64_t ppage : free_[n])
      if (ppage - first_frame(n) >= bound_[n]) return nodes_[n].name + " lists an offline frame as free";
    for (uint64_t i = 0; i < next_[n]; ++i) {
      const uint64_t o = owners_[n][i];
      if (o == 0) continue;
      ++data_pages;
      const uint64_t e = entry(o - 1);
      if (e == 0 || (e >> 8) != first_frame(n) + i || (e & 0xff) != n + 1)
        return "frame " + hex(first_frame(n) + i) + " of " + nodes_[n].name + " names page " + hex(o - 1) +
               ", which is mapped elsewhere";
    }
  }
  uint64_t placed = 0;
  auto count = [&](const Chunk& c) {
    for (uint64_t e : c) placed += e != 0;
  };
  for (const auto& kv : chunks_) count(kv.second);
  if (placed != data_pages)
    return std::to_string(placed) + " pages are mapped but " + std::to_string(data_pages) + " frames hold a page";
  return {};
}

PageMap::NodeFrames PageMap::frames(size_t node) const {
  NodeFrames f;
  f.owners.reserve(next_[node]);
  for (uint64_t i = 0; i < next_[node]; ++i) f.owners.push_back(owner(node, i));
  for (uint64_t ppage : free_[node]) f.free.push_back(ppage - first_frame(node));
  return f;
}

std::string PageMap::restore(size_t node, const NodeFrames& f) {
  if (next_[node] != 0) report_internal("restore of node " + nodes_[node].name + ", which already holds frames");
  const uint64_t capacity = nodes_[node].capacity / page_size_;
  if (f.owners.size() - f.free.size() > capacity || f.free.size() > f.owners.size())
    return nodes_[node].name + " would hold " + std::to_string(f.owners.size() - f.free.size()) +
           " pages, more than its " + std::to_string(capacity);
  if (f.owners.size() > bound_[node])
    return nodes_[node].name + " would hand out " + std::to_string(f.owners.size()) + " frames, more than its " +
           std::to_string(bound_[node]) + " online";
  owners_[node].assign(f.owners.size(), 0);
  uint64_t data = 0;
  for (uint64_t i = 0; i < f.owners.size(); ++i) {
    const uint64_t v = f.owners[i];
    if (v == kNoPage) continue;
    ++data;
    uint64_t& e = slot(v);
    if (e != 0) return "page " + hex(v) + " is in two frames";
    e = ((first_frame(node) + i) << 8) | (node + 1);
    owners_[node][i] = v + 1;
  }
  std::vector<bool> freed(f.owners.size(), false);
  for (uint64_t i : f.free) {
    if (i >= f.owners.size() || owners_[node][i] != 0 || freed[i])
      return "free frame " + std::to_string(i) + " of " + nodes_[node].name + " is not an empty frame listed once";
    freed[i] = true;
    free_[node].push_back(first_frame(node) + i);
  }
  next_[node] = f.owners.size();
  used_[node] = f.owners.size() - f.free.size();
  frames_ += used_[node] - data;  // the OS's own frames (page tables)
  return {};
}

std::string PageMap::occupancy() const {
  std::string s;
  for (size_t n = 0; n < nodes_.size(); ++n)
    s += (n ? ", " : "") + nodes_[n].name + " " + std::to_string(used_[n]) + " of " + std::to_string(bound_[n]) +
         " pages" + (nodes_[n].movable_only ? " online, no page tables" : "");
  return s;
}

size_t PageMap::first_touch_node(size_t socket) const {
  for (size_t node : fallback_.at(socket))
    if (may_take(socket, node)) return node;
  return static_cast<size_t>(-1);
}

uint64_t PageMap::translate_slow(uint64_t vaddr, size_t socket) {
  const uint64_t vpage = vaddr >> page_shift_;
  uint64_t e = slot(vpage);
  if (e == 0) {
    // A listed page's node first: a policy asked and then overruled would still count the page
    // (interleave's turn would pass).
    size_t node = listed_node(vpage, socket);
    if (node == static_cast<size_t>(-1))
      node = allocation_ ? allocation_->node(*this, socket) : first_touch_node(socket);
    if (node == static_cast<size_t>(-1))
      report_error(msg::kInput, "out of memory: no node can hold virtual page " + hex(vpage << page_shift_) +
                                    " touched by socket " + std::to_string(socket) + " (" + occupancy() +
                                    "; a pool takes only what placement puts there)");
    allocate(vpage, node, socket);
    e = slot(vpage);
  }
  return address(e, vaddr);
}

uint64_t PageMap::allocate_frame(size_t socket) {
  size_t node = static_cast<size_t>(-1);
  for (size_t n : fallback_.at(socket))
    if (may_take(socket, n) && !nodes_[n].movable_only) {
      node = n;
      break;
    }
  if (node == static_cast<size_t>(-1))
    report_error(msg::kInput, "out of memory: no node can hold a page-table page for socket " + std::to_string(socket) +
                                  " (" + occupancy() +
                                  "; memory with dynamic capacity holds no page tables, as Linux's ZONE_MOVABLE)");
  ++frames_;
  return take_frame_for(socket, node) << page_shift_;
}

size_t PageMap::listed_node(uint64_t vpage, size_t socket) const {
  const auto listed =
      std::lower_bound(first_touch_nodes_.begin(), first_touch_nodes_.end(), std::pair<uint64_t, uint32_t>{vpage, 0});
  if (listed == first_touch_nodes_.end() || listed->first != vpage || listed->second >= nodes_.size() ||
      !may_take(socket, listed->second))
    return static_cast<size_t>(-1);
  return listed->second;
}

PageMap::Placement PageMap::placement() const {
  Placement p;
  for (size_t node = 0; node < nodes_.size(); ++node)
    for (uint64_t i = 0; i < frames_used(node); ++i)
      if (const uint64_t vpage = owner(node, i); vpage != kNoPage) p.emplace_back(vpage, static_cast<uint32_t>(node));
  std::sort(p.begin(), p.end());
  return p;
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
  touched_.for_each([&](uint64_t page, bool) { p.push_back(page); });
  std::sort(p.begin(), p.end());
  return p;
}

uint64_t AccessProfile::accesses(uint64_t vpage, size_t socket) const {
  const uint64_t* n = counts_.find(vpage / pages_per_region_ * sockets_ + socket);
  return n ? *n : 0;
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
