// `tpcc`: the workload. Threads have home warehouses (thread t: warehouse t mod W). Transactions
// share mutable state (remote stock, remote customers, the districts of a warehouse that several
// threads share), so they run in one fixed global order that does not depend on simulated timing:
// round r executes thread 0's r-th transaction, then thread 1's, and so on. Rounds run lazily, when
// a stream needs operations that are not yet produced; each thread's operations wait in its own
// queue until its stream takes them.
#include <algorithm>
#include <cmath>

#include "common/text.hpp"
#include "stimulus/micro/micro.hpp"
#include "stimulus/tpcc/transactions.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {

namespace tpcc {

// ---- the engine ---------------------------------------------------------------------------------

Engine::Engine(const TpccWorkload& w, std::shared_ptr<const Layout> layout, const Database& loaded, uint64_t seed)
    : config_(w.config()),
      layout_(std::move(layout)),
      db_(loaded),
      derived_{seed},
      threads_(w.threads()),
      homes_(w.config().warehouses) {
  for (unsigned t = 0; t < threads_.size(); ++t) threads_[t].rng = thread_seed(seed, t);
  tx_ = std::make_unique<Transactions>(*this);
}

Engine::~Engine() = default;

void Engine::execute_next(bool keep) {
  const unsigned t = next_thread_;
  next_thread_ = (next_thread_ + 1) % threads_.size();
  ThreadState& ts = threads_[t];
  if (ts.executed == config_.transactions) return;
  ++ts.executed;
  const size_t before = ts.queue.size();
  tx_->run(t % homes_, ts, keep);
  buffered_ += ts.queue.size() - before;
  max_buffered_ = std::max(max_buffered_, buffered_);
  if (buffered_ > kMaxBuffered)
    report_error(msg::kInput, "tpcc: the threads' streams are read too far apart: " + std::to_string(buffered_) +
                                  " operations wait in the queues (the limit is " + std::to_string(kMaxBuffered) + ")");
}

size_t Engine::take(unsigned t, StreamOp* out, size_t max) {
  ThreadState& ts = threads_[t];
  while (ts.head == ts.queue.size() && ts.executed < config_.transactions) {
    ts.queue.clear();
    ts.head = 0;
    execute_next();
  }
  const size_t n = std::min(max, ts.queue.size() - ts.head);
  std::copy_n(ts.queue.begin() + static_cast<std::ptrdiff_t>(ts.head), n, out);
  ts.head += n;
  buffered_ -= n;
  if (ts.head == ts.queue.size()) {
    ts.queue.clear();
    ts.head = 0;
  } else if (ts.head > 4096 && ts.head * 2 > ts.queue.size()) {  // drop the taken prefix
    ts.queue.erase(ts.queue.begin(), ts.queue.begin() + static_cast<std::ptrdiff_t>(ts.head));
    ts.head = 0;
  }
  return n;
}

void Engine::run_to_end() {
  for (bool more = true; more;) {
    more = false;
    for (const ThreadState& ts : threads_) more |= ts.executed < config_.transactions;
    if (more) execute_next(false);
  }
}

// ---- streams ------------------------------------------------------------------------------------

namespace {

// A thread's stream: its share of the parallel load as first touches (one store per page), the
// barrier that starts measurement, then its transactions' operations from the shared engine.
class TpccStream : public ThreadStream {
 public:
  TpccStream(std::shared_ptr<Engine> engine, unsigned thread, std::vector<micro::FirstTouch> load)
      : engine_(std::move(engine)), thread_(thread), load_(std::move(load)) {}

  size_t fill(StreamOp* out, size_t max) override {
    size_t n = 0;
    while (loading_ && n < max) {
      if (part_ < load_.size() && load_[part_].next(out[n])) {
        ++n;
      } else if (part_ < load_.size()) {
        ++part_;
      } else {
        out[n++] = StreamOp{StreamOp::Kind::Barrier, false, true, 0, 1};
        loading_ = false;
      }
    }
    return n + engine_->take(thread_, out + n, max - n);
  }

 private:
  std::shared_ptr<Engine> engine_;
  unsigned thread_;
  std::vector<micro::FirstTouch> load_;
  size_t part_ = 0;
  bool loading_ = true;
};

// The pages of [begin, end), as page-aligned ranges.
void add_pages(std::vector<std::pair<uint64_t, uint64_t>>& pages, uint64_t begin, uint64_t end) {
  if (end > begin) pages.emplace_back(begin / kPageBytes, (end + kPageBytes - 1) / kPageBytes);
}

// The loaded part of a table: keys [begin, end) of its index, every level, and their rows.
void add_loaded(std::vector<std::pair<uint64_t, uint64_t>>& pages, const TableRegion& r, uint64_t begin, uint64_t end) {
  if (end <= begin) return;
  for (unsigned l = 0; l < r.index.height; ++l)
    add_pages(pages, r.index.node(l, begin), r.index.node(l, end - 1) + Tree::kNodeBytes);
  if (r.records) add_pages(pages, r.row(begin), r.row(end));
}

}  // namespace

// ---- the workload -------------------------------------------------------------------------------

TpccWorkload::TpccWorkload(const Config& c, unsigned threads, uint64_t seed)
    : config_(c),
      threads_(threads),
      seed_(seed),
      layout_(std::make_shared<Layout>(c, threads)),
      loaded_(std::make_shared<Database>(c, seed)),
      joined_(threads) {
  // The footprint: the loaded database's pages (the insert regions grow as far as a run goes).
  footprint_ = 0;
  for (unsigned t = 0; t < threads_; ++t)
    for (const micro::FirstTouch& f : load(t)) {
      micro::FirstTouch copy = f;
      for (StreamOp op; copy.next(op);) footprint_ += kPageBytes;
    }
}

TpccWorkload::~TpccWorkload() = default;

std::vector<micro::FirstTouch> TpccWorkload::load(unsigned t) const {
  // A parallel loader: thread 0 loads ITEM (and Silo's epoch), each thread its home warehouses.
  std::vector<std::pair<uint64_t, uint64_t>> pages;
  if (config_.serial_load && t > 0) return {};
  const unsigned loaders = config_.serial_load ? 1 : threads_;
  if (t == 0) {
    add_pages(pages, layout_->epoch(), layout_->epoch() + 8);
    add_loaded(pages, layout_->at(0, kItem), 0, config_.items);
  }
  const uint64_t dc = uint64_t{config_.districts} * config_.customers;
  for (unsigned w = t; w < config_.warehouses; w += loaders) {
    const WarehouseState& ws = loaded_->warehouses[w];
    add_loaded(pages, layout_->at(w, kWarehouse), 0, 1);
    add_loaded(pages, layout_->at(w, kDistrict), 0, config_.districts);
    for (Table table : {kCustomer, kCustomerName, kOrderCustomer}) add_loaded(pages, layout_->at(w, table), 0, dc);
    add_loaded(pages, layout_->at(w, kHistory), 0, ws.history.size());
    add_loaded(pages, layout_->at(w, kStock), 0, config_.items);
    for (unsigned d = 0; d < config_.districts; ++d) {
      const DistrictState& ds = ws.districts[d];
      const uint64_t orders = uint64_t{d} * layout_->order_capacity(), lines = uint64_t{d} * layout_->line_capacity();
      add_loaded(pages, layout_->at(w, kOrder), orders, orders + ds.orders.size());
      add_loaded(pages, layout_->at(w, kNewOrder), orders + ds.oldest_new_order - 1, orders + ds.orders.size());
      add_loaded(pages, layout_->at(w, kOrderLine), lines, lines + ds.line_item.size());
    }
  }
  // One store per page, in address order, each page once.
  std::sort(pages.begin(), pages.end());
  std::vector<micro::FirstTouch> touches;
  uint64_t done = 0;
  for (size_t i = 0; i < pages.size();) {
    uint64_t begin = std::max(pages[i].first, done), end = pages[i].second;
    for (++i; i < pages.size() && pages[i].first <= end; ++i) end = std::max(end, pages[i].second);
    if (end > begin)
      touches.emplace_back(std::vector<uint64_t>{begin * kPageBytes}, Share{0, (end - begin) * kPageBytes / 8});
    done = end;
  }
  return touches;
}

std::unique_ptr<ThreadStream> TpccWorkload::stream(unsigned t) const {
  // Streams made together share one execution; a second stream of a thread starts a new one.
  if (!current_ || joined_[t]) {
    current_ = std::make_shared<Engine>(*this, layout_, *loaded_, seed_);
    std::fill(joined_.begin(), joined_.end(), false);
  }
  joined_[t] = true;
  return std::make_unique<TpccStream>(current_, t, load(t));
}

std::shared_ptr<Engine> TpccWorkload::execute_all() const {
  auto engine = std::make_shared<Engine>(*this, layout_, *loaded_, seed_);
  engine->run_to_end();
  return engine;
}

// ---- the parameters -----------------------------------------------------------------------------

namespace {

class TpccSpec : public WorkloadSpec {
 public:
  // The host keeps the loaded database twice (the load, and the execution's copy).
  static constexpr uint64_t kMaxHostBytes = uint64_t{8} << 30;
  explicit TpccSpec(const ScopeContext& c) : WorkloadSpec(c) {}
  std::unique_ptr<Workload> create(unsigned threads, unsigned, uint64_t seed) const override {
    Config c;
    c.warehouses = warehouses_;
    c.districts = districts_;
    c.customers = customers_;
    c.items = items_;
    c.orders = orders_;
    c.new_order = new_order_;
    c.payment = payment_;
    c.order_status = order_status_;
    c.delivery = delivery_;
    c.transactions = transactions_;
    c.serial_load = loader_.get() == "serial";
    if (c.new_order + c.payment + c.order_status + c.delivery > 100)
      report_error(msg::kConfig, "tpcc: the mix new_order + payment + order_status + delivery is " +
                                     std::to_string(c.new_order + c.payment + c.order_status + c.delivery) +
                                     " %, more than 100 %");
    // Transactions add about 100 bytes each, as far as a run goes (a few thousand per thread).
    const uint64_t host = 2 * Database::host_bytes(c);
    if (host > kMaxHostBytes)
      report_error(msg::kConfig, "tpcc: " + std::to_string(c.warehouses) + " warehouses need about " +
                                     std::to_string(host >> 20) + " MiB of host memory; at most " +
                                     std::to_string(kMaxHostBytes >> 20) +
                                     " MiB are supported (lower warehouses, customers or orders)");
    // The address space: every warehouse's tables with room for every thread's inserts.
    const double per_home = std::max(1u, (threads + c.warehouses - 1) / c.warehouses);
    const double capacity = c.orders + static_cast<double>(c.transactions) * per_home;
    const double bytes = c.warehouses * (c.districts * capacity * (16.0 * kRecordBytes[kOrderLine] + 200) +
                                         capacity * kRecordBytes[kHistory] + 2.0 * c.items * kRecordBytes[kStock] +
                                         3.0 * c.districts * c.customers * kRecordBytes[kCustomer]);
    if (kBase + bytes >= std::ldexp(1.0, 47))
      report_error(msg::kConfig, "tpcc: " + std::to_string(c.warehouses) + " warehouses with room for " +
                                     std::to_string(c.transactions) + " transactions per thread need " +
                                     format_real(bytes / std::ldexp(1.0, 40)) +
                                     " TiB of addresses from 2^42, beyond 2^47 (lower transactions)");
    return std::make_unique<TpccWorkload>(c, threads, seed);
  }

 private:
  Param<unsigned> warehouses_{*this, "warehouses", 64u, "Warehouses (thread t's home is warehouse t mod warehouses)",
                              between(1u, 4096u)};
  Param<unsigned> districts_{*this, "districts", 10u, "Districts per warehouse (TPC-C: 10)", between(1u, 100u)};
  Param<unsigned> customers_{*this, "customers", 3000u, "Customers per district (TPC-C: 3000)", between(10u, 100000u)};
  Param<unsigned> items_{*this, "items", 100000u, "ITEM rows, and STOCK rows per warehouse (TPC-C: 100000)",
                         between(100u, 1000000u)};
  Param<unsigned> orders_{*this, "orders", 3000u,
                          "Initial orders per district, the last 30 % undelivered (TPC-C: 3000)",
                          between(10u, 100000u)};
  Param<unsigned> new_order_{*this, "new_order", 45u, "Percent of transactions that are New-Order", between(0u, 100u)};
  Param<unsigned> payment_{*this, "payment", 43u, "Percent of transactions that are Payment", between(0u, 100u)};
  Param<unsigned> order_status_{*this, "order_status", 4u, "Percent that are Order-Status", between(0u, 100u)};
  Param<unsigned> delivery_{*this, "delivery", 4u, "Percent that are Delivery (Stock-Level: the rest)",
                            between(0u, 100u)};
  Param<uint64_t> transactions_{*this, "transactions", uint64_t{100000},
                                "Transactions per thread (the run's --instructions usually ends it first)",
                                between(uint64_t{1}, uint64_t{1} << 32)};
  Param<std::string> loader_{*this, "loader", "parallel",
                             "parallel: each thread first touches its home warehouses (thread 0 also ITEM); "
                             "serial: thread 0 loads everything, as tpcc-runner's load_all_tables",
                             std::vector<std::string>{"parallel", "serial"}};
};

}  // namespace
}  // namespace tpcc

STARNUMA_REGISTER_WORKLOAD(tpcc::TpccSpec, "tpcc",
                           "TPC-C on a Silo-like in-memory engine: 5 transactions, 9 tables, per-warehouse threads");

}  // namespace starnuma
