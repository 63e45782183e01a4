// The HPE Superdome Flex topology (StarNUMA Fig. 1): chassis of sockets joined all-to-all by UPI,
// each socket with one more UPI link to a FLEX ASIC of its chassis, and every pair of FLEX ASICs
// joined by a NUMALink. With memory_pool, a CXL memory pool with a CXL link from every socket,
// directly or through CXL switches.
#include "platform/topology_generator.hpp"

namespace starnuma {

namespace {

class SuperdomeFlex : public TopologyGenerator {
 public:
  explicit SuperdomeFlex(const ScopeContext& c) : TopologyGenerator(c) {
    if (chassis_ > 1 && flex_asics_per_chassis_ == 0)
      error_at("flex_asics_per_chassis", "must be at least 1 when there is more than one chassis");
    if (cxl_switches_ > 0 && !memory_pool_) error_at("cxl_switches", "CXL switches need a pool: set memory_pool: true");
    if (cxl_switches_ > chassis_ * sockets_per_chassis_) error_at("cxl_switches", "more CXL switches than sockets");
  }

  void generate(ConfigNode& nodes, ConfigNode& links) override {
    const unsigned sockets = chassis_ * sockets_per_chassis_;
    const unsigned flex = chassis_ * flex_asics_per_chassis_;
    auto socket = [](unsigned i) { return "socket" + std::to_string(i); };
    auto asic = [](unsigned i) { return "flex" + std::to_string(i); };

    for (unsigned s = 0; s < sockets; ++s) add_node(nodes, socket(s), socket_, "socket");
    for (unsigned f = 0; f < flex; ++f) add_node(nodes, asic(f), flex_asic_, "flex_asic");

    for (unsigned c = 0; c < chassis_; ++c) {
      const unsigned first = c * sockets_per_chassis_;
      for (unsigned i = 0; i < sockets_per_chassis_; ++i) {
        for (unsigned j = i + 1; j < sockets_per_chassis_; ++j)
          add_link(links, "upi", upi_, socket(first + i), socket(first + j));
        if (flex_asics_per_chassis_ > 0)
          add_link(links, "upi", upi_, socket(first + i),
                   asic(c * flex_asics_per_chassis_ + i % flex_asics_per_chassis_));
      }
    }
    for (unsigned f = 0; f < flex; ++f)
      for (unsigned g = f + 1; g < flex; ++g) add_link(links, "numalink", numalink_, asic(f), asic(g));

    if (!memory_pool_) return;
    add_node(nodes, "pool", pool_, "cxl_pool");
    if (cxl_switches_ == 0) {
      for (unsigned s = 0; s < sockets; ++s) add_link(links, "cxl", cxl_, socket(s), "pool");
      return;
    }
    // Sockets are split into contiguous, equal-as-possible groups, one per switch.
    for (unsigned k = 0; k < cxl_switches_; ++k) {
      std::string sw = "cxl_switch" + std::to_string(k);
      add_node(nodes, sw, cxl_switch_, "cxl_switch");
      for (unsigned s = k * sockets / cxl_switches_; s < (k + 1) * sockets / cxl_switches_; ++s)
        add_link(links, "cxl", cxl_, socket(s), sw);
      add_link(links, "cxl", cxl_uplink_, sw, "pool");
    }
  }

 private:
  Param<unsigned> chassis_{*this, "chassis", 4, "Chassis in the machine", between(1u, 16u)};
  Param<unsigned> sockets_per_chassis_{*this, "sockets_per_chassis", 4,
                                       "Sockets in each chassis, linked all-to-all by UPI", between(1u, 16u)};
  Param<unsigned> flex_asics_per_chassis_{*this, "flex_asics_per_chassis", 2,
                                          "FLEX ASICs in each chassis; socket i uses ASIC i mod this", between(0u, 8u)};
  Param<unsigned> cxl_switches_{*this, "cxl_switches", 0,
                                "CXL switches between the sockets and the pool (0: direct links)", between(0u, 64u)};
  Param<bool> memory_pool_{*this, "memory_pool", false, "Add the CXL memory pool 'pool', linked to every socket"};
  MapParam socket_{*this, "socket", "Parameters of every socket (type socket unless given)"};
  MapParam flex_asic_{*this, "flex_asic", "Parameters of every FLEX ASIC (type flex_asic unless given)"};
  MapParam upi_{*this, "upi", "Parameters of every UPI link (type upi unless given)"};
  MapParam numalink_{*this, "numalink", "Parameters of every NUMALink (type numalink unless given)"};
  MapParam pool_{*this, "pool", "Parameters of the CXL memory pool (type cxl_pool unless given)"};
  MapParam cxl_{*this, "cxl", "Parameters of every CXL link from a socket (type cxl unless given)"};
  MapParam cxl_uplink_{*this, "cxl_uplink",
                       "Parameters of every CXL link from a switch to the pool (type cxl unless given)"};
  MapParam cxl_switch_{*this, "cxl_switch", "Parameters of every CXL switch (type cxl_switch unless given)"};
};

}  // namespace

STARNUMA_REGISTER_GENERATOR(SuperdomeFlex, "superdome_flex",
                            "HPE Superdome Flex: chassis of UPI-connected sockets, FLEX ASICs joined by NUMALinks, "
                            "optional CXL memory pool");

}  // namespace starnuma
