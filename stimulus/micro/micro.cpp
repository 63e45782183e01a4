#include "stimulus/micro/micro.hpp"

#include <algorithm>

namespace starnuma::micro {

unsigned threads_on_first_socket(unsigned threads, unsigned sockets) {
  // Thread t runs on socket t * sockets / threads (the rule the runs and the sharing workload use).
  unsigned n = 0;
  while (n < threads && static_cast<uint64_t>(n) * sockets / threads == 0) ++n;
  return n;
}

FirstTouch::FirstTouch(std::vector<uint64_t> bases, Share elements)
    : bases_(std::move(bases)), at_(elements.begin), end_(elements.end) {}

bool FirstTouch::next(StreamOp& op) {
  if (at_ >= end_ || bases_.empty()) return false;
  op = StreamOp{StreamOp::Kind::Store, false, false, 0, bases_[array_] + at_ * 8};
  if (++array_ == bases_.size()) {  // the arrays are page-aligned, so their pages align alike
    array_ = 0;
    at_ = std::min(end_, (at_ / (kPageBytes / 8) + 1) * (kPageBytes / 8));
  }
  return true;
}

}  // namespace starnuma::micro
