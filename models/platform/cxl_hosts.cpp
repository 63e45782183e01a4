// Servers on a CXL fabric (the logical-memory-pools paper's Fig. 1): `hosts` sockets, each a host
// of its own, linked by CXL to one switch. With logical_pool, every host lends its memory: the
// others reach it over CXL through the switch (socket lend: 1 unless the host template says how
// much). With physical_pool, a
// CXL memory pool device hangs off the switch as well. Without the switch (switched: false), each
// host links straight to a head of the pool device, a multi-headed device as Pond's. The platform
// file sets platform.separate_hosts: true (docs/fabric.md).
#include "platform/topology_generator.hpp"

namespace starnuma {

namespace {

class CxlHosts : public TopologyGenerator {
 public:
  explicit CxlHosts(const ScopeContext& c) : TopologyGenerator(c) {
    if (!logical_pool_ && !physical_pool_)
      error(config(), "logical_pool", "hosts on a switch share memory: set logical_pool, physical_pool or both");
    else if (!switched_ && logical_pool_)
      error(config(), "logical_pool",
            "without a switch (switched: false) a host reaches only the pool device, not another host's memory: "
            "set logical_pool: false");
    else if (!switched_ && !physical_pool_)
      error(config(), "physical_pool",
            "without a switch (switched: false) the hosts share a pool device: set physical_pool: true");
  }

  void generate(ConfigNode& nodes, ConfigNode& links) override {
    auto host = [](unsigned i) { return "host" + std::to_string(i); };
    const std::string hub = switched_ ? "switch" : "pool";  // what each host's link reaches
    if (switched_) add_node(nodes, "switch", switch_, "cxl_switch");
    for (unsigned h = 0; h < hosts_; ++h) {
      add_node(nodes, host(h), host_, "socket");
      ConfigNode& node = *nodes.find(host(h));
      if (logical_pool_ && !node.find("lend"))
        node.set("lend", node.location(), ConfigNode::scalar("1", node.location()));
      add_link(links, "cxl", cxl_, host(h), hub);
    }
    if (!physical_pool_) return;
    add_node(nodes, "pool", pool_, "cxl_pool");
    ConfigNode& pool = *nodes.find("pool");
    if (!pool.find("numa_node")) pool.set("numa_node", pool.location(), ConfigNode::scalar("true", pool.location()));
    if (switched_) add_link(links, "cxl", pool_link_, "switch", "pool");
  }

 private:
  Param<unsigned> hosts_{*this, "hosts", 4, "Hosts (servers, one socket each) on the switch", between(2u, 64u)};
  Param<bool> logical_pool_{*this, "logical_pool", true,
                            "Every host lends its memory to the others over CXL (a logical memory pool): all of it "
                            "unless host.lend says what share"};
  Param<bool> physical_pool_{*this, "physical_pool", false,
                             "Add 'pool', a CXL memory pool device on the switch (a CPU-less NUMA node to every host)"};
  Param<bool> switched_{*this, "switched", true,
                        "Hosts reach the fabric through one CXL switch; false: each host's link goes straight to a "
                        "head of the pool device (a multi-headed device, as Pond's), with physical_pool and without "
                        "logical_pool"};
  MapParam host_{*this, "host", "Parameters of every host (type socket unless given)"};
  MapParam switch_{*this, "switch", "Parameters of the switch (type cxl_switch unless given)"};
  MapParam pool_{*this, "pool", "Parameters of the pool device (type cxl_pool unless given)"};
  MapParam cxl_{*this, "cxl", "Parameters of every host's CXL link to the switch (type cxl unless given)"};
  MapParam pool_link_{*this, "pool_link", "Parameters of the switch's CXL link to the pool (type cxl unless given)"};
};

}  // namespace

STARNUMA_REGISTER_GENERATOR(CxlHosts, "cxl_hosts",
                            "Servers on a CXL switch, each a host of its own: a logical memory pool of their lent "
                            "memory and/or a physical pool device; or servers on the heads of one multi-headed pool "
                            "device (switched: false)");

}  // namespace starnuma
