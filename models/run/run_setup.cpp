#include "run/run_setup.hpp"

#include <algorithm>
#include <numeric>

#include "common/diagnostics.hpp"
#include "pool/cxl_pool.hpp"
#include "socket/socket.hpp"
#include "tracking/platform_tracking.hpp"

namespace starnuma {

std::vector<ThreadPlace> place_threads(const Fabric& fabric) {
  std::vector<ThreadPlace> threads;
  for (size_t s = 0; s < fabric.requesters().size(); ++s)
    for (const auto& c : fabric.requesters()[s]->core_list()) threads.push_back({s, c.get()});
  return threads;
}

PageMap make_page_map(const Fabric& fabric, uint64_t pool_limit, const PlatformTracking* tracking) {
  std::vector<PageMap::Node> nodes;
  for (size_t k = 0; k < fabric.address_map().size(); ++k) {
    const Fabric::Range& r = fabric.address_map()[k];
    const bool first_touch = r.node->first_touch();
    const uint64_t size = tracking && tracking->home_range() == k ? r.size - tracking->reserved_bytes() : r.size;
    nodes.push_back({r.name, r.base, first_touch ? size : std::min(size, pool_limit), first_touch});
    if (const PoolDcd* dcd = pool_dcd(fabric, k)) {
      nodes.back().online = dcd->initial();
      nodes.back().movable_only = true;
    }
    // A server on a CXL fabric lends only its slice to the others.
    if (fabric.separate_hosts() && r.node->lent_share() < 1.0)
      nodes.back().lent = static_cast<uint64_t>(r.node->lent_share() * static_cast<double>(size));
  }
  std::vector<std::vector<size_t>> fallback;
  for (size_t s = 0; s < fabric.requesters().size(); ++s) {
    // Every memory the socket reaches (another host's only when lent), nearest first.
    std::vector<size_t> order;
    for (size_t k = 0; k < nodes.size(); ++k)
      if (fabric.reachable(s, k)) order.push_back(k);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return fabric.unloaded_latency(s, a) < fabric.unloaded_latency(s, b); });
    fallback.push_back(order);
  }
  return PageMap(kRunPageSize, std::move(nodes), std::move(fallback));
}

void set_allocation(PageMap& pages, const OsSettings& os, const Fabric& fabric) {
  const AllocationPolicyType* type = find_allocation_policy(os.allocation());
  if (!type) report_internal("os.allocation '" + os.allocation() + "' passed its choices but is not registered");
  pages.set_allocation(type->create(AllocationSetup{fabric.requesters().size(), os.cpuless_share()}));
  if (!type->needs_cpuless_nodes) return;
  const std::vector<size_t> own = socket_nodes(fabric);
  for (size_t n = 0; n < pages.nodes().size(); ++n)
    if (pages.nodes()[n].first_touch && std::find(own.begin(), own.end(), n) == own.end()) return;
  report_error(msg::kConfig, "os.allocation: " + os.allocation() +
                                 " places pages on CPU-less CXL nodes; this platform has none "
                                 "(a cxl_pool node with numa_node: true)");
}

uint64_t pool_limit_bytes(double pool_fraction, uint64_t footprint) {
  return (static_cast<uint64_t>(pool_fraction * static_cast<double>(footprint)) + kRunPageSize - 1) / kRunPageSize *
         kRunPageSize;
}

std::vector<size_t> socket_nodes(const Fabric& fabric) {
  std::vector<size_t> nodes;
  for (const Socket* sock : fabric.requesters())
    for (size_t r = 0; r < fabric.address_map().size(); ++r)
      if (fabric.address_map()[r].node == sock) nodes.push_back(r);
  if (nodes.size() != fabric.requesters().size()) report_internal("a socket without memory in the address map");
  return nodes;
}

size_t pool_node(const PageMap& pages) {
  size_t pool = static_cast<size_t>(-1);
  for (size_t r = 0; r < pages.nodes().size(); ++r)
    if (!pages.nodes()[r].first_touch) pool = r;
  return pool;
}

PoolMonitors pool_monitors(Fabric& fabric, size_t pool) {
  if (pool >= fabric.address_map().size()) return {};
  const Fabric::Range& r = fabric.address_map()[pool];
  std::vector<PoolChmu*> devices;
  for (size_t p = 0; p < r.ways; ++p) {
    auto* device = dynamic_cast<CxlPool*>(fabric.homes()[r.first_home + p].node);
    if (!device) return {};
    devices.push_back(&device->chmu());
  }
  return PoolMonitors(std::move(devices), uint64_t{1} << r.granularity_shift);
}

const PoolDcd* pool_dcd(const Fabric& fabric, size_t range) {
  const Fabric::Range& r = fabric.address_map().at(range);
  const auto* device = r.ways == 1 ? dynamic_cast<const CxlPool*>(r.node) : nullptr;
  return device && device->dcd().enabled() ? &device->dcd() : nullptr;
}

void refuse_dcd_schedules(const Fabric& fabric, const std::string& what) {
  for (size_t k = 0; k < fabric.address_map().size(); ++k)
    if (const PoolDcd* dcd = pool_dcd(fabric, k); dcd && !dcd->schedule().empty())
      report_error(msg::kConfig, fabric.address_map()[k].name + ".dcd.schedule: " + what +
                                     " does not take dynamic-capacity events (they run in continuous runs; "
                                     "docs/cxl-device.md)");
}

AddressLimit virtual_address_limit(const Fabric& fabric) {
  AddressLimit limit{~uint64_t{0}, ""};
  for (const Socket* sock : fabric.requesters()) {
    AddressLimit own = sock->core_config().virtual_address_limit(sock->path() + ".core");
    if (own.bytes < limit.bytes) limit = std::move(own);
  }
  return limit;
}

}  // namespace starnuma
