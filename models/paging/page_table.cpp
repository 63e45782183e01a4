#include "paging/page_table.hpp"

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

}  // namespace starnuma
