// What a timed run and the functional pass of a sampled run set up alike: threads on cores, the
// OS's page map over the platform's memory, the pool's share of the footprint.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "os/os_settings.hpp"
#include "paging/page_map.hpp"
#include "pool/pool_monitors.hpp"
#include "stimulus/address_limit.hpp"

namespace starnuma {

class Core;
class Fabric;
class PlatformTracking;
class PoolDcd;

inline constexpr uint64_t kRunPageSize = 4096;

struct ThreadPlace {
  size_t socket;  // requester index
  Core* core;
};
// Threads on cores in order: socket0's cores first.
std::vector<ThreadPlace> place_threads(const Fabric& fabric);

// The OS's view of memory: every node's range (a device with dynamic capacity: what is online); first touch tries the
// socket's own node, then the others by unloaded latency (a pool device with numa_node: true among them); a pool only
// takes what placement puts there, up to `pool_limit` bytes. The tracking metadata's reserved range (at the top of its
// home) is never handed out.
PageMap make_page_map(const Fabric& fabric, uint64_t pool_limit, const PlatformTracking* tracking);

// The os settings' allocation policy on `pages`; weighted without a CPU-less node is a
// configuration error.
void set_allocation(PageMap& pages, const OsSettings& os, const Fabric& fabric);

// Bytes of a `footprint`-byte workload the pool may hold (whole pages).
uint64_t pool_limit_bytes(double pool_fraction, uint64_t footprint);

// The address-map index of each socket's memory and of the pool (npos: none), from `pages`.
std::vector<size_t> socket_nodes(const Fabric& fabric);
size_t pool_node(const PageMap& pages);
// The hotness monitors of the pool's window at address-map index `pool` (one per device of an
// interleave set); none when there is no pool device.
PoolMonitors pool_monitors(Fabric& fabric, size_t pool);

// The dynamic capacity of the device at address-map index `range`; null when it has none enabled.
// Such a node starts with its `initial` capacity online and never holds page-table frames.
const PoolDcd* pool_dcd(const Fabric& fabric, size_t range);
// A configuration error when a device has dynamic-capacity events and `what` (a sampled
// evaluation's pass) cannot take them.
void refuse_dcd_schedules(const Fabric& fabric, const std::string& what);

// The virtual addresses every core of the platform translates (the smallest core's limit).
AddressLimit virtual_address_limit(const Fabric& fabric);

}  // namespace starnuma
