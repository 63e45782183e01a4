#include "coherence/functional_l2s.hpp"

namespace starnuma {

FunctionalL2s::FunctionalL2s(const std::vector<Geometry>& threads, size_t sockets, uint64_t seed)
    : socket_threads_(sockets) {
  // Seeds apart from the LLCs' (seed + socket): random replacement draws its own victims.
  constexpr uint64_t kL2Seeds = 0x6c32;
  for (size_t t = 0; t < threads.size(); ++t) {
    l2s_.emplace_back(threads[t].lines, threads[t].ways, threads[t].replacement, seed ^ (kL2Seeds + t));
    socket_threads_.at(threads[t].socket).push_back(static_cast<unsigned>(t));
  }
}

std::vector<CacheContents::Llc> FunctionalL2s::contents() const {
  std::vector<CacheContents::Llc> all;
  all.reserve(l2s_.size());
  for (const CacheArray& l2 : l2s_) {
    CacheContents::Llc& c = all.emplace_back();
    c.lines = l2.sets() * l2.ways();
    c.ways = l2.ways();
    c.entries.reserve(c.lines);
    l2.for_each_oldest_first(
        [&](const CacheArray::Victim& e) { c.entries.push_back(e.line << 2 | static_cast<unsigned>(MesiState::E)); });
  }
  return all;
}

}  // namespace starnuma
