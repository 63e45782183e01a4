// The tpcc address layout and the host's copy of the loaded database (TPC-C clause 4.3.3).
#include <algorithm>
#include <numeric>

#include "stimulus/tpcc/tpcc.hpp"

namespace starnuma::tpcc {

// Row bytes of tpcc-runner's structs (benchmarks/tpcc/include/record_layout.hpp) on x86-64, then
// Silo's header: WAREHOUSE 112, DISTRICT 112, CUSTOMER 696, HISTORY 64, NEW-ORDER 12, ORDER 24,
// ORDER-LINE 80, STOCK 324, ITEM 96.
const std::array<uint32_t, kTables> kRecordBytes = {
    record_bytes(112), record_bytes(112), record_bytes(696), 0, 0, record_bytes(64), record_bytes(12), record_bytes(24),
    record_bytes(80),  record_bytes(324), record_bytes(96)};

const char* table_name(Table t) {
  static const char* names[kTables] = {"WAREHOUSE",      "DISTRICT", "CUSTOMER",  "CUSTOMER-NAME",
                                       "ORDER-CUSTOMER", "HISTORY",  "NEW-ORDER", "ORDER",
                                       "ORDER-LINE",     "STOCK",    "ITEM"};
  return names[t];
}

unsigned Tree::height_for(uint64_t keys) {
  unsigned h = 1;
  for (uint64_t span = kFanout; span < keys; span *= kFanout) ++h;
  return h;
}

uint64_t Tree::bytes_for(uint64_t keys) {
  uint64_t nodes = 0, span = kFanout;
  for (unsigned l = 0; l < height_for(keys); ++l, span *= kFanout) nodes += (keys + span - 1) / span;
  return nodes * kNodeBytes;
}

namespace {

TableRegion allocate(ArrayAllocator& a, uint64_t keys, uint64_t rows, uint32_t stride) {
  TableRegion r;
  r.index.keys = keys;
  r.index.height = Tree::height_for(keys);
  r.index.base = a.allocate(Tree::bytes_for(keys));
  uint64_t at = r.index.base, span = Tree::kFanout;
  for (unsigned l = 0; l < r.index.height; ++l, span *= Tree::kFanout) {
    r.index.level_base[l] = at;
    r.index.span[l] = span;
    at += (keys + span - 1) / span * Tree::kNodeBytes;
  }
  r.index.span[r.index.height] = span;
  r.stride = stride;
  r.rows = stride ? rows : 0;
  r.records = stride ? a.allocate(rows * stride) : 0;
  return r;
}

}  // namespace

Layout::Layout(const Config& c, unsigned threads) {
  const uint64_t per_home = std::max(1u, (threads + c.warehouses - 1) / c.warehouses);
  order_capacity_ = c.orders + c.transactions * per_home;
  history_capacity_ = uint64_t{c.districts} * c.customers + c.transactions * per_home;
  ArrayAllocator a(kBase);
  epoch_ = a.allocate(kPageBytes);  // Silo's global epoch word, read by every commit
  tables_.resize(uint64_t{kTables} * c.warehouses);
  item_ = allocate(a, c.items, c.items, kRecordBytes[kItem]);
  const uint64_t dc = uint64_t{c.districts} * c.customers, orders = c.districts * order_capacity_;
  for (unsigned w = 0; w < c.warehouses; ++w) {
    warehouse_begin_.push_back(a.end());
    TableRegion* t = &tables_[w * kTables];
    for (unsigned k = 0; k < kItem; ++k) {
      const auto table = static_cast<Table>(k);
      const uint64_t keys = table == kWarehouse                                                       ? 1
                            : table == kDistrict                                                      ? c.districts
                            : table == kCustomer || table == kCustomerName || table == kOrderCustomer ? dc
                            : table == kHistory   ? history_capacity_
                            : table == kOrderLine ? c.districts * line_capacity()
                            : table == kStock     ? c.items
                                                  : orders;
      t[k] = allocate(a, keys, keys, kRecordBytes[k]);
    }
  }
  end_ = a.end();
}

bool Layout::locate(uint64_t address, unsigned& warehouse, Table& table, bool& index) const {
  auto in = [&](const TableRegion& r) {
    const Tree& tr = r.index;
    if (address >= tr.base && address < tr.base + Tree::bytes_for(tr.keys)) return index = true;
    index = false;
    return r.stride && address >= r.records && address < r.records + r.rows * r.stride;
  };
  if (in(item_)) {
    warehouse = 0;
    table = kItem;
    return true;
  }
  const auto it = std::upper_bound(warehouse_begin_.begin(), warehouse_begin_.end(), address);
  if (it == warehouse_begin_.begin()) return false;
  warehouse = static_cast<unsigned>(it - warehouse_begin_.begin() - 1);
  for (unsigned k = 0; k < kItem; ++k)
    if (in(at(warehouse, static_cast<Table>(k)))) {
      table = static_cast<Table>(k);
      return true;
    }
  return false;
}

// ---- random values ----------------------------------------------------------------------------

uint64_t Derived::mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

Cents Derived::price(uint32_t i_id) const { return 100 + static_cast<Cents>(mix(seed ^ (uint64_t{i_id} << 8)) % 9901); }

bool Derived::bad_credit(unsigned w, unsigned d, uint32_t c) const {
  return mix(seed ^ 0xc7ed17 ^ (uint64_t{w} << 40) ^ (uint64_t{d} << 24) ^ c) % 10 == 0;
}

uint64_t uniform(uint64_t& rng, uint64_t lo, uint64_t hi) {
  __extension__ typedef unsigned __int128 u128;
  const uint64_t r = Derived::mix(rng += 0x9e3779b97f4a7c15ull);
  return lo + static_cast<uint64_t>((u128{r} * (hi - lo + 1)) >> 64);
}

uint64_t nurand(uint64_t& rng, uint64_t a, uint64_t x, uint64_t y, uint64_t c) {
  return (((uniform(rng, 0, a) | uniform(rng, x, y)) + c) % (y - x + 1)) + x;
}

// ---- the load ----------------------------------------------------------------------------------

namespace {
constexpr uint64_t kLoadNameC = 157;  // C for C_LAST at load (run: 223; clause 2.1.6.1's delta rule)
}

Database::Database(const Config& c, uint64_t seed) : config(c), warehouses(c.warehouses) {
  const uint32_t delivered = c.orders - c.orders * 3 / 10;  // TPC-C: orders 1..2100 of 3000
  for (unsigned w = 0; w < c.warehouses; ++w) {
    uint64_t rng = Derived::mix(seed ^ (0x10ad0000ull + w));
    WarehouseState& ws = warehouses[w];
    ws.ytd = Cents{1000} * c.customers * c.districts;  // W_YTD 300000.00: the initial payments
    ws.customers.resize(uint64_t{c.districts} * c.customers);
    ws.stock_quantity.resize(c.items);
    for (int16_t& q : ws.stock_quantity) q = static_cast<int16_t>(uniform(rng, 10, 100));
    ws.districts.resize(c.districts);
    std::vector<uint32_t> permutation(c.customers);
    for (unsigned d = 0; d < c.districts; ++d) {
      DistrictState& ds = ws.districts[d];
      ds.ytd = Cents{1000} * c.customers;
      ds.next_o_id = c.orders + 1;
      ds.oldest_new_order = delivered + 1;
      for (uint32_t id = 1; id <= c.customers; ++id) {
        CustomerRow& row = customer(w, d, id);
        row.balance = -1000;
        row.ytd_payment = 1000;
        row.payment_cnt = 1;
        // C_LAST: the first 1000 customers take the names 0..999 in order, the others NURand's.
        const uint64_t last = id <= 1000 ? id - 1 : nurand(rng, 255, 0, 999, kLoadNameC);
        const uint64_t first = uniform(rng, 0, 0xffffffffu);
        ds.names.push_back(last << 52 | first << 20 | id);
        ws.history.push_back(HistoryRow{w, d, id, d, 1000});
      }
      std::sort(ds.names.begin(), ds.names.end());
      // O_C_ID: a random permutation of the customers, repeated if there are more orders.
      std::iota(permutation.begin(), permutation.end(), 1u);
      for (uint32_t i = c.customers - 1; i > 0; --i) std::swap(permutation[i], permutation[uniform(rng, 0, i)]);
      ds.orders.resize(c.orders);
      for (uint32_t o = 1; o <= c.orders; ++o) {
        OrderRow& order = ds.orders[o - 1];
        order.c_id = permutation[(o - 1) % c.customers];
        order.ol_cnt = static_cast<uint8_t>(uniform(rng, 5, 15));
        order.first_line = static_cast<uint32_t>(ds.line_item.size());
        const bool done = o <= delivered;
        order.carrier = done ? static_cast<uint8_t>(uniform(rng, 1, 10)) : 0;
        order.new_order = !done;
        for (unsigned l = 0; l < order.ol_cnt; ++l) {
          ds.line_item.push_back(static_cast<uint32_t>(uniform(rng, 1, c.items)));
          ds.line_delivered.push_back(done);
          if (!done) order.amount += static_cast<Cents>(uniform(rng, 1, 999999));  // OL_AMOUNT 0.01 .. 9999.99
        }
        customer(w, d, order.c_id).last_order = o;
      }
    }
  }
}

uint64_t Database::host_bytes(const Config& c) {
  const uint64_t customers = uint64_t{c.districts} * c.customers, orders = uint64_t{c.districts} * c.orders;
  const uint64_t per_warehouse = customers * (sizeof(CustomerRow) + 8 + sizeof(HistoryRow)) +
                                 orders * (sizeof(OrderRow) + 15 * 5) + uint64_t{c.items} * 2;
  return per_warehouse * c.warehouses;
}

}  // namespace starnuma::tpcc
