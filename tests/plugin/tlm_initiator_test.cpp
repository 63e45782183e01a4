// The tlm_initiator kind (models/plugin/tlm_initiator.*): a module registered as a plug-in
// initiator drives the fabric as the socket it sits at, the payload comes back as it went (the
// requester extension rides only inside the fabric), DMI invalidations reach the module, and the
// component counts what the module got. The module here is registered by the test binary itself,
// as a plug-in library's static initialiser would.
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "harness/expect_report.hpp"
#include "harness/scratch_files.hpp"
#include "memory/ddr5.hpp"
#include "os/page_mover.hpp"
#include "platform/platform.hpp"
#include "platform/probes.hpp"
#include "plugin/plugin_api.hpp"
#include "plugin/tlm_initiator.hpp"
#include "run/run_setup.hpp"

namespace starnuma {
namespace {

using namespace literals;

// A module the test drives by hand: it issues nothing by itself.
class HandDriven : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<HandDriven> socket{"socket"};
  plugin::AddressRange target;
  std::vector<std::pair<uint64_t, uint64_t>> invalidated;
  static inline HandDriven* last = nullptr;

  HandDriven(sc_core::sc_module_name n, plugin::Params& p)
      : sc_module(n), target(p.memory_node("target", "pool", "Where the test sends its transactions")) {
    socket.register_invalidate_direct_mem_ptr(this, &HandDriven::invalidate);
    last = this;
  }

 private:
  void invalidate(sc_dt::uint64 start, sc_dt::uint64 end) { invalidated.emplace_back(start, end); }
};

STARNUMA_REGISTER_TLM_INITIATOR(HandDriven, "test_hand_driven", "A test's initiator, driven by the test");

std::unique_ptr<Platform> build(const std::string& initiator, std::vector<std::string> sets = {}) {
  const auto dir = testing::scratch_dir("starnuma-initiator-");
  std::ofstream(dir / "p.yaml") << "extends: " << STARNUMA_SOURCE_DIR << "/platforms/starnuma8.yaml\n"
                                << "initiators:\n  " << initiator << "\n";
  auto p = Platform::build((dir / "p.yaml").string(), sets);
  for (const Fabric::Range& r : p->fabric().address_map())
    if (Ddr5Controller* m = memory_of(r.node)) m->suspend_refresh(true);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  return p;
}

struct Read {
  tlm::tlm_generic_payload p;
  std::vector<uint8_t> data = std::vector<uint8_t>(64);
  explicit Read(uint64_t address) {
    p.set_command(tlm::TLM_READ_COMMAND);
    p.set_address(address);
    p.set_data_ptr(data.data());
    p.set_data_length(64);
    p.set_streaming_width(64);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  }
};

uint64_t stat(const Platform& p, const char* name) {
  const StatBase* s = p.initiators().at(0)->find_stat(name);
  return s ? s->to_json(sc_core::SC_ZERO_TIME).get<uint64_t>() : ~uint64_t{0};
}

size_t range_of(const Fabric& f, const char* node) {
  for (size_t k = 0; k < f.address_map().size(); ++k)
    if (f.address_map()[k].node->basename() == std::string(node)) return k;
  return ~size_t{0};
}

TEST(PluginInitiator, TransactionsLeaveAsTheSocketItSitsAt) {
  auto p = build("t: {type: test_hand_driven, at: socket5}");
  HandDriven& m = *HandDriven::last;
  const size_t pool = range_of(p->fabric(), "pool");
  ASSERT_EQ(m.target.base, p->fabric().address_map()[pool].base);
  ASSERT_EQ(m.target.size, p->fabric().address_map()[pool].size);
  for (const char* node : {"pool", "socket0", "socket5"}) {
    const size_t k = range_of(p->fabric(), node);
    Read r(p->fabric().address_map()[k].base);
    sc_core::sc_time delay = (10_us).to_sc() * static_cast<double>(k + 1);
    const sc_core::sc_time issued = delay;
    m.socket->b_transport(r.p, delay);
    EXPECT_EQ(r.p.get_response_status(), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(Time::from_ps(static_cast<int64_t>((delay - issued).value())), p->fabric().unloaded_latency(5, k))
        << node;
    EXPECT_EQ(r.p.get_extension<RequesterExtension>(), nullptr) << "the requester extension left with the payload";
  }
  EXPECT_EQ(stat(*p, "transactions"), 3u);
  EXPECT_EQ(stat(*p, "reads"), 3u);
  EXPECT_EQ(stat(*p, "bytes"), 192u);
  EXPECT_NO_THROW(p->fabric().check_conservation());
}

TEST(PluginInitiator, NonBlockingCompletesEarlyAndErrorsAreCounted) {
  auto p = build("t: {type: test_hand_driven, at: socket0}");
  HandDriven& m = *HandDriven::last;
  Read r(m.target.base);
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  EXPECT_EQ(m.socket->nb_transport_fw(r.p, phase, delay), tlm::TLM_COMPLETED);
  EXPECT_EQ(r.p.get_response_status(), tlm::TLM_OK_RESPONSE);
  Read outside(~uint64_t{0} - 63);
  delay = sc_core::SC_ZERO_TIME;
  m.socket->b_transport(outside.p, delay);
  EXPECT_EQ(outside.p.get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(stat(*p, "transactions"), 1u);
  EXPECT_EQ(stat(*p, "errors"), 1u);
}

TEST(PluginInitiator, DmiInvalidationReachesTheModule) {
  auto p = build("t: {type: test_hand_driven, at: socket0}", {"platform.functional_memory=true"});
  HandDriven& m = *HandDriven::last;
  Fabric& f = p->fabric();
  PageMap pages = make_page_map(f, uint64_t{1} << 30, nullptr);
  ASSERT_TRUE(pages.place(9, 0));
  const uint64_t frame = pages.peek(9 * pages.page_size());
  Read probe(frame);
  tlm::tlm_dmi dmi;
  ASSERT_TRUE(m.socket->get_direct_mem_ptr(probe.p, dmi));
  EXPECT_EQ(probe.p.get_extension<RequesterExtension>(), nullptr);
  PageMover mover(f, pages, nullptr, {});
  mover.move(9, 8, 0, (10_us).ps() * 1000, 0);
  EXPECT_FALSE(m.invalidated.empty()) << "the fabric's DMI invalidation did not reach the plug-in";
}

// Each a configuration error naming the file's line and the key (one elaboration per test).
void expect_refused(const std::string& initiator, const std::string& message) {
  const testing::Raised r = testing::capture_report([&] { build(initiator); });
  ASSERT_TRUE(r.raised) << initiator;
  EXPECT_EQ(r.type, "starnuma/config");
  EXPECT_NE(r.message.find("p.yaml:3:"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find(message), std::string::npos) << r.message;
}

TEST(PluginInitiator, AnUnknownSocketIsRefused) {
  expect_refused("t: {type: test_hand_driven, at: socket99}", "initiators.t.at: no socket 'socket99' (one of socket0");
}
TEST(PluginInitiator, AnUnknownTargetIsRefused) {
  expect_refused("t: {type: test_hand_driven, at: socket0, target: nowhere}",
                 "initiators.t.target: no memory node 'nowhere' (one of socket0");
}
TEST(PluginInitiator, APlacementIsRequired) {
  expect_refused("t: {type: test_hand_driven}", "initiators.t: missing required key 'at'");
}
TEST(PluginInitiator, AnUnknownTypeIsRefused) {
  expect_refused("t: {type: no_such_initiator, at: socket0}",
                 "initiators.t.type: unknown component type 'no_such_initiator'");
}
TEST(PluginInitiator, ANodeTypeIsNoInitiator) {
  expect_refused("t: {type: cxl_switch, at: socket0}", "'cxl_switch' is a node type, not allowed under 'initiators'");
}

}  // namespace
}  // namespace starnuma
