#include "stimulus/graph/parallel_program.hpp"

#include <algorithm>
#include <numeric>
#include <random>

namespace starnuma {

LoopShare::LoopShare(const ParallelLoop& loop, unsigned thread, unsigned threads,
                     std::pair<int64_t, int64_t> per_thread_items)
    : thread_(thread), threads_(threads), salt_(loop.salt) {
  using S = ParallelLoop::Schedule;
  switch (loop.schedule) {
    case S::Static: {
      const Share share = static_share(static_cast<uint64_t>(loop.end - loop.begin), thread, threads);
      next_ = loop.begin + static_cast<int64_t>(share.begin);
      end_ = chunk_end_ = loop.begin + static_cast<int64_t>(share.end);
      return;
    }
    case S::Serial:
      next_ = loop.begin;
      end_ = chunk_end_ = thread == 0 ? loop.end : loop.begin;
      return;
    case S::PerThread:
      next_ = per_thread_items.first;
      end_ = chunk_end_ = per_thread_items.second;
      return;
    case S::Dynamic:
      dynamic_ = true;
      begin_ = loop.begin;
      end_ = loop.end;
      chunk_ = std::max<int64_t>(1, loop.chunk);
      start_round();
      return;
  }
}

// This thread's chunk of the current round: its position in the round's random order.
void LoopShare::start_round() {
  const int64_t round_begin = begin_ + round_ * chunk_ * threads_;
  if (round_begin >= end_) {
    next_ = chunk_end_ = end_;
    return;
  }
  order_.resize(threads_);
  std::iota(order_.begin(), order_.end(), 0u);
  std::mt19937_64 rng(salt_ ^ (0x9e3779b97f4a7c15ull * static_cast<uint64_t>(round_ + 1)));
  for (unsigned i = threads_ - 1; i > 0; --i) std::swap(order_[i], order_[rng() % (i + 1)]);
  const unsigned slot = static_cast<unsigned>(std::find(order_.begin(), order_.end(), thread_) - order_.begin());
  next_ = std::min(end_, round_begin + slot * chunk_);
  chunk_end_ = std::min(end_, next_ + chunk_);
}

const ParallelLoop* ParallelProgram::loop(size_t index) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<ParallelLoop> round;
  while (index >= loops_.size() && !complete_) {
    round.clear();
    if (add_round(rounds_, round)) {
      loops_.insert(loops_.end(), round.begin(), round.end());
      ++rounds_;
    } else {
      complete_ = true;
    }
  }
  return index < loops_.size() ? &loops_[index] : nullptr;
}

uint32_t ParallelProgram::rounds_made() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return rounds_;
}

void ParallelProgram::set_loops(const std::vector<ParallelLoop>& loops) {
  std::lock_guard<std::mutex> lock(mutex_);
  loops_.assign(loops.begin(), loops.end());
  rounds_ = 1;
  complete_ = true;
}

void append_pages(std::vector<uint64_t>& pages, uint64_t from, uint64_t to) {
  for (uint64_t p = from / kGraphPage * kGraphPage; p < to; p += kGraphPage) pages.push_back(p);
}

void append_vertex_share(std::vector<uint64_t>& pages, uint64_t base, uint64_t element, int64_t vertices,
                         unsigned thread, unsigned threads) {
  const Share share = static_share(static_cast<uint64_t>(vertices), thread, threads);
  append_pages(pages, base + element * share.begin, base + element * share.end);
}

void append_csr_share(std::vector<uint64_t>& pages, const CsrGraph& g, uint64_t offsets, uint64_t neighbors,
                      uint64_t neighbor_bytes, unsigned thread, unsigned threads) {
  const Share share = static_share(static_cast<uint64_t>(g.vertices()), thread, threads);
  append_pages(pages, offsets + 8 * share.begin, offsets + 8 * (share.end + 1));
  append_pages(pages, neighbors + neighbor_bytes * static_cast<uint64_t>(g.offsets[share.begin]),
               neighbors + neighbor_bytes * static_cast<uint64_t>(g.offsets[share.end]));
}

// One thread's stream: the first touch of its part of the data, a barrier that starts
// measurement, then its share of every loop, each closed by a barrier.
class ProgramStream : public ThreadStream {
 public:
  ProgramStream(std::shared_ptr<const ParallelProgram> p, unsigned thread, unsigned threads)
      : program_(std::move(p)), thread_(thread), threads_(threads) {
    program_->first_touch(thread, threads, touch_);
  }

  size_t fill(StreamOp* out, size_t max) override {
    size_t n = 0;
    while (n < max) {
      std::vector<StreamOp>& pending = sink_.ops_;
      if (head_ < pending.size()) {
        const size_t k = std::min(max - n, pending.size() - head_);
        std::copy_n(pending.begin() + static_cast<std::ptrdiff_t>(head_), k, out + n);
        n += k;
        head_ += k;
        continue;
      }
      pending.clear();
      head_ = 0;
      if (done_) break;
      produce();
    }
    return n;
  }

 private:
  void barrier(bool starts_measurement) {
    sink_.ops_.push_back(StreamOp{StreamOp::Kind::Barrier, false, starts_measurement, 0, barrier_id_++});
  }

  void begin_loop() {
    loop_ = program_->loop(loop_index_);
    if (!loop_) {
      done_ = true;
      return;
    }
    const ParallelLoop& l = *loop_;
    share_ = LoopShare(l, thread_, threads_,
                       l.schedule == ParallelLoop::Schedule::PerThread ? program_->thread_items(l, thread_)
                                                                       : std::pair<int64_t, int64_t>{0, 0});
  }

  // The operations of the next item, or the barrier that ends the current loop.
  void produce() {
    if (touching_) {
      if (touched_ < touch_.size()) {
        sink_.store(touch_[touched_++], 0);
        return;
      }
      touching_ = false;
      std::vector<uint64_t>().swap(touch_);
      barrier(true);
      begin_loop();
      return;
    }
    const int64_t item = share_.next();
    if (item < 0) {
      barrier(false);
      ++loop_index_;
      begin_loop();
      return;
    }
    program_->run_item(*loop_, item, thread_, sink_);
  }

  std::shared_ptr<const ParallelProgram> program_;
  unsigned thread_, threads_;
  std::vector<uint64_t> touch_;
  size_t touched_ = 0;
  bool touching_ = true, done_ = false;
  size_t loop_index_ = 0;
  const ParallelLoop* loop_ = nullptr;  // the loop at loop_index_
  LoopShare share_;
  OpSink sink_;
  size_t head_ = 0;
  uint64_t barrier_id_ = 1;
};

std::unique_ptr<ThreadStream> ProgramWorkload::stream(unsigned thread) const {
  return std::make_unique<ProgramStream>(program_, thread, threads_);
}

}  // namespace starnuma
