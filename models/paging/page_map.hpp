// The OS's placement of virtual pages on memory nodes. Each node's physical range (from the
// fabric's address map) is handed out page by page; a virtual page is placed when first touched,
// or ahead of time by a static placement, and moved by migration (frames freed by a move are handed
// out again). A reverse map gives the virtual page in each physical frame, as the OS's rmap does.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/flat_map.hpp"
#include "common/host_prefetch.hpp"
#include "paging/allocation_policy.hpp"

namespace starnuma {

class PageMap {
 public:
  struct Node {
    std::string name;
    uint64_t base;      // physical range of the node's memory
    uint64_t capacity;  // bytes the OS may place on it (the pool's may be limited below its size)
    bool first_touch;   // whether first-touch may place pages here (sockets: yes; the pool: no)
    // Bytes of it other sockets may take (a server's lent slice when hosts are separate; all of
    // it otherwise). The node's own socket is the first of its fallback list that starts with it.
    uint64_t lent = ~uint64_t{0};
    // Bytes online from the node's base (dynamic capacity, pool/pool_dcd.hpp): frames beyond are
    // offline until added. Memory that can go offline holds no page-table frames (movable_only),
    // as Linux onlines hot-pluggable memory in ZONE_MOVABLE.
    uint64_t online = ~uint64_t{0};
    bool movable_only = false;
  };

  // `fallback[s]` lists node indices in the order first-touch tries them for socket s (its own
  // node first, then by distance).
  PageMap(uint64_t page_size, std::vector<Node> nodes, std::vector<std::vector<size_t>> fallback);

  uint64_t page_size() const { return page_size_; }
  // Where new pages go (paging/allocation_policy.hpp; null: first touch). Page-table frames always
  // take the toucher's nearest node with room, as Linux allocates them.
  void set_allocation(std::unique_ptr<AllocationPolicy> policy) { allocation_ = std::move(policy); }
  // Where a timed run's first touches put pages: (virtual page, node), ascending by page. A page
  // listed here goes to its node on its first touch, when the toucher may take it there, instead
  // of where the allocation policy would put it (the functional pass, whose threads take turns, as
  // a timed run's start decided; docs/sampling.md, "A timed start").
  using Placement = std::vector<std::pair<uint64_t, uint32_t>>;
  void set_first_touch_nodes(Placement placement) { first_touch_nodes_ = std::move(placement); }
  // Every placed page and its node, ascending by page.
  Placement placement() const;
  // Physical address of `vaddr`; places the page by first touch from `socket` if it is new.
  uint64_t translate(uint64_t vaddr, size_t socket) {
    const uint64_t vpage = vaddr >> page_shift_, key = vpage >> kChunkBits;
    if (key < kDirectChunks)
      if (const Chunk* c = direct_[key])
        if (const uint64_t e = (*c)[vpage & ((uint64_t{1} << kChunkBits) - 1)]) return address(e, vaddr);
    return translate_slow(vaddr, socket);
  }
  // A frame for the OS's own use (a page-table page), taken as a first touch from `socket` would
  // take it; returns its physical address.
  uint64_t allocate_frame(size_t socket);
  uint64_t frames_allocated() const { return frames_; }
  // Places a page ahead of time on `node` (static placement). Returns false if the node is full.
  bool place(uint64_t vpage, size_t node);
  bool placed(uint64_t vpage) const { return entry(vpage) != 0; }
  // The physical address of `vaddr` if its page is placed, else kUnplaced; places nothing.
  static constexpr uint64_t kUnplaced = ~uint64_t{0};
  uint64_t peek(uint64_t vaddr) const {
    const uint64_t e = entry(vaddr >> page_shift_);
    return e ? address(e, vaddr) : kUnplaced;
  }
  // Brings the page's entry into the host's caches ahead of a translation (no effect on the model).
  void prefetch(uint64_t vaddr) const {
    const uint64_t vpage = vaddr >> page_shift_, key = vpage >> kChunkBits;
    if (key < kDirectChunks && direct_[key]) host_prefetch(&(*direct_[key])[vpage & ((uint64_t{1} << kChunkBits) - 1)]);
  }
  // The node a placed page lives on.
  size_t node_of(uint64_t vpage) const;
  uint64_t pages_on(size_t node) const { return used_[node]; }
  // Pages `node` can still take: its freed frames and the never-used ones below its bound.
  uint64_t free_pages(size_t node) const {
    return free_[node].size() + (bound_[node] > next_[node] ? bound_[node] - next_[node] : 0);
  }

  // Dynamic capacity. Frames [0, online_frames) of a node are the OS's, the rest offline.
  uint64_t online_frames(size_t node) const { return online_[node]; }
  // Brings the node's frames up to `frames` online (no fewer than now, no more than its range).
  void add_capacity(size_t node, uint64_t frames);
  // Starts taking frames [keep, online) offline (keep < online, no release under way): no page is
  // placed there again and their free frames are dropped. Returns the virtual pages in them, in
  // frame order, which the OS must move out (PageMap::move may move them within the node).
  std::vector<uint64_t> begin_release(size_t node, uint64_t keep);
  bool releasing(size_t node) const { return releasing_[node]; }
  // Frames of the extent under release still in use (pages, or old frames of copies in flight).
  uint64_t release_left(size_t node) const { return draining_[node]; }
  // Ends a release whose extent holds nothing any more (release_left is 0): the frontier moves in.
  void finish_release(size_t node);

  // Migration. `move` remaps placed page `vpage` to a free frame of `node` (which must have room) and
  // returns the physical page numbers it leaves and takes; the old frame stays taken until
  // `release` (after the copy), so no other page can take it while the copy reads it.
  struct Moved {
    uint64_t from, to;  // physical page numbers
  };
  Moved move(uint64_t vpage, size_t node);
  void release(uint64_t ppage);
  // The virtual page in physical page `ppage`; kNoPage when free, a page-table frame, or never used.
  static constexpr uint64_t kNoPage = ~uint64_t{0};
  uint64_t owner(uint64_t ppage) const;
  // The same for frame `index` of `node` (index < frames_used(node)), for scans node by node.
  uint64_t owner(size_t node, uint64_t index) const {
    const uint64_t o = owners_[node][index];
    return o ? o - 1 : kNoPage;
  }
  // The node whose range holds physical page `ppage`; npos when none.
  size_t node_at(uint64_t ppage) const;
  // Physical pages of `node` handed out so far (in use or freed): [first_frame, first_frame + frames_used).
  uint64_t first_frame(size_t node) const { return nodes_[node].base >> page_shift_; }
  uint64_t frames_used(size_t node) const { return next_[node]; }
  // How often each virtual page has migrated (the ping-pong rule).
  uint64_t moves(uint64_t vpage) const {
    const uint32_t* m = moves_.find(vpage);
    return m ? *m : 0;
  }
  uint64_t pages_moved() const { return pages_moved_; }

  // Pages whose migration is in flight and when each one's copy ends (fs): accesses that translate
  // them wait until then.
  void set_in_flight(uint64_t vpage, int64_t until_fs) { in_flight_[vpage] = until_fs; }
  void clear_in_flight(uint64_t vpage) { in_flight_.erase(vpage); }
  bool in_flight(uint64_t vpage) const { return !in_flight_.empty() && in_flight_.find(vpage); }
  int64_t ready_fs(uint64_t vpage) const {
    if (in_flight_.empty()) return 0;
    const int64_t* until = in_flight_.find(vpage);
    return until ? *until : 0;
  }
  // A node's frames as a checkpoint keeps them (os/checkpoint.hpp): the frames handed out, the
  // virtual page in each (kNoPage: free or the OS's own) and the free list in the order it hands
  // frames out again.
  struct NodeFrames {
    std::vector<uint64_t> owners;
    std::vector<uint64_t> free;  // frame indices, the next one handed out last
  };
  NodeFrames frames(size_t node) const;
  // Gives an empty node those frames; returns an error (empty when none), e.g. more frames than
  // the node holds or a page already placed elsewhere.
  std::string restore(size_t node, const NodeFrames& frames);

  // Checks the map's invariants (each placed page in exactly one frame of its node, the reverse map
  // its inverse, no node over capacity); returns the first violation, empty when none.
  std::string check() const;
  const std::vector<Node>& nodes() const { return nodes_; }
  std::vector<std::string> node_names() const {
    std::vector<std::string> names;
    for (const Node& n : nodes_) names.push_back(n.name);
    return names;
  }

  // For allocation policies.
  bool full(size_t node) const { return free_[node].empty() && next_[node] >= bound_[node]; }
  // The first node of `socket`'s fallback that first touch may use and that has room; npos when
  // none has.
  size_t first_touch_node(size_t socket) const;
  // Whether first touch from `socket` may place a page on `node`: it may, has room, and is the
  // socket's own or has lent room left.
  bool may_take(size_t socket, size_t node) const {
    return nodes_[node].first_touch && !full(node) &&
           (owner_[node] == static_cast<size_t>(-1) || owner_[node] == socket ||
            foreign_[node] < nodes_[node].lent / page_size_);
  }
  // Whether `socket` may place pages on `node` at all: it is in its fallback list (another host's
  // memory is not, unless lent).
  bool reaches(size_t socket, size_t node) const {
    const auto& f = fallback_[socket];
    return std::find(f.begin(), f.end(), node) != f.end();
  }
  // `socket`'s fallback list: the nodes it may place pages on, its own first, then by distance.
  const std::vector<size_t>& fallback(size_t socket) const { return fallback_.at(socket); }
  // Whether `node` is no socket's own: a CPU-less (CXL) node first touch may use.
  bool cpuless(size_t node) const {
    return nodes_[node].first_touch &&
           std::none_of(fallback_.begin(), fallback_.end(), [&](const auto& f) { return f.front() == node; });
  }
  // "socket0 12 of 16 pages, ..." for out-of-memory errors.
  std::string occupancy() const;

 private:
  // A two-level table, as a page table is: chunks of 2^16 entries, each entry the physical page
  // number << 8 | (node + 1), or 0 when the virtual page is not placed.
  static constexpr unsigned kChunkBits = 16;
  using Chunk = std::vector<uint64_t>;
  uint64_t entry(uint64_t vpage) const;
  uint64_t translate_slow(uint64_t vaddr, size_t socket);
  // The node set_first_touch_nodes lists for `vpage`, when `socket` may place it there; else npos.
  size_t listed_node(uint64_t vpage, size_t socket) const;
  uint64_t address(uint64_t entry, uint64_t vaddr) const {
    return ((entry >> 8) << page_shift_) | (vaddr & (page_size_ - 1));
  }
  uint64_t& slot(uint64_t vpage);
  // `socket`: whose first touch (counted against lent slices); npos: a placement ahead of time.
  bool allocate(uint64_t vpage, size_t node, size_t socket = static_cast<size_t>(-1));
  // The next free physical page number of `node` (not full), now taken.
  uint64_t take_frame(size_t node);
  // A frame of `node` taken for `socket` (counted against the node's lent slice when not its own).
  uint64_t take_frame_for(size_t socket, size_t node) {
    if (owner_[node] != static_cast<size_t>(-1) && owner_[node] != socket) ++foreign_[node];
    return take_frame(node);
  }

  uint64_t page_size_;
  unsigned page_shift_;
  std::vector<Node> nodes_;
  std::vector<std::vector<size_t>> fallback_;
  std::unique_ptr<AllocationPolicy> allocation_;  // null: first touch
  Placement first_touch_nodes_;
  std::vector<uint64_t> used_;                 // pages placed per node (data pages and frames)
  std::vector<size_t> owner_;                  // per node: the socket whose own node it is (npos: none)
  std::vector<uint64_t> foreign_;              // per node: pages first touch gave other sockets
  std::vector<uint64_t> next_;                 // frames handed out per node (the next never-used frame)
  std::vector<uint64_t> online_;               // per node: frames online (dynamic capacity)
  std::vector<uint64_t> bound_;                // per node: frames below it may be handed out
  std::vector<bool> releasing_;                // per node: a release under way, to `bound_`
  std::vector<uint64_t> draining_;             // per node: frames at or above bound_ still in use
  std::vector<std::vector<uint64_t>> free_;    // per node: freed frames, the last freed first
  std::vector<std::vector<uint64_t>> owners_;  // per node, per frame: vpage + 1, or 0
  FlatMap<uint32_t> moves_;
  uint64_t pages_moved_ = 0;
  FlatMap<int64_t> in_flight_;
  uint64_t frames_ = 0;
  // Chunks below 2^40 of virtual address space are found by index; any higher through the map.
  static constexpr uint64_t kDirectChunks = uint64_t{1} << (40 - 12 - kChunkBits);
  std::vector<Chunk*> direct_;
  std::unordered_map<uint64_t, Chunk> chunks_;
};

// Per-page, per-socket access counts from a profiling pass, and the oracle placement built from
// them (StarNUMA's static baseline): a page with more than `pool_sharers` sharing sockets goes to
// the pool, hottest first, while the pool's capacity lasts; every other page goes to the socket
// that accesses it most (ties: the lowest socket), or by fallback when that socket is full.
class AccessProfile {
 public:
  // Counts by region of `pages_per_region` pages (the oracle's granularity); remembers each page.
  explicit AccessProfile(size_t sockets, uint64_t pages_per_region = 1)
      : sockets_(sockets), pages_per_region_(pages_per_region) {}
  void count(uint64_t vpage, size_t socket) {
    ++counts_[vpage / pages_per_region_ * sockets_ + socket];
    touched_[vpage] = true;
  }
  size_t sockets() const { return sockets_; }
  // Pages in ascending order, for deterministic iteration.
  std::vector<uint64_t> pages() const;
  // Accesses and sharers of the region holding `vpage`.
  uint64_t accesses(uint64_t vpage, size_t socket) const;
  unsigned sharers(uint64_t vpage) const;

 private:
  size_t sockets_;
  uint64_t pages_per_region_;
  FlatMap<uint64_t> counts_;  // key region*sockets+socket
  FlatMap<bool> touched_;
};

// Applies the oracle placement to `map`; `pool` is the pool's node index (or npos for none).
void place_oracle(PageMap& map, const AccessProfile& profile, size_t pool, unsigned pool_sharers = 8);

}  // namespace starnuma
