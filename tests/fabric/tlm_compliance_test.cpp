// Fabric::target as a TLM-2.0 base-protocol target (IEEE 1666-2011 chapters 14-16), driven by a
// standard initiator that checks, on every transaction, the rules these tests rely on: the target
// sets a response status (never leaves TLM_INCOMPLETE_RESPONSE), leaves the attributes it must
// only read untouched, annotates a delay that never goes backwards, and a read it executes takes at
// least the fabric's unloaded latency to the slowest home of its lines.
#include <algorithm>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "coherence/coherence.hpp"
#include "memory/ddr5.hpp"
#include "os/page_mover.hpp"
#include "platform/platform.hpp"
#include "platform/probes.hpp"
#include "run/run_setup.hpp"

namespace starnuma {
namespace {

using namespace literals;

const std::string kPlatforms = std::string(STARNUMA_SOURCE_DIR) + "/platforms/";

class CheckingInitiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<CheckingInitiator> socket{"socket"};
  std::vector<std::pair<uint64_t, uint64_t>> invalidated;  // DMI ranges the target took back

  CheckingInitiator(sc_core::sc_module_name name, const Fabric& fabric, size_t requester)
      : sc_module(name), fabric_(fabric), requester_(requester) {
    socket.register_invalidate_direct_mem_ptr(this, &CheckingInitiator::invalidate);
  }

  // b_transport at local-time offset `offset`; returns the delay the target added.
  Time transport(tlm::tlm_generic_payload& p, Time offset) {
    const Snapshot before(p);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = offset.to_sc();
    socket->b_transport(p, delay);
    return check(p, before, offset, delay);
  }
  // The same through nb_transport_fw, which must complete early (the only path this target takes).
  Time transport_nb(tlm::tlm_generic_payload& p, Time offset) {
    const Snapshot before(p);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = offset.to_sc();
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    EXPECT_EQ(socket->nb_transport_fw(p, phase, delay), tlm::TLM_COMPLETED);
    return check(p, before, offset, delay);
  }

 private:
  // The attributes a target must not change (IEEE 1666-2011 14.7, table 55).
  struct Snapshot {
    tlm::tlm_command command;
    uint64_t address;
    unsigned char* data;
    unsigned length, streaming;
    unsigned char* enables;
    unsigned enable_length;
    explicit Snapshot(const tlm::tlm_generic_payload& p)
        : command(p.get_command()),
          address(p.get_address()),
          data(p.get_data_ptr()),
          length(p.get_data_length()),
          streaming(p.get_streaming_width()),
          enables(p.get_byte_enable_ptr()),
          enable_length(p.get_byte_enable_length()) {}
  };

  Time check(const tlm::tlm_generic_payload& p, const Snapshot& b, Time offset, const sc_core::sc_time& delay) {
    EXPECT_NE(p.get_response_status(), tlm::TLM_INCOMPLETE_RESPONSE) << "no response status set";
    EXPECT_EQ(p.get_command(), b.command);
    EXPECT_EQ(p.get_address(), b.address);
    EXPECT_EQ(p.get_data_ptr(), b.data);
    EXPECT_EQ(p.get_data_length(), b.length);
    EXPECT_EQ(p.get_streaming_width(), b.streaming);
    EXPECT_EQ(p.get_byte_enable_ptr(), b.enables);
    EXPECT_EQ(p.get_byte_enable_length(), b.enable_length);
    const Time added = Time::from_ps(static_cast<int64_t>(delay.value())) - offset;
    EXPECT_GE(added.ps(), 0) << "the delay went backwards";
    if (p.is_response_ok() && p.is_read()) {
      EXPECT_GE(added.ps(), slowest_line(p).ps());
    }
    if (p.is_response_ok() && p.is_write()) {
      EXPECT_GT(added.ps(), 0);
    }
    return added;
  }

  // The unloaded latency of one line from this transaction's requester to the slowest home it touches.
  Time slowest_line(const tlm::tlm_generic_payload& p) const {
    const RequesterExtension* ext = p.get_extension<RequesterExtension>();
    const size_t r = ext ? ext->requester : requester_;
    Time slowest;
    for (uint64_t a = p.get_address(); a < p.get_address() + p.get_data_length();
         a = (a / kLineBytes + 1) * kLineBytes) {
      const size_t range = static_cast<size_t>(fabric_.home_of(a) - fabric_.address_map().data());
      slowest = std::max(slowest, fabric_.unloaded_latency(r, range));
    }
    return slowest;
  }

  void invalidate(sc_dt::uint64 start, sc_dt::uint64 end) { invalidated.emplace_back(start, end); }

  const Fabric& fabric_;
  size_t requester_;
};

// A payload with its own data buffer, every attribute set as the base protocol asks.
struct Txn {
  tlm::tlm_generic_payload p;
  std::vector<uint8_t> data;
  Txn(tlm::tlm_command command, uint64_t address, unsigned length, uint8_t fill = 0) : data(length, fill) {
    p.set_command(command);
    p.set_address(address);
    p.set_data_ptr(data.data());
    p.set_data_length(length);
    p.set_streaming_width(length);
    p.set_byte_enable_ptr(nullptr);
    p.set_byte_enable_length(0);
    p.set_dmi_allowed(false);
  }
  tlm::tlm_response_status status() const { return p.get_response_status(); }
};

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + i * 7);
  return v;
}

// starnuma8 (two chassis of four sockets and the pool) with `initiators` bound to fabric.target in
// order, elaborated; refresh is off so that an idle access costs exactly its unloaded latency.
struct Bench {
  std::unique_ptr<Platform> p;
  Fabric* fabric;
  std::vector<std::unique_ptr<CheckingInitiator>> init;
  Time t;

  explicit Bench(size_t initiators = 1, std::vector<std::string> sets = {},
                 const std::string& platform = "starnuma8.yaml") {
    sets.push_back("coherence.check=true");
    p = Platform::build(kPlatforms + platform, sets);
    fabric = &p->fabric();
    for (const Fabric::Range& r : fabric->address_map())
      if (Ddr5Controller* m = memory_of(r.node)) m->suspend_refresh(true);
    for (size_t i = 0; i < initiators; ++i) {
      init.push_back(std::make_unique<CheckingInitiator>(("initiator" + std::to_string(i)).c_str(), *fabric, i));
      init.back()->socket.bind(fabric->target);
    }
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  }
  uint64_t base(size_t range) const { return fabric->address_map().at(range).base; }
  uint64_t home_requests(size_t range) const { return fabric->address_map().at(range).home->requests(); }
  // 10 us after the last one: the fabric is idle again.
  Time next() { return t = t + 10_us; }
  // b_transport of `x` by initiator `i` at the next idle time; returns the added delay.
  Time send(Txn& x, size_t i = 0) { return init.at(i)->transport(x.p, next()); }
  std::vector<uint8_t> read(uint64_t address, unsigned length, size_t i = 0) {
    Txn x(tlm::TLM_READ_COMMAND, address, length, 0xEE);
    send(x, i);
    EXPECT_EQ(x.status(), tlm::TLM_OK_RESPONSE);
    return x.data;
  }
  void write(uint64_t address, const std::vector<uint8_t>& bytes, size_t i = 0) {
    Txn x(tlm::TLM_WRITE_COMMAND, address, static_cast<unsigned>(bytes.size()));
    x.data = bytes;
    x.p.set_data_ptr(x.data.data());
    send(x, i);
    EXPECT_EQ(x.status(), tlm::TLM_OK_RESPONSE);
  }
};

TEST(TlmTarget, BindingIndexNamesTheRequesterWithoutAnExtension) {
  Bench b(9);
  for (size_t i = 0; i < 8; ++i) {
    Txn x(tlm::TLM_READ_COMMAND, b.base(4), 64);
    const Time d = b.send(x, i);
    EXPECT_EQ(x.status(), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(d.ns(), i == 4 ? 80 : i / 4 == 1 ? 130 : 360) << "initiator " << i;
    EXPECT_EQ(d, b.fabric->unloaded_latency(i, 4));
  }
  // A ninth binding on an eight-socket machine names no requester.
  const uint64_t before = b.home_requests(4);
  Txn x(tlm::TLM_READ_COMMAND, b.base(4), 64);
  EXPECT_EQ(b.send(x, 8).ps(), 0);
  EXPECT_EQ(x.status(), tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(b.home_requests(4), before);
  EXPECT_NO_THROW(b.fabric->check_conservation());
}

// Temporal decoupling: a read a quantum ahead of simulated time, then one at the present time to
// the same DDR5 bank, another row. In time order the second comes first and finds the bank idle.
TEST(TlmTarget, AReadIssuedLateButEarlierInTimeFindsTheBankAsTimeOrderLeavesIt) {
  Bench b(1, {}, "baseline16.yaml");
  Ddr5Controller* mc = memory_of(b.fabric->address_map().at(0).node);
  ASSERT_NE(mc, nullptr);
  const Ddr5Controller::Location first = mc->locate(0);
  uint64_t other = 64;
  for (;; other += 64) {
    const Ddr5Controller::Location l = mc->locate(other);
    if (l.channel == first.channel && l.subchannel == first.subchannel && l.rank == first.rank &&
        l.bank_group == first.bank_group && l.bank == first.bank && l.row != first.row)
      break;
  }
  const Time quantum = b.p->settings().quantum();
  for (const Time gap : {quantum, Time::from_ps(quantum.ps() / 2)}) {
    const Time now = b.next();
    Txn later(tlm::TLM_READ_COMMAND, b.base(0), 64), earlier(tlm::TLM_READ_COMMAND, b.base(0) + other, 64);
    EXPECT_EQ(b.init[0]->transport(later.p, now + gap), 80_ns);
    EXPECT_EQ(b.init[0]->transport(earlier.p, now), 80_ns) << "a read " << gap.ns() << " ns before";
  }
}

TEST(TlmTarget, ExtensionNamesTheRequesterAndAnOutOfRangeOneIsAnError) {
  Bench b;
  RequesterExtension ext;
  ext.requester = 4;
  Txn x(tlm::TLM_READ_COMMAND, b.base(4), 64);
  x.p.set_extension(&ext);
  EXPECT_EQ(b.send(x).ns(), 80);  // socket4's own memory, though it came through binding 0
  ext.requester = 999;
  EXPECT_EQ(b.send(x).ps(), 0);
  EXPECT_EQ(x.status(), tlm::TLM_GENERIC_ERROR_RESPONSE);
  x.p.clear_extension(&ext);
  EXPECT_NO_THROW(b.fabric->check_conservation());
}

TEST(TlmTarget, AddressOutsideTheMapIsAnAddressErrorAndCountsNothing) {
  Bench b;
  const uint64_t end = b.fabric->map_end();
  std::vector<uint64_t> before;
  for (size_t k = 0; k < b.fabric->address_map().size(); ++k) before.push_back(b.home_requests(k));
  for (uint64_t address : {end, end - 32, end + 4096, ~uint64_t{0} - 10}) {
    Txn x(tlm::TLM_READ_COMMAND, address, 64);
    EXPECT_EQ(b.send(x).ps(), 0);
    EXPECT_EQ(x.status(), tlm::TLM_ADDRESS_ERROR_RESPONSE) << std::hex << address;
    Txn w(tlm::TLM_WRITE_COMMAND, address, 64);
    b.send(w);
    EXPECT_EQ(w.status(), tlm::TLM_ADDRESS_ERROR_RESPONSE) << std::hex << address;
  }
  for (size_t k = 0; k < before.size(); ++k) EXPECT_EQ(b.home_requests(k), before[k]);
  EXPECT_NO_THROW(b.fabric->check_conservation());
}

TEST(TlmTarget, AnAccessStraddlingTwoHomesIsServedByBoth) {
  Bench b(1, {"platform.functional_memory=true"});
  const uint64_t h0 = b.home_requests(0), h1 = b.home_requests(1);
  Txn x(tlm::TLM_READ_COMMAND, b.base(1) - 32, 64);
  // Both lines leave at once: the slower (socket1, 130 ns) completes the transaction.
  EXPECT_EQ(b.send(x).ns(), 130);
  EXPECT_EQ(b.home_requests(0), h0 + 1);
  EXPECT_EQ(b.home_requests(1), h1 + 1);
  const std::vector<uint8_t> bytes = pattern(200, 3);
  b.write(b.base(1) - 100, bytes);
  EXPECT_EQ(b.read(b.base(1) - 100, 200), bytes);
  EXPECT_NO_THROW(b.fabric->check_conservation());
}

TEST(TlmTarget, AnotherHostsMemoryIsAnAddressError) {
  Bench b(2, {}, "lmp4-physical.yaml");  // separate hosts that lend nothing, and a pool device
  ASSERT_FALSE(b.fabric->reachable(0, 1));
  Txn x(tlm::TLM_READ_COMMAND, b.base(1), 64);
  EXPECT_EQ(b.send(x, 0).ps(), 0);
  EXPECT_EQ(x.status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  Txn own(tlm::TLM_READ_COMMAND, b.base(1), 64);
  b.send(own, 1);
  EXPECT_EQ(own.status(), tlm::TLM_OK_RESPONSE);
  EXPECT_NO_THROW(b.fabric->check_conservation());
}

TEST(TlmTarget, LongAccessesCostOneAccessPerLine) {
  Bench b;
  const auto lines = [&](uint64_t address, unsigned length, Time* delay) {
    const uint64_t before = b.home_requests(0);
    Txn x(tlm::TLM_READ_COMMAND, address, length);
    *delay = b.send(x);
    EXPECT_EQ(x.status(), tlm::TLM_OK_RESPONSE);
    return b.home_requests(0) - before;
  };
  Time one, two, page, unaligned;
  EXPECT_EQ(lines(b.base(0) + 4096, 64, &one), 1u);
  EXPECT_EQ(lines(b.base(0) + 8192, 128, &two), 2u);
  EXPECT_EQ(lines(b.base(0) + 16384, 4096, &page), 64u);
  EXPECT_EQ(lines(b.base(0) + 32768 + 32, 64, &unaligned), 2u);
  EXPECT_EQ(one, b.fabric->unloaded_latency(0, 0));
  EXPECT_GE(two, one);
  EXPECT_GT(page, two);  // 64 lines share one memory channel
  EXPECT_NO_THROW(b.fabric->check_conservation());
}

TEST(TlmTarget, ByteEnablesSelectTheBytesMoved) {
  Bench b(1, {"platform.functional_memory=true"});
  const uint64_t a = b.base(2) + 64;
  b.write(a, std::vector<uint8_t>(64, 0xAA));
  const uint8_t even[] = {0xff, 0x00}, odd[] = {0x00, 0xff};
  Txn w(tlm::TLM_WRITE_COMMAND, a, 64, 0x55);
  w.p.set_byte_enable_ptr(const_cast<uint8_t*>(even));
  w.p.set_byte_enable_length(2);
  b.send(w);
  EXPECT_EQ(w.status(), tlm::TLM_OK_RESPONSE);
  const std::vector<uint8_t> all = b.read(a, 64);
  for (size_t i = 0; i < 64; ++i) EXPECT_EQ(all[i], i % 2 ? 0xAA : 0x55) << i;
  Txn r(tlm::TLM_READ_COMMAND, a, 64, 0x11);
  r.p.set_byte_enable_ptr(const_cast<uint8_t*>(odd));
  r.p.set_byte_enable_length(2);
  b.send(r);
  EXPECT_EQ(r.status(), tlm::TLM_OK_RESPONSE);
  for (size_t i = 0; i < 64; ++i) EXPECT_EQ(r.data[i], i % 2 ? 0xAA : 0x11) << i;  // disabled bytes untouched
  r.p.set_byte_enable_length(0);                                                   // a mask of no length
  EXPECT_EQ(b.send(r).ps(), 0);
  EXPECT_EQ(r.status(), tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
  r.p.set_byte_enable_ptr(nullptr);
}

TEST(TlmTarget, StreamingBurstsAreBurstErrors) {
  Bench b;
  for (unsigned width : {0u, 8u, 63u}) {
    Txn x(tlm::TLM_READ_COMMAND, b.base(0), 64);
    x.p.set_streaming_width(width);
    EXPECT_EQ(b.send(x).ps(), 0);
    EXPECT_EQ(x.status(), tlm::TLM_BURST_ERROR_RESPONSE) << width;
  }
  Txn wide(tlm::TLM_READ_COMMAND, b.base(0), 64);
  wide.p.set_streaming_width(128);  // wider than the transfer: no streaming
  b.send(wide);
  EXPECT_EQ(wide.status(), tlm::TLM_OK_RESPONSE);
}

TEST(TlmTarget, IgnoreCommandDoesNothingAndEmptyTransactionsAreErrors) {
  Bench b(1, {"platform.functional_memory=true"});
  b.write(b.base(0), std::vector<uint8_t>(64, 0x42));
  const uint64_t before = b.home_requests(0);
  for (uint64_t address : {b.base(0), b.fabric->map_end() + 64}) {
    Txn x(tlm::TLM_IGNORE_COMMAND, address, 64, 0x99);
    EXPECT_EQ(b.send(x).ps(), 0);
    EXPECT_EQ(x.status(), tlm::TLM_OK_RESPONSE);
    EXPECT_EQ(x.data, std::vector<uint8_t>(64, 0x99));
  }
  EXPECT_EQ(b.home_requests(0), before);
  EXPECT_EQ(b.read(b.base(0), 64), std::vector<uint8_t>(64, 0x42));
  // tlm_command has no value beyond read, write and ignore: a payload holding another one is
  // undefined behaviour before the target sees it (UBSan stops at the load), so it is not sent.
  Txn empty(tlm::TLM_READ_COMMAND, b.base(0), 0);
  b.send(empty);
  EXPECT_EQ(empty.status(), tlm::TLM_GENERIC_ERROR_RESPONSE);
  Txn no_data(tlm::TLM_WRITE_COMMAND, b.base(0), 64);
  no_data.p.set_data_ptr(nullptr);
  b.send(no_data);
  EXPECT_EQ(no_data.status(), tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_NO_THROW(b.fabric->check_conservation());
}

TEST(TlmTarget, NonBlockingTransportCompletesEarly) {
  Bench b;
  Txn x(tlm::TLM_READ_COMMAND, b.base(8), 64);
  EXPECT_EQ(b.init[0]->transport_nb(x.p, b.next()).ns(), 180);  // the pool
  EXPECT_EQ(x.status(), tlm::TLM_OK_RESPONSE);
}

TEST(TlmTarget, WithoutFunctionalMemoryReadsAreZerosAndNothingIsKept) {
  Bench b;
  EXPECT_EQ(b.fabric->functional_memory(), nullptr);
  b.write(b.base(1), pattern(64, 1));
  EXPECT_EQ(b.read(b.base(1), 64), std::vector<uint8_t>(64, 0));
  Txn x(tlm::TLM_READ_COMMAND, b.base(1), 64);
  b.send(x);
  EXPECT_FALSE(x.p.is_dmi_allowed());
  EXPECT_EQ(b.init[0]->socket->transport_dbg(x.p), 0u);
  tlm::tlm_dmi dmi;
  EXPECT_FALSE(b.init[0]->socket->get_direct_mem_ptr(x.p, dmi));
}

TEST(TlmTarget, FunctionalMemoryReadsBackWhatWasWritten) {
  Bench b(2, {"platform.functional_memory=true"});
  EXPECT_EQ(b.read(b.base(3) + 12345, 300), std::vector<uint8_t>(300, 0));  // never written
  const std::vector<uint8_t> page = pattern(4096 + 100, 9);
  b.write(b.base(8) + 50, page);                     // the pool, unaligned, over two store pages
  EXPECT_EQ(b.read(b.base(8) + 50, 4196, 1), page);  // another requester sees it
  EXPECT_EQ(b.read(b.base(8) + 50 + 4000, 8), std::vector<uint8_t>(page.begin() + 4000, page.begin() + 4008));
  EXPECT_NO_THROW(b.fabric->check_conservation());
}

TEST(TlmTarget, PageBytesMoveWithAMigrationAndDmiIsTakenBack) {
  Bench b(1, {"platform.functional_memory=true"});
  Fabric& f = *b.fabric;
  PageMap pages = make_page_map(f, uint64_t{1} << 30, nullptr);
  const uint64_t vpage = 77;
  ASSERT_TRUE(pages.place(vpage, 0));
  const uint64_t old_frame = pages.peek(vpage * pages.page_size());
  const std::vector<uint8_t> bytes = pattern(pages.page_size(), 5);
  b.write(old_frame, bytes);
  Txn probe(tlm::TLM_READ_COMMAND, old_frame, 64);
  tlm::tlm_dmi dmi;
  ASSERT_TRUE(b.init[0]->socket->get_direct_mem_ptr(probe.p, dmi));

  PageMover mover(f, pages, nullptr, {});
  mover.move(vpage, 8, 0, (b.next() + 1_us).ps() * 1000, 0);  // to the pool
  const uint64_t new_frame = pages.peek(vpage * pages.page_size());
  ASSERT_NE(new_frame, old_frame);
  EXPECT_EQ(b.read(new_frame, static_cast<unsigned>(pages.page_size())), bytes);
  EXPECT_EQ(b.read(old_frame, 64), std::vector<uint8_t>(64, 0));  // the freed frame keeps nothing
  const auto& inv = b.init[0]->invalidated;
  EXPECT_TRUE(std::any_of(inv.begin(), inv.end(), [&](const auto& r) {
    return r.first <= dmi.get_start_address() && dmi.get_end_address() <= r.second;
  })) << "the DMI pointer to the old frame was not invalidated";
  EXPECT_NO_THROW(f.check_conservation());
}

TEST(TlmTarget, DataSurvivesCoherenceTransfers) {
  Bench b(6, {"platform.functional_memory=true"});
  Coherence& c = b.p->coherence();
  const uint64_t a = b.base(2) + 4096;  // homed at socket2
  const std::vector<uint8_t> bytes = pattern(64, 11);
  b.write(a, bytes, 0);
  c.load(0, a, b.next());
  c.store(1, a, b.next());
  EXPECT_EQ(c.load(5, a, b.next()).path, CohPath::BtSocket);  // socket1's M copy goes to socket5
  c.store(4, a, b.next());                                    // the sharers are invalidated
  EXPECT_EQ(c.load(6, a, b.next()).path, CohPath::BtSocket);  // and socket4's M copy goes to socket6
  c.store(6, a, b.next());
  c.evict(6, a, b.next());  // PutM: the line goes home
  EXPECT_EQ(b.read(a, 64, 3), bytes);
  EXPECT_EQ(c.checker().violations(), 0u);
}

TEST(TlmTarget, DebugTransportMovesBytesWithoutTimingOrStatistics) {
  Bench b(1, {"platform.functional_memory=true"});
  const uint64_t a = b.base(1) + 10;
  const uint64_t before = b.home_requests(1);
  std::vector<uint8_t> bytes = pattern(100, 2);
  Txn w(tlm::TLM_WRITE_COMMAND, a, 100);
  w.data = bytes;
  w.p.set_data_ptr(w.data.data());
  EXPECT_EQ(b.init[0]->socket->transport_dbg(w.p), 100u);
  Txn r(tlm::TLM_READ_COMMAND, a, 100);
  EXPECT_EQ(b.init[0]->socket->transport_dbg(r.p), 100u);
  EXPECT_EQ(r.data, bytes);
  EXPECT_EQ(b.home_requests(1), before);  // no access counted
  EXPECT_EQ(b.read(a, 100), bytes);       // the same bytes as timed accesses see
  Txn tail(tlm::TLM_READ_COMMAND, b.fabric->map_end() - 50, 100);
  EXPECT_EQ(b.init[0]->socket->transport_dbg(tail.p), 50u);  // up to the end of the map
  Txn past(tlm::TLM_READ_COMMAND, b.fabric->map_end(), 100);
  EXPECT_EQ(b.init[0]->socket->transport_dbg(past.p), 0u);
}

TEST(TlmTarget, DmiGrantsPagesOfTheStore) {
  Bench b(1, {"platform.functional_memory=true"});
  const uint64_t a = b.base(8) + 3 * 4096 + 100;
  Txn x(tlm::TLM_READ_COMMAND, a, 64);
  b.send(x);
  EXPECT_TRUE(x.p.is_dmi_allowed());
  tlm::tlm_dmi dmi;
  ASSERT_TRUE(b.init[0]->socket->get_direct_mem_ptr(x.p, dmi));
  EXPECT_LE(dmi.get_start_address(), a);
  EXPECT_GE(dmi.get_end_address(), a + 63);
  EXPECT_TRUE(dmi.is_read_write_allowed());
  EXPECT_EQ(dmi.get_read_latency(), b.fabric->unloaded_latency(0, 8).to_sc());
  const std::vector<uint8_t> bytes = pattern(64, 4);
  std::copy(bytes.begin(), bytes.end(), dmi.get_dmi_ptr() + (a - dmi.get_start_address()));
  EXPECT_EQ(b.read(a, 64), bytes);
  Txn outside(tlm::TLM_READ_COMMAND, b.fabric->map_end() + 8, 64);
  EXPECT_FALSE(b.init[0]->socket->get_direct_mem_ptr(outside.p, dmi));
  EXPECT_LE(dmi.get_start_address(), b.fabric->map_end() + 8);
}

}  // namespace
}  // namespace starnuma
