// One core's cache hierarchy on a real platform (starnuma16-scaled's socket0, its memory only),
// called directly, without SystemC processes: for tests of the hierarchy's timing.
#pragma once

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/cache_hierarchy.hpp"
#include "paging/page_map.hpp"
#include "paging/page_table.hpp"
#include "platform/platform.hpp"
#include "socket/socket.hpp"

namespace starnuma {

inline const std::string kOneCorePlatform = std::string(STARNUMA_SOURCE_DIR) + "/platforms/starnuma16-scaled.yaml";

struct StatsOwner : StatOwner {};

struct OneCore {
  explicit OneCore(const std::vector<std::string>& sets = {})
      : platform(Platform::build(kOneCorePlatform, sets)), fabric(platform->fabric()), s0(*fabric.requesters()[0]) {
    while (fabric.address_map()[own].node != &s0) ++own;
    const Fabric::Range& r = fabric.address_map()[own];
    pages = std::make_unique<PageMap>(4096, std::vector<PageMap::Node>{{"socket0", r.base, r.size, true}},
                                      std::vector<std::vector<size_t>>{{0}});
    table = std::make_unique<PageTable>(*pages);
    llc = std::make_unique<SocketLlc>(s0.llc_config(), s0.cores(), 1, fabric.map_end() / kLineBytes);
    cycle = std::llround(1e15 / s0.frequency().hz());
    CacheHierarchy::RunContext run{pages.get(), llc.get(), nullptr};
    run.page_table = table.get();
    caches =
        std::make_unique<CacheHierarchy>(s0.core_config(), CacheHierarchy::Uplink{&fabric, 0, 0}, run, cycle, stats, 1);
  }
  std::unique_ptr<Platform> platform;
  Fabric& fabric;
  Socket& s0;
  size_t own = 0;
  std::unique_ptr<PageMap> pages;
  std::unique_ptr<PageTable> table;
  std::unique_ptr<SocketLlc> llc;
  int64_t cycle = 0;
  StatsOwner owner;
  MemoryStats stats{owner};
  std::unique_ptr<CacheHierarchy> caches;
};

}  // namespace starnuma
