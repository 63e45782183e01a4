// `tpcc`: TPC-C's five transactions over its nine tables, on an in-memory engine laid out as Silo
// (Tu et al., SOSP 2013) runs it under tpcc-runner: tables partitioned per warehouse, each worker
// thread with a home warehouse, Masstree-like B+-tree indexes, records with a TID word that Silo's
// optimistic concurrency control reads, locks and republishes. The database is really loaded and
// the transactions really executed on the host (the values that decide addresses and that TPC-C's
// consistency conditions need are kept, not whole row payloads); each transaction emits the loads
// and stores of the index nodes and record lines it touches.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "stimulus/layout.hpp"
#include "stimulus/micro/micro.hpp"
#include "stimulus/stream.hpp"

namespace starnuma::tpcc {

constexpr uint64_t kBase = uint64_t{1} << 42;
constexpr uint64_t kLine = 64;

// Scale and mix. Cardinalities are per warehouse / district; TPC-C's values are the defaults.
struct Config {
  unsigned warehouses = 64;
  unsigned districts = 10;    // per warehouse
  unsigned customers = 3000;  // per district
  unsigned items = 100000;    // ITEM rows, and STOCK rows per warehouse
  unsigned orders = 3000;     // initial orders per district (the last 30 % undelivered)
  // The mix in percent; Stock-Level takes the rest.
  unsigned new_order = 45, payment = 43, order_status = 4, delivery = 4;
  uint64_t transactions = 100000;  // per thread
  // Who first touches the database: each thread its home warehouses (a parallel loader), or
  // thread 0 all of it (tpcc-runner's single-threaded load_all_tables).
  bool serial_load = false;
};

enum Table : uint8_t {
  kWarehouse,
  kDistrict,
  kCustomer,
  kCustomerName,   // secondary index (w, d, c_last, c_first) -> c_id: index only
  kOrderCustomer,  // secondary index (w, d, c_id) -> the customer's latest order: index only
  kHistory,
  kNewOrder,
  kOrder,
  kOrderLine,
  kStock,
  kItem,
  kTables
};
const char* table_name(Table t);

// Silo's record: a 24-byte header (TID word, allocation size, older-version pointer) then the row,
// sized as tpcc-runner's row structs, allocated at 16-byte granularity.
constexpr uint32_t kHeader = 24;
constexpr uint32_t record_bytes(uint32_t row) { return (kHeader + row + 15) / 16 * 16; }
extern const std::array<uint32_t, kTables> kRecordBytes;  // 0: an index without records

// A B+-tree laid out implicitly over a dense key space [0, keys): Masstree's node shape (15 keys
// per node, 320 bytes), every node full, levels stored one after another. A node's address follows
// from the key, so the host keeps no tree, and a lookup visits the nodes a full tree's lookup would.
struct Tree {
  static constexpr unsigned kFanout = 15;
  static constexpr uint64_t kNodeBytes = 320;
  // Offsets in a node: version and permutation, then 15 key slices, then the 16 child/value pointers.
  static constexpr uint64_t kSlices = 16, kPointers = 152;
  uint64_t base = 0, keys = 0;
  unsigned height = 0;                   // levels; level 0 holds the leaves
  std::array<uint64_t, 8> level_base{};  // address of the level's first node
  std::array<uint64_t, 9> span{};        // keys under one node of the level: 15^(level + 1)
  static unsigned height_for(uint64_t keys);
  static uint64_t bytes_for(uint64_t keys);
  uint64_t node(unsigned level, uint64_t key) const { return level_base[level] + key / span[level] * kNodeBytes; }
  static unsigned slot(unsigned level, uint64_t key, const std::array<uint64_t, 9>& span) {
    return static_cast<unsigned>(key / (level ? span[level - 1] : 1) % kFanout);
  }
};

// One table of one warehouse (or the shared ITEM table): its index and its record array.
struct TableRegion {
  Tree index;
  uint64_t records = 0;  // address of row 0 (0: index only)
  uint32_t stride = 0;
  uint64_t rows = 0;  // capacity in rows
  uint64_t row(uint64_t i) const { return records + i * stride; }
};

// Where everything is. Warehouse w's tables are one contiguous block, so first touch by its
// loader places them together; ITEM (read-only, shared) and Silo's global epoch come first.
// Growing tables have a capacity per district: the initial orders plus every New-Order of every
// thread homed on the warehouse (the most one district can receive).
class Layout {
 public:
  explicit Layout(const Config& c, unsigned threads);
  const TableRegion& at(unsigned w, Table t) const { return t == kItem ? item_ : tables_[w * kTables + t]; }
  uint64_t epoch() const { return epoch_; }
  uint64_t order_capacity() const { return order_capacity_; }      // ORDER / NEW-ORDER rows per district
  uint64_t line_capacity() const { return order_capacity_ * 15; }  // ORDER-LINE rows per district
  uint64_t history_capacity() const { return history_capacity_; }  // HISTORY rows per warehouse
  uint64_t begin() const { return kBase; }
  uint64_t end() const { return end_; }
  uint64_t warehouse_begin(unsigned w) const { return warehouse_begin_[w]; }
  // Which table (and warehouse) an address belongs to; false outside every table.
  bool locate(uint64_t address, unsigned& warehouse, Table& table, bool& index) const;

 private:
  TableRegion item_;
  std::vector<TableRegion> tables_;  // warehouse w's at w * kTables + table (its ITEM slot unused)
  std::vector<uint64_t> warehouse_begin_;
  uint64_t epoch_ = 0, order_capacity_ = 0, history_capacity_ = 0, end_ = 0;
};

// Money in cents, so the consistency sums are exact.
using Cents = int64_t;

struct CustomerRow {
  Cents balance = 0, ytd_payment = 0;
  uint32_t payment_cnt = 0, delivery_cnt = 0;
  uint32_t last_order = 0;  // the customer's latest o_id (Order-Status; the secondary index)
};
struct OrderRow {
  uint32_t c_id = 0;
  uint32_t first_line = 0;          // its lines are rows [first_line, first_line + ol_cnt) of the district's ORDER-LINE
  Cents amount = 0;                 // sum of its lines' OL_AMOUNT
  uint8_t ol_cnt = 0, carrier = 0;  // carrier 0: null
  bool new_order = false;           // its NEW-ORDER row exists
};
struct HistoryRow {
  uint32_t c_w, c_d, c_id;  // 0-based warehouse and district, 1-based customer
  uint32_t d;               // the paying district (of the row's warehouse)
  Cents amount;
};
struct DistrictState {
  Cents ytd = 0;
  uint32_t next_o_id = 0;
  uint32_t oldest_new_order = 0;        // Delivery's cursor: the lowest o_id that may have a NEW-ORDER row
  std::vector<OrderRow> orders;         // o_id 1.. at index o_id - 1
  std::vector<uint32_t> line_item;      // OL_I_ID of each ORDER-LINE row
  std::vector<uint8_t> line_delivered;  // OL_DELIVERY_D not null
  std::vector<uint64_t> names;          // (c_last number, c_first key, c_id) sorted: the name index
};
struct WarehouseState {
  Cents ytd = 0;
  std::vector<DistrictState> districts;
  std::vector<CustomerRow> customers;   // d * customers + c_id - 1
  std::vector<int16_t> stock_quantity;  // i_id - 1
  std::vector<HistoryRow> history;
};

// The host's copy of the database: what decides addresses and what the checks read.
struct Database {
  Config config;
  std::vector<WarehouseState> warehouses;
  // The load (TPC-C clause 4.3.3), from `seed`; deterministic whatever the thread count.
  Database(const Config& c, uint64_t seed);
  CustomerRow& customer(unsigned w, unsigned d, uint32_t c_id) {
    return warehouses[w].customers[uint64_t{d} * config.customers + c_id - 1];
  }
  // Host bytes the loaded database needs (each executed transaction adds about 100).
  static uint64_t host_bytes(const Config& c);
};

// Values derived from the seed instead of stored (clause 4.3.3's random columns).
struct Derived {
  uint64_t seed;
  Cents price(uint32_t i_id) const;                           // I_PRICE, 1.00 .. 100.00
  bool bad_credit(unsigned w, unsigned d, uint32_t c) const;  // C_CREDIT = "BC" (10 %)
  static uint64_t mix(uint64_t z);
};

enum class TxType : uint8_t { NewOrder, Payment, OrderStatus, Delivery, StockLevel };

struct ThreadStats {
  std::array<uint64_t, 5> by_type{};
  uint64_t rollbacks = 0, items = 0, remote_items = 0, remote_payments = 0, by_name = 0, name_lookups = 0;
  uint64_t delivered = 0, low_stock = 0;
};

// Executes transactions in the global round order and queues each thread's operations.
class Engine;

class TpccWorkload : public Workload {
 public:
  TpccWorkload(const Config& c, unsigned threads, uint64_t seed);
  ~TpccWorkload() override;
  unsigned threads() const override { return threads_; }
  uint64_t footprint() const override { return footprint_; }
  std::unique_ptr<ThreadStream> stream(unsigned thread) const override;
  bool initialises() const override { return true; }
  const Config& config() const { return config_; }
  const Layout& layout() const { return *layout_; }
  unsigned home(unsigned thread) const { return thread % config_.warehouses; }
  // A fresh execution (its own copy of the loaded database), for checks without streams: run
  // every thread's transactions to the end.
  std::shared_ptr<Engine> execute_all() const;
  // The engine the latest streams share (the one a second stream of some thread would not join).
  std::shared_ptr<Engine> current_engine() const { return current_; }
  // Thread t's share of the parallel load: page ranges it first touches, one store per page.
  std::vector<micro::FirstTouch> load(unsigned t) const;

 private:
  Config config_;
  unsigned threads_;
  uint64_t seed_, footprint_;
  std::shared_ptr<const Layout> layout_;
  std::shared_ptr<const Database> loaded_;
  mutable std::shared_ptr<Engine> current_;  // streams created together share one execution
  mutable std::vector<bool> joined_;
};

// The operations queued per thread, and the execution's results.
class Engine {
 public:
  Engine(const TpccWorkload& w, std::shared_ptr<const Layout> layout, const Database& loaded, uint64_t seed);
  ~Engine();
  // Copies up to `max` of thread t's next operations to `out`, first executing transactions in
  // round order until t has some queued; 0 when t has executed all its transactions.
  size_t take(unsigned t, StreamOp* out, size_t max);
  // Executes every thread's remaining transactions (dropping their operations).
  void run_to_end();
  const Database& database() const { return db_; }
  const ThreadStats& stats(unsigned t) const { return threads_[t].stats; }
  uint64_t executed(unsigned t) const { return threads_[t].executed; }
  uint64_t max_buffered() const { return max_buffered_; }  // the most operations ever queued at once
  // Beyond this many queued operations (16 bytes each) the streams are too far apart: an error.
  static constexpr uint64_t kMaxBuffered = uint64_t{1} << 27;

 private:
  friend class Transactions;
  struct ThreadState {
    uint64_t rng = 0, executed = 0;
    std::vector<StreamOp> queue;
    size_t head = 0;
    uint32_t pending = 0;  // instructions not yet attached to an operation
    ThreadStats stats;
  };
  void execute_next(bool keep_operations = true);

  const Config config_;
  std::shared_ptr<const Layout> layout_;
  Database db_;
  Derived derived_;
  std::vector<ThreadState> threads_;
  unsigned homes_;
  unsigned next_thread_ = 0;
  uint64_t buffered_ = 0, max_buffered_ = 0;
  std::unique_ptr<class Transactions> tx_;
};

// TPC-C's non-uniform random (clause 2.1.6) with run-time constants C.
uint64_t nurand(uint64_t& rng, uint64_t a, uint64_t x, uint64_t y, uint64_t c);
uint64_t uniform(uint64_t& rng, uint64_t lo, uint64_t hi);  // [lo, hi]

}  // namespace starnuma::tpcc
