#include "paging/page_table.hpp"

#include <algorithm>

namespace starnuma {

uint64_t PageTable::table(unsigned level, uint64_t vaddr, size_t socket) {
  if (level == 0) {
    if (root_ == kNone) root_ = pages_.allocate_frame(socket);
    return root_;
  }
  uint64_t& t = tables_[(vaddr >> table_shift(level)) << 2 | level];
  if (t == 0) t = pages_.allocate_frame(socket) + 1;
  return t - 1;
}

PageTable::Tables PageTable::made() const {
  Tables t;
  t.root = root_;
  tables_.for_each([&](uint64_t key, uint64_t address) { t.tables.emplace_back(key, address - 1); });
  std::sort(t.tables.begin(), t.tables.end());
  return t;
}

void PageTable::restore(const Tables& t) {
  root_ = t.root;
  tables_.clear();
  for (const auto& [key, address] : t.tables) tables_[key] = address + 1;
}

}  // namespace starnuma
