// The five TPC-C transactions on the tpcc engine: host execution and emitted operations.
#pragma once

#include <vector>

#include "stimulus/tpcc/tpcc.hpp"

namespace starnuma::tpcc {

// Bytes [offset, offset + length) of a row, after Silo's record header.
struct Field {
  uint32_t offset, length;
};

class Transactions {
 public:
  explicit Transactions(Engine& e);
  // Executes the next transaction of the thread whose home is `w`, appending its operations to the
  // thread's queue when `keep`.
  void run(unsigned w, Engine::ThreadState& ts, bool keep);
  uint64_t emitted() const { return emitted_; }

 private:
  struct Write {
    uint64_t record;  // 0: an index-only change
    Field field;
    const Tree* index;  // an insert (or a delete's leaf update): the tree and key
    uint64_t key;
  };
  void instr(uint32_t n) { thread_->pending += n; }
  static uint64_t line_of(uint64_t a) { return a / kLine * kLine; }
  void emit(StreamOp::Kind kind, uint64_t address, bool dependent);
  void lines(const Field& f, uint64_t record, bool store, uint64_t skip);
  void lookup(const Tree& t, uint64_t key);
  void scan_step(const Tree& t, uint64_t key);
  void leaf_store(const Tree& t, uint64_t key);
  uint64_t read(const TableRegion& r, uint64_t row, const Field& f);
  void read_more(uint64_t record, const Field& f);
  void write(uint64_t record, const Field& f);
  void insert(const TableRegion& r, uint64_t key, uint32_t row_bytes);
  void index_update(const Tree& t, uint64_t key);
  void commit();
  void abort();
  unsigned other_warehouse(uint64_t& rng, unsigned w) const;
  uint32_t customer(uint64_t& rng, unsigned w, unsigned d, ThreadStats& stats);
  void new_order(unsigned w, Engine::ThreadState& ts);
  void payment(unsigned w, Engine::ThreadState& ts);
  void order_status(unsigned w, Engine::ThreadState& ts);
  void delivery(unsigned w, Engine::ThreadState& ts);
  void stock_level(unsigned w, Engine::ThreadState& ts);

  Engine& e_;
  const Layout& layout_;
  Database& db_;
  const Config& c_;
  const Derived& derived_;
  Engine::ThreadState* thread_ = nullptr;
  bool keep_ = true;
  uint64_t emitted_ = 0;
  std::vector<uint64_t> reads_;
  std::vector<Write> writes_;
  std::vector<uint32_t> items_;
};

}  // namespace starnuma::tpcc
