#include "core/core.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <type_traits>
#include <vector>

#include "common/local_time.hpp"
#include "core/cache_hierarchy.hpp"
#include "core/instruction_window.hpp"

namespace starnuma {

Core::Core(sc_core::sc_module_name name, const ScopeContext& ctx, const CoreConfig& config, Frequency clock)
    : Component(name, ctx),
      config_(config),
      cycle_fs_(static_cast<int64_t>(std::llround(1e15 / clock.hz()))),
      dispatch_fs_(static_cast<int64_t>(std::llround(1e15 / clock.hz() / config.width))) {}

void Core::start(Job job) {
  job_ = std::move(job);
  finished_ = false;
  if (!uplink_.fabric) report_internal(path() + " was not bound to a fabric");
  caches_ = std::make_unique<CacheHierarchy>(config_, uplink_, job_->context, cycle_fs_, memory_stats_, job_->seed);
  if (job_->context.transactions) caches_->set_owner(path());
  std::string thread = path() + "_thread";  // spawned at the top level: the full path keeps it unique
  std::replace(thread.begin(), thread.end(), '.', '_');
  sc_core::sc_spawn([this] { run(); }, thread.c_str());
}

namespace {

// How far ahead in the stream the host prefetches (CacheHierarchy::prefetch_translation,
// prefetch_sets, and prefetch_write_backs for the next access): each stage has about one access's
// host time to arrive.
constexpr size_t kTranslationAhead = 4, kSetsAhead = 2;

// Reads a thread's stream a batch at a time (one virtual call per batch).
class StreamReader {
 public:
  explicit StreamReader(ThreadStream& stream) : stream_(stream) {}
  const StreamOp* next() {
    if (next_ == have_) {
      have_ = stream_.fill(batch_.data(), batch_.size());
      next_ = 0;
      if (have_ == 0) return nullptr;
    }
    return &batch_[next_++];
  }
  // The operation `k` places after the one next() returned last, if this batch holds it.
  const StreamOp* ahead(size_t k) const { return next_ + k - 1 < have_ ? &batch_[next_ + k - 1] : nullptr; }

 private:
  ThreadStream& stream_;
  std::array<StreamOp, 256> batch_;
  size_t have_ = 0, next_ = 0;
};

}  // namespace

int64_t Core::pass_barrier(const StreamOp& op, int64_t now) {
  wait_until_fs(now);
  // In a mix, a program's measurement starts at its own barrier: its cores restart their own statistics.
  if (job_->control->barrier(op.address, op.starts_measurement, job_->group)) reset_stats();
  ++barriers_;
  caches_->caught_up();  // it resumes at SystemC time
  return std::max(now, sim_now_fs());
}

void Core::end_warmup(int64_t now) {
  wait_until_fs(now);
  reset_stats();
  warming_ = false;
  job_->control->warmed_up();
}

namespace {

// A light core's hierarchy as its window sees it: TLBs and walks but no L1 or L2, so an LLC hit
// stands for the core's private hits and only an LLC miss holds a miss slot and the ROB.
class LightCaches {
 public:
  explicit LightCaches(CacheHierarchy& caches) : caches_(caches) {}
  int64_t access(uint64_t vaddr, bool store, int64_t at) { return caches_.access(vaddr, store, at); }
  bool certain_l1_hit(uint64_t vaddr) const { return caches_.certain_llc_hit(vaddr); }
  int64_t llc_slot_at(uint64_t vaddr, int64_t at) const { return caches_.llc_slot_at(vaddr, at); }
  int64_t take_fault_end() { return caches_.take_fault_end(); }

 private:
  CacheHierarchy& caches_;
};

}  // namespace

void Core::run() {
  if (job_->context.light) {
    LightCaches light(*caches_);
    if (job_->control->spans()) run_window<LightCaches, true>(light, config_.light_loads, caches_->llc_latency());
    else run_window<LightCaches, false>(light, config_.light_loads, caches_->llc_latency());
  } else if (job_->control->spans()) {
    run_window<CacheHierarchy, true>(*caches_, config_.mshrs, caches_->l1_latency());
  } else {
    run_window<CacheHierarchy, false>(*caches_, config_.mshrs, caches_->l1_latency());
  }
}

// `kSpans`: measured over a common span (RunControl::set_span), a template parameter so that a
// run over per-thread budgets pays nothing for it per operation.
template <class Caches, bool kSpans>
void Core::run_window(Caches& caches, unsigned mshrs, int64_t hit_fs) {
  constexpr bool kDetailed = std::is_same_v<Caches, CacheHierarchy>;
  Job& job = *job_;
  warming_ = job.warmup > 0;
  const int64_t quantum_fs = job.quantum.ps() * 1000;
  const typename InstructionWindow<Caches>::Shape shape{
      config_.rob, mshrs,     config_.store_buffer, config_.dependent_loads.get() == "overlap", dispatch_fs_,
      hit_fs,      quantum_fs};
  int64_t start = sim_now_fs() + job.start_offset_fs;
  InstructionWindow<Caches> window(shape, caches, {rob_stalls_, mshr_stalls_, store_buffer_stalls_}, start);
  window.attach_waves(waves_, outstanding_signal_);
  StreamReader reader(*job.stream);

  uint64_t retired = 0;
  int64_t reported_at = start;  // the last report of progress
  // Measurement (re)starts at `at` for this core: after initialisation, after its warm-up.
  const auto restart = [&](int64_t at) {
    start = at;
    retired = 0;
    reported_at = at;
  };
  bool measuring = !job.initialises;
  // The host prefetches for the accesses ahead while the stream misses the L1 (the last access
  // did): the hint costs a page map lookup, which L1-friendly streams need not pay. A light core
  // looks up its socket's LLC, larger than the host's caches, on every access: it always prefetches
  // (its L1 and L2 hold nothing, and the LLC's victims are not known ahead).
  const auto lookahead = [this](const StreamReader& r) {
    if (const StreamOp* far = r.ahead(kTranslationAhead); far && far->kind != StreamOp::Kind::Barrier)
      caches_->prefetch_translation(far->address);
    if (const StreamOp* near = r.ahead(kSetsAhead); near && near->kind != StreamOp::Kind::Barrier)
      caches_->prefetch_sets(near->address);
    if constexpr (kDetailed)
      if (const StreamOp* next = r.ahead(1); next && next->kind != StreamOp::Kind::Barrier)
        caches_->prefetch_write_backs(next->address);
  };

  // A common span ends for every thread at once (RunControl::set_span); a budget, at its own count.
  uint64_t unreported = 0;  // retired since this core last told the run control (spans only)
  // Over a span, this core's account starts once every thread's warm-up has ended, so that no core
  // counts while another still warms; a thread held at a barrier ends its warm-up with the others.
  bool counting = !kSpans;
  const auto more = [&] {
    return !measuring || warming_ || (kSpans ? !job.control->span_over() : retired < job.instructions);
  };
  while (more()) {
    const StreamOp* next_op = reader.next();
    if (!next_op) break;
    const StreamOp& op = *next_op;
    if (op.kind == StreamOp::Kind::Barrier) {
      window.complete_loads();  // a barrier is a fence
      const int64_t arrived = window.now();
      bool held_warming = false;
      if constexpr (kSpans) {
        if (warming_ && measuring) {  // the warm-up may end while this thread waits (RunControl::hold_warming)
          if (unreported) job.control->warming(unreported);
          unreported = 0;
          if (job.control->warmup_span_over()) {
            end_warmup(arrived);
            restart(arrived);
          } else {
            job.control->hold_warming();
            held_warming = true;
          }
        }
      }
      window.advance(pass_barrier(op, arrived));
      if (op.starts_measurement) {  // statistics restarted: so does this core's account
        measuring = true;
        restart(window.now());
      }
      if constexpr (kSpans) {
        // Its warm-up ended in the wait (RunControl counted it warmed up): its statistics restart
        // with its account, below, once every thread measures.
        if (held_warming && job.control->leave_held_warming()) {
          warming_ = false;
          restart(window.now());
        }
        // The measurement began while this core waited (or just before, while it ran ahead of
        // SystemC time): its account starts at the later of the two, not at its release, since
        // the wait is part of the span a continuous run measures.
        if (!counting && measuring && !warming_ && job.control->measuring()) {
          const int64_t started = static_cast<int64_t>(job.control->measurement_start().value()) * kFsPerPs;
          reset_stats();
          restart(std::max(started, arrived));
          counting = true;
        }
      }
      continue;
    }
    if (!kDetailed || window.missing()) lookahead(reader);
    // Numbered over the whole run: the ROB compares them across restarts of measurement.
    window.dispatch(op, retired_total_ + op.instructions);
    if (op.kind == StreamOp::Kind::Load) ++loads_;
    else ++stores_;
    retired += op.instructions + 1;
    retired_total_ += op.instructions + 1;
    const int64_t now = window.now();
    if (kSpans && measuring && (warming_ || counting)) unreported += op.instructions + 1;
    if (warming_ && measuring && (kSpans ? job.control->warmup_span_over() : retired >= job.warmup)) {
      end_warmup(now);  // measurement starts here, for this core
      restart(now);
      unreported = 0;
    }
    if (!counting && measuring && !warming_ && job.control->measuring()) {
      wait_until_fs(now);
      reset_stats();
      restart(now);
      counting = true;
    }
    retired_so_far_ = retired;
    // Progress once a quantum of local time. Temporal decoupling itself is the window's: it hands
    // control back before an access would leave a quantum ahead of SystemC time.
    if (now - reported_at >= quantum_fs) {
      if (unreported) {  // at SystemC's time, so that every thread sees the span end at once
        if (warming_) job.control->warming(unreported);
        else job.control->retired(unreported);
        unreported = 0;
      }
      job.control->tick();
      reported_at = now;
      if (waves_) waves_->set(retired_signal_, now / 1000, static_cast<int64_t>(retired_total_));
    }
  }
  // A measured stretch ends where it began, at a dispatch: its account started with the loads and
  // stores then in flight and ends with those in flight now, so that a short window does not add
  // its drain (about one memory latency) to its cycles. A stream that ended retires its last
  // instructions when their loads and stores complete: that time is the program's.
  const bool stretch_over = !more();
  const int64_t last_dispatch = window.now();
  window.complete_all();
  const int64_t now = window.now();
  if (warming_) {  // the stream ended inside the warm-up: nothing was measured
    end_warmup(now);
    restart(now);
  }
  ended_early_ = !measuring || (kSpans ? !job.control->span_over() : retired < job.instructions);
  instructions_ += retired;
  cycles_ += static_cast<uint64_t>(((stretch_over ? last_dispatch : now) - start) / cycle_fs_);
  if (waves_) waves_->set(retired_signal_, now / 1000, static_cast<int64_t>(retired_total_));
  caches_->caught_up();
  wait_until_fs(now);
  finished_ = true;
  job.control->finished(job.group);
}

void Core::attach_waves(Waves& waves) {
  outstanding_signal_ = waves.level(path(), "outstanding_misses", 8);
  retired_signal_ = waves.value(path(), "retired", 48);
  if (outstanding_signal_ != Waves::kOff || retired_signal_ != Waves::kOff) waves_ = &waves;
}

}  // namespace starnuma
