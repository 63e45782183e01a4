// TPC-C's five transactions (clauses 2.4-2.8) executed on the host database, each emitting the
// loads and stores of the index nodes and record lines it touches, with Silo's commit protocol.
#include "stimulus/tpcc/transactions.hpp"

#include <algorithm>

namespace starnuma::tpcc {

namespace {

// Run-time NURand constants C (clause 2.1.6); C_LAST's differs from the load's (157) by 66.
constexpr uint64_t kNameC = 223, kCustomerC = 259, kItemC = 7911;

// Instruction cost model: non-memory instructions retired before each operation. Silo's TPC-C
// retires about 20-40 K instructions per New-Order outside the memory accesses we emit (Tu et al.
// report ~10 us per New-Order at 2 GHz with IPC near 1); the shares below follow where that code
// runs.
// - per transaction: dispatch, drawing the inputs (RNG, NURand), building keys, Silo's begin/end
//   bookkeeping (read/write-set setup, TID generation from the epoch), the result set.
constexpr uint32_t kPerTransaction = 2000;
// - per index level: Masstree's node visit (stable-version read, permutation decode, slice
//   comparisons over up to 15 keys, child pointer, version re-check).
constexpr uint32_t kPerLevel = 60;
// - per index entry stepped over in a range scan (next slot, key compare to the scan's end).
constexpr uint32_t kPerScanStep = 25;
// - per record read: Silo's read protocol (TID read, fence, copy, TID re-read, read-set entry).
constexpr uint32_t kPerRecord = 80;
// - per cache line of fields read or written: copying and decoding the fields (about 8 words).
constexpr uint32_t kPerLine = 12;
// - per written record at commit: sorting the write set, the lock CAS, installing, unlocking.
constexpr uint32_t kPerWrite = 120;
// - per read record at commit: validation (TID compare, lock bit, read-set walk).
constexpr uint32_t kPerValidate = 20;
// - per inserted row: Silo's record allocation, key encoding and Masstree's insert (permutation
//   update) beyond the node visits.
constexpr uint32_t kPerInsert = 250;
// - per row of business logic (price and tax arithmetic, quantity update, string fields).
constexpr uint32_t kPerRowLogic = 150;

// Field byte offsets in tpcc-runner's rows (after Silo's 24-byte header) and the lengths read.
constexpr Field kWTax{8, 8}, kWYtd{16, 8}, kWAddress{24, 88};
constexpr Field kDNext{4, 4}, kDTax{8, 8}, kDYtd{16, 8}, kDAddress{24, 88};
constexpr Field kCCounts{8, 4}, kCInfo{0, 113}, kCDiscountLastCredit{32, 81}, kCBalance{40, 16}, kCData{113, 501},
    kCAddress{614, 76}, kCNames{56, 37};
constexpr Field kIRow{8, 88};
constexpr Field kSQuantityCounts{8, 12}, kSData{270, 51};
constexpr Field kOCustomer{8, 8}, kOCarrier{12, 1};
constexpr Field kOlItem{12, 4}, kOlRow{12, 36}, kOlDelivery{24, 8}, kOlAmount{40, 8};
Field stock_district(unsigned d) { return Field{20 + 25 * (d % 10), 24}; }

}  // namespace

Transactions::Transactions(Engine& e) : e_(e), layout_(*e.layout_), db_(e.db_), c_(e.config_), derived_(e.derived_) {
  reads_.reserve(1024);
  writes_.reserve(256);
  items_.reserve(512);
}

void Transactions::emit(StreamOp::Kind kind, uint64_t address, bool dependent) {
  if (keep_) thread_->queue.push_back(StreamOp{kind, dependent, false, thread_->pending, address});
  thread_->pending = 0;
  ++emitted_;
}

void Transactions::lines(const Field& f, uint64_t record, bool store_, uint64_t skip) {
  if (f.length == 0) return;
  const uint64_t first = (record + kHeader + f.offset) / kLine,
                 last = (record + kHeader + f.offset + f.length - 1) / kLine;
  for (uint64_t line = first; line <= last; ++line) {
    if (line * kLine == skip) continue;
    instr(kPerLine);
    emit(store_ ? StreamOp::Kind::Store : StreamOp::Kind::Load, line * kLine, false);
  }
}

// ---- indexes ------------------------------------------------------------------------------------

void Transactions::lookup(const Tree& t, uint64_t key) {
  for (unsigned l = t.height; l-- > 0;) {
    const uint64_t node = t.node(l, key);
    const unsigned slot = Tree::slot(l, key, t.span);
    instr(kPerLevel);
    emit(StreamOp::Kind::Load, line_of(node + Tree::kSlices + slot * 8), l + 1 < t.height);
    emit(StreamOp::Kind::Load, line_of(node + Tree::kPointers + slot * 8), false);
  }
}

void Transactions::scan_step(const Tree& t, uint64_t key) {
  const uint64_t leaf = t.node(0, key);
  const unsigned slot = static_cast<unsigned>(key % Tree::kFanout);
  instr(kPerScanStep);
  emit(StreamOp::Kind::Load, line_of(leaf + Tree::kSlices + slot * 8), slot == 0);  // slot 0: the next leaf
  emit(StreamOp::Kind::Load, line_of(leaf + Tree::kPointers + slot * 8), false);
}

void Transactions::leaf_store(const Tree& t, uint64_t key) {
  const uint64_t leaf = t.node(0, key);
  const unsigned slot = static_cast<unsigned>(key % Tree::kFanout);
  emit(StreamOp::Kind::Store, line_of(leaf + Tree::kSlices + slot * 8), false);
  emit(StreamOp::Kind::Store, line_of(leaf + Tree::kPointers + slot * 8), false);
}

// ---- records and Silo's commit -----------------------------------------------------------------

uint64_t Transactions::read(const TableRegion& r, uint64_t row, const Field& f) {
  const uint64_t record = r.row(row), tid = line_of(record);
  instr(kPerRecord);
  emit(StreamOp::Kind::Load, tid, true);  // the TID word: its address came from the index leaf
  lines(f, record, false, tid);
  reads_.push_back(record);
  return record;
}

void Transactions::read_more(uint64_t record, const Field& f) { lines(f, record, false, ~0ull); }

void Transactions::write(uint64_t record, const Field& f) { writes_.push_back(Write{record, f, nullptr, 0}); }

void Transactions::insert(const TableRegion& r, uint64_t key, uint32_t row_bytes) {
  writes_.push_back(Write{r.records ? r.row(key) : 0, Field{0, row_bytes}, &r.index, key});
}

void Transactions::index_update(const Tree& t, uint64_t key) { writes_.push_back(Write{0, Field{0, 0}, &t, key}); }

void Transactions::commit() {
  // Silo (SOSP'13, Fig. 2): lock the write set in address order, read the global epoch, validate
  // the read set, then install the writes and release each lock with the new TID.
  std::sort(writes_.begin(), writes_.end(), [](const Write& a, const Write& b) { return a.record < b.record; });
  for (const Write& w : writes_)
    if (!w.index) {
      instr(kPerWrite);
      emit(StreamOp::Kind::Store, line_of(w.record), false);
    }
  instr(kPerValidate);
  emit(StreamOp::Kind::Load, layout_.epoch(), false);
  for (uint64_t record : reads_) {
    instr(kPerValidate);
    emit(StreamOp::Kind::Load, line_of(record), false);
  }
  for (const Write& w : writes_) {
    if (w.index) {  // an insert: Masstree's descent and leaf update, then the new record
      instr(kPerInsert);
      lookup(*w.index, w.key);
      leaf_store(*w.index, w.key);
      if (w.record) lines(w.field, w.record, true, ~0ull);
    } else {
      lines(w.field, w.record, true, line_of(w.record));
    }
    if (w.record) emit(StreamOp::Kind::Store, line_of(w.record), false);  // the new TID, unlocked
  }
  reads_.clear();
  writes_.clear();
}

void Transactions::abort() {
  reads_.clear();
  writes_.clear();
}

// ---- the transactions ---------------------------------------------------------------------------

void Transactions::run(unsigned w, Engine::ThreadState& ts, bool keep) {
  thread_ = &ts;
  keep_ = keep;
  const uint64_t x = uniform(ts.rng, 0, 99);
  TxType type = TxType::StockLevel;
  if (x < c_.new_order) type = TxType::NewOrder;
  else if (x < c_.new_order + c_.payment) type = TxType::Payment;
  else if (x < c_.new_order + c_.payment + c_.order_status) type = TxType::OrderStatus;
  else if (x < c_.new_order + c_.payment + c_.order_status + c_.delivery) type = TxType::Delivery;
  ++ts.stats.by_type[static_cast<size_t>(type)];
  instr(kPerTransaction);
  switch (type) {
    case TxType::NewOrder: new_order(w, ts); break;
    case TxType::Payment: payment(w, ts); break;
    case TxType::OrderStatus: order_status(w, ts); break;
    case TxType::Delivery: delivery(w, ts); break;
    case TxType::StockLevel: stock_level(w, ts); break;
  }
}

unsigned Transactions::other_warehouse(uint64_t& rng, unsigned w) const {
  const auto o = static_cast<unsigned>(uniform(rng, 0, c_.warehouses - 2));
  return o >= w ? o + 1 : o;
}

uint32_t Transactions::customer(uint64_t& rng, unsigned w, unsigned d, ThreadStats& stats) {
  ++stats.name_lookups;
  if (uniform(rng, 1, 100) > 60) {  // by C_ID
    const auto c = static_cast<uint32_t>(nurand(rng, 1023, 1, c_.customers, kCustomerC));
    lookup(layout_.at(w, kCustomer).index, uint64_t{d} * c_.customers + c - 1);
    return c;
  }
  // By C_LAST (clause 2.5.2.2): the customers of that name sorted by C_FIRST, the one at position
  // ceil(n / 2). The name index is scanned over the matches.
  ++stats.by_name;
  const uint64_t last = nurand(rng, 255, 0, std::min(999u, c_.customers - 1), kNameC);
  const std::vector<uint64_t>& names = db_.warehouses[w].districts[d].names;
  const auto lo = static_cast<uint64_t>(std::lower_bound(names.begin(), names.end(), last << 52) - names.begin());
  const auto hi = static_cast<uint64_t>(std::lower_bound(names.begin(), names.end(), (last + 1) << 52) - names.begin());
  const Tree& index = layout_.at(w, kCustomerName).index;
  const uint64_t base = uint64_t{d} * c_.customers;
  lookup(index, base + lo);
  for (uint64_t k = lo + 1; k < hi; ++k) scan_step(index, base + k);
  const auto c = static_cast<uint32_t>(names[lo + (hi - lo - 1) / 2] & 0xfffff);
  lookup(layout_.at(w, kCustomer).index, base + c - 1);
  return c;
}

void Transactions::new_order(unsigned w, Engine::ThreadState& ts) {
  uint64_t& rng = ts.rng;
  const auto d = static_cast<unsigned>(uniform(rng, 0, c_.districts - 1));
  const auto c = static_cast<uint32_t>(nurand(rng, 1023, 1, c_.customers, kCustomerC));
  const auto ol_cnt = static_cast<unsigned>(uniform(rng, 5, 15));
  const bool rollback = uniform(rng, 1, 100) == 1;
  struct Line {
    uint32_t item;
    unsigned supply, quantity;
  };
  std::array<Line, 15> line{};
  for (unsigned l = 0; l < ol_cnt; ++l) {
    line[l].item = static_cast<uint32_t>(nurand(rng, 8191, 1, c_.items, kItemC));
    if (rollback && l + 1 == ol_cnt) line[l].item = c_.items + 1;  // an unused item: the transaction rolls back
    line[l].supply = w;
    if (c_.warehouses > 1 && uniform(rng, 1, 100) == 1) line[l].supply = other_warehouse(rng, w);
    line[l].quantity = static_cast<unsigned>(uniform(rng, 1, 10));
  }
  const TableRegion &wr = layout_.at(w, kWarehouse), &dr = layout_.at(w, kDistrict), &cr = layout_.at(w, kCustomer);
  lookup(wr.index, 0);
  read(wr, 0, kWTax);
  lookup(dr.index, d);
  const uint64_t district = read(dr, d, kDTax);
  write(district, kDNext);
  const uint64_t key = uint64_t{d} * c_.customers + c - 1;
  lookup(cr.index, key);
  read(cr, key, kCDiscountLastCredit);
  DistrictState& ds = db_.warehouses[w].districts[d];
  const uint32_t o = ds.next_o_id;
  const TableRegion& items = layout_.at(0, kItem);
  Cents amount = 0;
  for (unsigned l = 0; l < ol_cnt; ++l) {
    const Line& x = line[l];
    ++ts.stats.items;
    ts.stats.remote_items += x.supply != w;
    if (x.item > c_.items) {  // "not found": Silo aborts, nothing was written
      lookup(items.index, c_.items - 1);
      ++ts.stats.rollbacks;
      abort();
      return;
    }
    lookup(items.index, x.item - 1);
    read(items, x.item - 1, kIRow);
    const TableRegion& sr = layout_.at(x.supply, kStock);
    lookup(sr.index, x.item - 1);
    const uint64_t stock = read(sr, x.item - 1, kSQuantityCounts);
    read_more(stock, stock_district(d));
    read_more(stock, kSData);
    instr(kPerRowLogic);
    write(stock, kSQuantityCounts);
    amount += derived_.price(x.item) * x.quantity;
  }
  // Applied only now that no item is missing (a rollback leaves the database as it was).
  for (unsigned l = 0; l < ol_cnt; ++l) {
    int16_t& q = db_.warehouses[line[l].supply].stock_quantity[line[l].item - 1];
    const int quantity = static_cast<int>(line[l].quantity);
    q = static_cast<int16_t>(q >= quantity + 10 ? q - quantity : q - quantity + 91);
  }
  OrderRow order;
  order.c_id = c;
  order.first_line = static_cast<uint32_t>(ds.line_item.size());
  order.amount = amount;
  order.ol_cnt = static_cast<uint8_t>(ol_cnt);
  order.new_order = true;
  ds.orders.push_back(order);
  ++ds.next_o_id;
  db_.customer(w, d, c).last_order = o;
  const uint64_t order_key = uint64_t{d} * layout_.order_capacity() + o - 1;
  insert(layout_.at(w, kOrder), order_key, 24);
  insert(layout_.at(w, kNewOrder), order_key, 12);
  insert(layout_.at(w, kOrderCustomer), key, 0);
  const uint64_t line_base = uint64_t{d} * layout_.line_capacity();
  for (unsigned l = 0; l < ol_cnt; ++l) {
    instr(kPerRowLogic);
    insert(layout_.at(w, kOrderLine), line_base + ds.line_item.size(), 80);
    ds.line_item.push_back(line[l].item);
    ds.line_delivered.push_back(0);
  }
  commit();
}

void Transactions::payment(unsigned w, Engine::ThreadState& ts) {
  uint64_t& rng = ts.rng;
  const auto d = static_cast<unsigned>(uniform(rng, 0, c_.districts - 1));
  const auto amount = static_cast<Cents>(uniform(rng, 100, 500000));  // H_AMOUNT 1.00 .. 5000.00
  unsigned cw = w, cd = d;
  if (c_.warehouses > 1 && uniform(rng, 1, 100) > 85) {  // a customer of another warehouse
    cw = other_warehouse(rng, w);
    cd = static_cast<unsigned>(uniform(rng, 0, c_.districts - 1));
    ++ts.stats.remote_payments;
  }
  const TableRegion &wr = layout_.at(w, kWarehouse), &dr = layout_.at(w, kDistrict), &cr = layout_.at(cw, kCustomer);
  lookup(wr.index, 0);
  const uint64_t warehouse = read(wr, 0, kWAddress);
  write(warehouse, kWYtd);
  lookup(dr.index, d);
  const uint64_t district = read(dr, d, kDAddress);
  write(district, kDYtd);
  const uint32_t c = customer(rng, cw, cd, ts.stats);
  const uint64_t record = read(cr, uint64_t{cd} * c_.customers + c - 1, kCInfo);
  read_more(record, kCAddress);
  instr(kPerRowLogic);
  write(record, kCBalance);
  write(record, kCCounts);
  if (derived_.bad_credit(cw, cd, c)) {  // "BC": C_DATA gets the payment prepended
    read_more(record, kCData);
    write(record, kCData);
  }
  WarehouseState& ws = db_.warehouses[w];
  insert(layout_.at(w, kHistory), ws.history.size(), 64);
  ws.history.push_back(HistoryRow{cw, cd, c, d, amount});
  ws.ytd += amount;
  ws.districts[d].ytd += amount;
  CustomerRow& row = db_.customer(cw, cd, c);
  row.balance -= amount;
  row.ytd_payment += amount;
  ++row.payment_cnt;
  commit();
}

void Transactions::order_status(unsigned w, Engine::ThreadState& ts) {
  const auto d = static_cast<unsigned>(uniform(ts.rng, 0, c_.districts - 1));
  const uint32_t c = customer(ts.rng, w, d, ts.stats);
  const uint64_t key = uint64_t{d} * c_.customers + c - 1;
  read(layout_.at(w, kCustomer), key, kCNames);
  lookup(layout_.at(w, kOrderCustomer).index, key);  // the customer's latest order
  const uint32_t o = db_.customer(w, d, c).last_order;
  if (o) {
    const DistrictState& ds = db_.warehouses[w].districts[d];
    const OrderRow& order = ds.orders[o - 1];
    const TableRegion& orders = layout_.at(w, kOrder);
    const uint64_t order_key = uint64_t{d} * layout_.order_capacity() + o - 1;
    lookup(orders.index, order_key);
    read(orders, order_key, kOCarrier);
    const TableRegion& lines = layout_.at(w, kOrderLine);
    const uint64_t first = uint64_t{d} * layout_.line_capacity() + order.first_line;
    lookup(lines.index, first);
    for (unsigned l = 0; l < order.ol_cnt; ++l) {
      if (l) scan_step(lines.index, first + l);
      read(lines, first + l, kOlRow);
    }
  }
  commit();
}

void Transactions::delivery(unsigned w, Engine::ThreadState& ts) {
  const auto carrier = static_cast<uint8_t>(uniform(ts.rng, 1, 10));
  const TableRegion &no = layout_.at(w, kNewOrder), &orders = layout_.at(w, kOrder), &lines = layout_.at(w, kOrderLine),
                    &cr = layout_.at(w, kCustomer);
  for (unsigned d = 0; d < c_.districts; ++d) {
    DistrictState& ds = db_.warehouses[w].districts[d];
    // The oldest NEW-ORDER row of the district: a scan from the district's lowest key.
    const uint64_t order_base = uint64_t{d} * layout_.order_capacity();
    lookup(no.index, order_base + ds.oldest_new_order - 1);
    if (ds.oldest_new_order == ds.next_o_id) continue;  // none: this district is skipped
    const uint32_t o = ds.oldest_new_order++;
    OrderRow& order = ds.orders[o - 1];
    const uint64_t new_order = read(no, order_base + o - 1, Field{0, 12});
    index_update(no.index, order_base + o - 1);  // the delete: Masstree's leaf update
    write(new_order, Field{0, 0});               // and the record's TID, marked absent
    lookup(orders.index, order_base + o - 1);
    const uint64_t record = read(orders, order_base + o - 1, kOCustomer);
    write(record, kOCarrier);
    const uint64_t first = uint64_t{d} * layout_.line_capacity() + order.first_line;
    lookup(lines.index, first);
    for (unsigned l = 0; l < order.ol_cnt; ++l) {
      if (l) scan_step(lines.index, first + l);
      write(read(lines, first + l, kOlAmount), kOlDelivery);
      ds.line_delivered[order.first_line + l] = 1;
    }
    const uint64_t key = uint64_t{d} * c_.customers + order.c_id - 1;
    lookup(cr.index, key);
    const uint64_t customer = read(cr, key, kCBalance);
    instr(kPerRowLogic);
    write(customer, kCBalance);
    write(customer, kCCounts);
    order.new_order = false;
    order.carrier = carrier;
    CustomerRow& row = db_.customer(w, d, order.c_id);
    row.balance += order.amount;
    ++row.delivery_cnt;
    ++ts.stats.delivered;
  }
  commit();
}

void Transactions::stock_level(unsigned w, Engine::ThreadState& ts) {
  const auto d = static_cast<unsigned>(uniform(ts.rng, 0, c_.districts - 1));
  const auto threshold = static_cast<int>(uniform(ts.rng, 10, 20));
  const TableRegion& dr = layout_.at(w, kDistrict);
  lookup(dr.index, d);
  read(dr, d, kDNext);
  const DistrictState& ds = db_.warehouses[w].districts[d];
  // The lines of the district's last 20 orders: one contiguous run of ORDER-LINE rows.
  const uint32_t from = ds.next_o_id > 20 ? ds.next_o_id - 20 : 1;
  const uint64_t begin = ds.orders[from - 1].first_line, end = ds.line_item.size();
  const TableRegion& lines = layout_.at(w, kOrderLine);
  const uint64_t base = uint64_t{d} * layout_.line_capacity();
  lookup(lines.index, base + begin);
  items_.clear();
  for (uint64_t l = begin; l < end; ++l) {
    if (l > begin) scan_step(lines.index, base + l);
    read(lines, base + l, kOlItem);
    items_.push_back(ds.line_item[l]);
  }
  std::sort(items_.begin(), items_.end());
  items_.erase(std::unique(items_.begin(), items_.end()), items_.end());
  const TableRegion& sr = layout_.at(w, kStock);
  for (uint32_t i : items_) {
    lookup(sr.index, i - 1);
    read(sr, i - 1, Field{8, 2});
    ts.stats.low_stock += db_.warehouses[w].stock_quantity[i - 1] < threshold;
  }
  commit();
}

}  // namespace starnuma::tpcc
