// tpcc (stimulus/tpcc/): TPC-C's consistency conditions (clause 3.3.2) on the database the
// transactions leave, the mix and its remote and rollback rates, the streams' addresses against the
// tables, determinism whatever order the streams are read in, seeds and parameter errors.
#include <algorithm>
#include <iostream>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "harness/expect_report.hpp"
#include "stimulus/stream_capture.hpp"
#include "stimulus/tpcc/tpcc.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {
namespace {

using tpcc::Database;
using tpcc::TpccWorkload;

const std::string kSmall = "tpcc:warehouses=4,districts=3,customers=60,items=500,orders=60,transactions=400";

const TpccWorkload& as_tpcc(const Workload& w) { return dynamic_cast<const TpccWorkload&>(w); }

// Clause 3.3.2's consistency conditions 1-12 (11 as it holds after any run: the difference grows by
// one per delivered order) and the customers' payment counts.
void check_consistency(const Database& db, uint64_t deliveries) {
  const tpcc::Config& c = db.config;
  const uint32_t initially_delivered = c.orders - c.orders * 3 / 10;
  std::map<std::tuple<unsigned, unsigned, uint32_t>, tpcc::Cents> paid, delivered_amount;
  std::map<std::tuple<unsigned, unsigned, uint32_t>, uint32_t> payments;
  for (const tpcc::WarehouseState& ws : db.warehouses)
    for (const tpcc::HistoryRow& h : ws.history) {
      paid[{h.c_w, h.c_d, h.c_id}] += h.amount;
      ++payments[{h.c_w, h.c_d, h.c_id}];
    }
  uint64_t orders_minus_new_orders = 0;
  for (unsigned w = 0; w < c.warehouses; ++w) {
    const tpcc::WarehouseState& ws = db.warehouses[w];
    tpcc::Cents district_ytd = 0, history = 0;
    std::vector<tpcc::Cents> history_by_district(c.districts);
    for (const tpcc::HistoryRow& h : ws.history) {
      history += h.amount;
      history_by_district.at(h.d) += h.amount;
    }
    for (unsigned d = 0; d < c.districts; ++d) {
      const tpcc::DistrictState& ds = ws.districts[d];
      district_ytd += ds.ytd;
      EXPECT_EQ(ds.ytd, history_by_district[d]) << "condition 9, w " << w << " d " << d;
      ASSERT_EQ(ds.orders.size(), ds.next_o_id - 1u) << "condition 2: D_NEXT_O_ID - 1 = max(O_ID)";
      uint32_t min_no = ~0u, max_no = 0, count_no = 0;
      uint64_t lines = 0;
      for (uint32_t o = 1; o <= ds.orders.size(); ++o) {
        const tpcc::OrderRow& order = ds.orders[o - 1];
        if (order.new_order) min_no = std::min(min_no, o), max_no = std::max(max_no, o), ++count_no;
        EXPECT_EQ(order.carrier == 0, order.new_order) << "condition 5, order " << o;
        ASSERT_EQ(order.first_line, lines) << "condition 6: the order's lines follow the previous order's";
        for (unsigned l = 0; l < order.ol_cnt; ++l)
          ASSERT_EQ(ds.line_delivered.at(lines + l) != 0, order.carrier != 0) << "condition 7, order " << o;
        lines += order.ol_cnt;
        if (order.carrier) delivered_amount[{w, d, order.c_id}] += order.amount;
      }
      EXPECT_EQ(lines, ds.line_item.size()) << "condition 4: sum(O_OL_CNT) = count(ORDER-LINE)";
      if (count_no) {
        EXPECT_EQ(max_no, ds.next_o_id - 1) << "condition 2: max(NO_O_ID)";
        EXPECT_EQ(max_no - min_no + 1, count_no) << "condition 3";
      }
      orders_minus_new_orders += ds.orders.size() - count_no;
    }
    EXPECT_EQ(ws.ytd, district_ytd) << "condition 1, w " << w;
    EXPECT_EQ(ws.ytd, history) << "condition 8, w " << w;
  }
  EXPECT_EQ(orders_minus_new_orders, uint64_t{c.warehouses} * c.districts * initially_delivered + deliveries)
      << "condition 11";
  for (unsigned w = 0; w < c.warehouses; ++w)
    for (unsigned d = 0; d < c.districts; ++d)
      for (uint32_t id = 1; id <= c.customers; ++id) {
        const tpcc::CustomerRow& row = db.warehouses[w].customers[uint64_t{d} * c.customers + id - 1];
        const auto key = std::make_tuple(w, d, id);
        const tpcc::Cents delivered = delivered_amount.count(key) ? delivered_amount.at(key) : 0;
        ASSERT_EQ(row.balance, delivered - paid.at(key)) << "condition 10, customer " << w << "." << d << "." << id;
        ASSERT_EQ(row.balance + row.ytd_payment, delivered) << "condition 12";
        ASSERT_EQ(row.payment_cnt, payments.at(key)) << "C_PAYMENT_CNT = its HISTORY rows";
      }
}

uint64_t deliveries(const tpcc::Engine& e, unsigned threads) {
  uint64_t n = 0;
  for (unsigned t = 0; t < threads; ++t) n += e.stats(t).delivered;
  return n;
}

TEST(Tpcc, TheLoadedDatabaseIsConsistent) {
  auto w = make_workload(kSmall, 6, 2, 1);
  tpcc::Config c = as_tpcc(*w).config();
  check_consistency(Database(c, 1), 0);
}

TEST(Tpcc, ConsistencyConditionsHoldAfterTheTransactions) {
  for (unsigned threads : {1u, 3u, 6u, 9u}) {  // fewer, as many and more threads than warehouses
    auto w = make_workload(kSmall, threads, 2, 5);
    auto engine = as_tpcc(*w).execute_all();
    for (unsigned t = 0; t < threads; ++t) EXPECT_EQ(engine->executed(t), 400u);
    check_consistency(engine->database(), deliveries(*engine, threads));
    uint64_t new_orders = 0, rollbacks = 0, added = 0;
    for (unsigned t = 0; t < threads; ++t) {
      new_orders += engine->stats(t).by_type[0];
      rollbacks += engine->stats(t).rollbacks;
    }
    for (const auto& ws : engine->database().warehouses)
      for (const auto& ds : ws.districts) added += ds.orders.size() - 60;
    EXPECT_EQ(added, new_orders - rollbacks) << "every committed New-Order adds one order";
    EXPECT_GT(deliveries(*engine, threads), 0u);
  }
}

TEST(Tpcc, TheMixRemoteAccessesAndRollbacksFollowTheSpecification) {
  auto w =
      make_workload("tpcc:warehouses=8,districts=10,customers=3000,items=100000,orders=300,transactions=5000", 8, 2, 3);
  auto engine = as_tpcc(*w).execute_all();
  tpcc::ThreadStats s;
  for (unsigned t = 0; t < 8; ++t) {
    const tpcc::ThreadStats& x = engine->stats(t);
    for (size_t k = 0; k < 5; ++k) s.by_type[k] += x.by_type[k];
    s.rollbacks += x.rollbacks, s.items += x.items, s.remote_items += x.remote_items;
    s.remote_payments += x.remote_payments, s.by_name += x.by_name, s.name_lookups += x.name_lookups;
  }
  const double n = 40000;
  const double expected[5] = {0.45, 0.43, 0.04, 0.04, 0.04};
  for (size_t k = 0; k < 5; ++k) EXPECT_NEAR(s.by_type[k] / n, expected[k], 0.01) << "type " << k;
  EXPECT_NEAR(static_cast<double>(s.rollbacks) / s.by_type[0], 0.01, 0.003);
  EXPECT_NEAR(static_cast<double>(s.remote_items) / s.items, 0.01, 0.002);
  EXPECT_NEAR(static_cast<double>(s.remote_payments) / s.by_type[1], 0.15, 0.01);
  EXPECT_NEAR(static_cast<double>(s.by_name) / s.name_lookups, 0.60, 0.02);
  check_consistency(engine->database(), deliveries(*engine, 8));
  // One warehouse: nothing is remote.
  auto one = make_workload("tpcc:warehouses=1,customers=100,items=1000,orders=100,transactions=2000", 2, 1, 3);
  auto e1 = as_tpcc(*one).execute_all();
  EXPECT_EQ(e1->stats(0).remote_items + e1->stats(0).remote_payments, 0u);
}

// Every operation lies in a table (or is Silo's epoch); rows of the growing tables exist at the end.
void check_addresses(const TpccWorkload& w, const Phases& p, const Database& db) {
  const tpcc::Layout& layout = w.layout();
  const tpcc::Config& c = w.config();
  for (unsigned t = 0; t < w.threads(); ++t) {
    for (const StreamOp& op : p[0][t]) {  // the load: only its own warehouses, ITEM and the epoch for thread 0
      ASSERT_EQ(op.kind, StreamOp::Kind::Store);
      unsigned wh;
      tpcc::Table table;
      bool index;
      if (!layout.locate(op.address, wh, table, index)) {
        ASSERT_EQ(op.address / 4096, layout.epoch() / 4096);
        continue;
      }
      EXPECT_EQ(table == tpcc::kItem ? 0u : wh % w.threads(), t);
    }
    std::set<tpcc::Table> tables;
    for (const StreamOp& op : p[1][t]) {
      unsigned wh;
      tpcc::Table table;
      bool index;
      if (!layout.locate(op.address, wh, table, index)) {
        ASSERT_EQ(op.address, layout.epoch());
        ASSERT_EQ(op.kind, StreamOp::Kind::Load);
        continue;
      }
      tables.insert(table);
      if (table == tpcc::kItem) {
        ASSERT_EQ(op.kind, StreamOp::Kind::Load) << "ITEM is read-only";
      }
      // Only STOCK (New-Order's remote lines) and CUSTOMER (Payment's remote customers) of other warehouses.
      if (table != tpcc::kItem && table != tpcc::kStock && table != tpcc::kCustomer && table != tpcc::kCustomerName) {
        ASSERT_EQ(wh, w.home(t)) << tpcc::table_name(table);
      }
      if (index) continue;
      const tpcc::TableRegion& r = layout.at(wh, table);
      const uint64_t row = (op.address - r.records) / r.stride;
      const tpcc::WarehouseState& ws = db.warehouses[wh];
      if (table == tpcc::kOrder || table == tpcc::kNewOrder) {
        ASSERT_LT(row % layout.order_capacity(), ws.districts.at(row / layout.order_capacity()).orders.size());
      } else if (table == tpcc::kOrderLine) {
        ASSERT_LT(row % layout.line_capacity(), ws.districts.at(row / layout.line_capacity()).line_item.size());
      } else if (table == tpcc::kHistory) {
        ASSERT_LT(row, ws.history.size());
      }
    }
    EXPECT_EQ(tables.size(), 11u) << "every table is used by thread " << t;  // c: 400 transactions each
    (void)c;
  }
}

TEST(Tpcc, StreamsTouchTheTablesTheTransactionsUse) {
  auto w = make_workload(kSmall, 6, 2, 2);
  const Phases p = phases(*w);
  ASSERT_EQ(p.size(), 2u);  // the load, the transactions
  const TpccWorkload& t = as_tpcc(*w);
  auto engine = t.current_engine();
  check_addresses(t, p, engine->database());
  check_consistency(engine->database(), deliveries(*engine, 6));
  // The load touches each page of the loaded tables once, and the footprint counts them.
  std::set<uint64_t> pages;
  uint64_t stores = 0;
  for (unsigned x = 0; x < 6; ++x)
    for (const StreamOp& op : p[0][x]) pages.insert(op.address / 4096), ++stores;
  EXPECT_EQ(stores, pages.size());
  EXPECT_EQ(w->footprint(), pages.size() * 4096);
  EXPECT_TRUE(w->initialises());
  // loader=serial: thread 0 first touches every page, the others none.
  auto serial = make_workload(kSmall + ",loader=serial", 6, 2, 2);
  const Phases q = phases(*serial);
  std::set<uint64_t> serial_pages;
  for (const StreamOp& op : q[0][0]) serial_pages.insert(op.address / 4096);
  EXPECT_EQ(serial_pages, pages);
  for (unsigned x = 1; x < 6; ++x) EXPECT_TRUE(q[0][x].empty());
  for (unsigned x = 0; x < 6; ++x) {  // the transactions do not depend on the loader
    ASSERT_EQ(q[1][x].size(), p[1][x].size());
    for (size_t i = 0; i < p[1][x].size(); ++i) ASSERT_EQ(q[1][x][i].address, p[1][x][i].address);
  }
}

// Thread t's operations, the streams read in an order given by `next` (thread, batch) until done.
std::vector<std::vector<StreamOp>> read_streams(const Workload& w, bool reverse_interleaved) {
  const unsigned n = w.threads();
  std::vector<std::unique_ptr<ThreadStream>> s(n);
  std::vector<std::vector<StreamOp>> ops(n);
  std::vector<StreamOp> buffer(1000);
  if (!reverse_interleaved) {
    for (unsigned t = 0; t < n; ++t) {
      s[t] = w.stream(t);
      for (size_t k; (k = s[t]->fill(buffer.data(), 1000)) > 0;)
        ops[t].insert(ops[t].end(), buffer.begin(), buffer.begin() + k);
    }
    return ops;
  }
  for (unsigned t = n; t-- > 0;) s[t] = w.stream(t);
  std::vector<bool> done(n);
  for (unsigned live = n, step = 0; live > 0; ++step)
    for (unsigned t = n; t-- > 0;) {
      if (done[t]) continue;
      const size_t batch = 1 + (step * 7 + t * 13) % (t == 0 ? 5 : 997);  // thread 0 lags far behind
      const size_t k = s[t]->fill(buffer.data(), batch);
      ops[t].insert(ops[t].end(), buffer.begin(), buffer.begin() + k);
      if (k == 0) done[t] = true, --live;
    }
  return ops;
}

TEST(Tpcc, AThreadsStreamDoesNotDependOnTheOrderStreamsAreRead) {
  auto a = make_workload(kSmall, 5, 2, 11), b = make_workload(kSmall, 5, 2, 11);
  const auto x = read_streams(*a, false), y = read_streams(*b, true);
  for (unsigned t = 0; t < 5; ++t) {
    ASSERT_EQ(x[t].size(), y[t].size()) << "thread " << t;
    for (size_t i = 0; i < x[t].size(); ++i) {
      ASSERT_EQ(x[t][i].address, y[t][i].address) << "thread " << t << " op " << i;
      ASSERT_EQ(x[t][i].kind, y[t][i].kind);
      ASSERT_EQ(x[t][i].instructions, y[t][i].instructions);
      ASSERT_EQ(x[t][i].dependent, y[t][i].dependent);
    }
  }
  EXPECT_GT(as_tpcc(*b).current_engine()->max_buffered(), 1000u);  // thread 0's lag was buffered
  // A second stream of a thread starts over on a fresh execution.
  const auto again = all_ops(*a, 3);
  ASSERT_EQ(again.size(), x[3].size());
  EXPECT_TRUE(std::equal(again.begin(), again.end(), x[3].begin(),
                         [](const StreamOp& p, const StreamOp& q) { return p.address == q.address; }));
}

TEST(Tpcc, SeedsDecideTheStreams) {
  auto a = make_workload(kSmall, 2, 1, 1), b = make_workload(kSmall, 2, 1, 2);
  const auto x = all_ops(*a, 1, 1000, 20000), y = all_ops(*b, 1, 1000, 20000);
  std::vector<uint64_t> xa, ya;
  for (const StreamOp& op : x) xa.push_back(op.address);
  for (const StreamOp& op : y) ya.push_back(op.address);
  EXPECT_NE(xa, ya);
  // Threads draw from their own generators: threads 0 and 2 share warehouse 0, not their streams.
  auto c = make_workload("tpcc:warehouses=2,districts=3,customers=60,items=500,orders=60,transactions=50", 4, 1, 1);
  auto e = as_tpcc(*c).execute_all();
  EXPECT_NE(e->stats(0).by_type, e->stats(2).by_type);
}

TEST(Tpcc, CostModelAndDefaults) {
  auto w = make_workload("tpcc:warehouses=2,transactions=20", 2, 1, 1);
  const TpccWorkload& t = as_tpcc(*w);
  EXPECT_EQ(t.config().districts, 10u);
  EXPECT_EQ(t.config().customers, 3000u);
  EXPECT_EQ(t.layout().begin(), uint64_t{1} << 42);
  EXPECT_LT(t.layout().end(), uint64_t{1} << 47);
  // The full-size warehouse's tables: 100 000 STOCK rows of 352 bytes, 30 000 CUSTOMER rows of 720.
  EXPECT_EQ(t.layout().at(1, tpcc::kStock).stride, 352u);
  EXPECT_EQ(t.layout().at(1, tpcc::kCustomer).stride, 720u);
  EXPECT_GT(w->footprint(), 2 * (100000ull * 352 + 30000ull * 720));
  uint64_t instructions = 0, memory = 0;
  for (const StreamOp& op : all_ops(*w, 0))
    if (op.kind != StreamOp::Kind::Barrier) instructions += op.instructions + 1, memory += 1;
  EXPECT_GT(instructions / 20, 5000u);  // per transaction
  EXPECT_LT(instructions / 20, 60000u);
  std::cout << "per transaction: " << instructions / 20 << " instructions, " << memory / 20 << " memory operations\n";
  // The paper's 64 warehouses: the loaded database's pages.
  auto full = make_workload("tpcc", 64, 16, 1);
  std::cout << "footprint at 64 warehouses: " << full->footprint() << " bytes\n";
  EXPECT_GT(full->footprint(), uint64_t{5} << 30);
  EXPECT_LT(full->footprint(), uint64_t{12} << 30);
}

TEST(Tpcc, BadParametersAreReported) {
  testing::expect_config_errors(
      {
          {"tpcc:warehouses=0", "tpcc.warehouses: value 0 is out of range [1, 4096]"},
          {"tpcc:new_order=60,payment=43", "more than 100 %"},
          {"tpcc:warehouses=4096,transactions=1000", "of host memory; at most"},
          {"tpcc:warehouses=100,transactions=4294967296", "beyond 2^47"},
          {"tpcc:loader=fast", "'fast' is not one of parallel, serial"},
          {"tpcc:warehouse=3", "unknown key 'warehouse' (did you mean 'warehouses'?)"},
      },
      [](const std::string& text) { make_workload(text, 4, 2, 1); });
}

}  // namespace
}  // namespace starnuma
