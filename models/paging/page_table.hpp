// Where the page-table entries of the run's address space live: an x86-64 four-level radix tree
// (PML4, PDPT, PD, PT; 512 entries of 8 bytes a table) whose table pages are frames of node
// memory. A table is created when a walk first needs it, on the node first touch gives the
// walking socket (as Linux allocates page-table pages on the faulting CPU's node). Only where the
// entries are is modelled; their contents come from the page map.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "common/flat_map.hpp"
#include "paging/page_map.hpp"

namespace starnuma {

class PageTable {
 public:
  static constexpr unsigned kLevels = 4;  // 0: PML4 (the root) ... 3: PT (the leaf)
  static constexpr uint64_t kNone = ~uint64_t{0};

  explicit PageTable(PageMap& pages) : pages_(pages) {}
  PageTable(const PageTable&) = delete;
  PageTable& operator=(const PageTable&) = delete;

  // Bits of the virtual address that select the table at `level` (the root: none).
  static unsigned table_shift(unsigned level) { return 12 + 9 * (kLevels - level); }
  // Physical address of the table at `level` that maps `vaddr`, created for `socket` if new.
  uint64_t table(unsigned level, uint64_t vaddr, size_t socket);
  // Physical address of the entry for `vaddr` in the table at `table_address` (of `level`).
  static uint64_t entry(uint64_t table_address, unsigned level, uint64_t vaddr) {
    return table_address + ((vaddr >> (12 + 9 * (kLevels - 1 - level))) & 511) * 8;
  }
  uint64_t tables() const { return tables_.size() + (root_ != kNone); }

  // The tables made so far, for a checkpoint: the root's address (none: kNone) and every other
  // table as (key, address), by key; restore() makes a run's table the same (its frames must be the
  // same run's map's, taken by the OS).
  struct Tables {
    uint64_t root = kNone;
    std::vector<std::pair<uint64_t, uint64_t>> tables;
    bool empty() const { return root == kNone; }
  };
  Tables made() const;
  void restore(const Tables& t);

 private:
  PageMap& pages_;
  uint64_t root_ = kNone;
  FlatMap<uint64_t> tables_;  // key: (vaddr >> table_shift(level)) << 2 | level; value: address + 1
};

}  // namespace starnuma
