#include "core/core.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
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
  if (!uplink_.fabric) report_internal(path() + " was not bound to a fabric");
  caches_ = std::make_unique<CacheHierarchy>(config_, uplink_, job_->context, cycle_fs_, memory_stats_, job_->seed);
  if (job_->context.transactions) caches_->set_owner(path());
  std::string thread = path() + "_thread";  // spawned at the top level: the full path keeps it unique
  std::replace(thread.begin(), thread.end(), '.', '_');
  if (job_->light) sc_core::sc_spawn([this] { run_light(); }, thread.c_str());
  else sc_core::sc_spawn([this] { run(); }, thread.c_str());
}

namespace {

// How far ahead in the stream the host prefetches (CacheHierarchy::prefetch_translation,
// prefetch_sets, and prefetch_write_backs for the next access): each stage has about one access's
// host time to arrive.
constexpr size_t kTranslationAhead = 4, kSetsAhead = 2;

using Window = InstructionWindow<CacheHierarchy>;

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
  return std::max(now, sim_now_fs());
}

void Core::end_warmup(int64_t now) {
  wait_until_fs(now);
  reset_stats();
  warming_ = false;
  job_->control->warmed_up();
}

void Core::run() {
  Job& job = *job_;
  warming_ = job.warmup > 0;
  const int64_t quantum_fs = job.quantum.ps() * 1000;
  const Window::Shape shape{config_.rob,
                            config_.mshrs,
                            config_.store_buffer,
                            config_.dependent_loads.get() == "overlap",
                            dispatch_fs_,
                            caches_->l1_latency(),
                            quantum_fs};
  int64_t start = sim_now_fs();
  Window window(shape, *caches_, {rob_stalls_, mshr_stalls_, store_buffer_stalls_}, start);
  window.attach_waves(waves_, outstanding_signal_);
  StreamReader reader(*job.stream);

  uint64_t retired = 0;
  uint64_t reported_instructions = 0, reported_cycles = 0;  // progress told to the light cores
  int64_t reported_at = start;
  // Measurement (re)starts at `at` for this core: after initialisation, after its warm-up.
  const auto restart = [&](int64_t at) {
    start = at;
    retired = 0;
    reported_instructions = reported_cycles = 0;
    reported_at = at;
  };
  bool measuring = !job.initialises;
  // The host prefetches for the accesses ahead while the stream misses the L1 (the last access
  // did): the hint costs a page map lookup, which L1-friendly streams need not pay.
  const auto lookahead = [this](const StreamReader& r) {
    if (const StreamOp* far = r.ahead(kTranslationAhead); far && far->kind != StreamOp::Kind::Barrier)
      caches_->prefetch_translation(far->address);
    if (const StreamOp* near = r.ahead(kSetsAhead); near && near->kind != StreamOp::Kind::Barrier)
      caches_->prefetch_sets(near->address);
    if (const StreamOp* next = r.ahead(1); next && next->kind != StreamOp::Kind::Barrier)
      caches_->prefetch_write_backs(next->address);
  };

  while (!measuring || warming_ || retired < job.instructions) {
    const StreamOp* next_op = reader.next();
    if (!next_op) break;
    const StreamOp& op = *next_op;
    if (op.kind == StreamOp::Kind::Barrier) {
      window.complete_loads();  // a barrier is a fence
      window.advance(pass_barrier(op, window.now()));
      if (op.starts_measurement) {  // statistics restarted: so does this core's account
        measuring = true;
        restart(window.now());
      }
      continue;
    }
    if (window.missing()) lookahead(reader);
    // Numbered over the whole run: the ROB compares them across restarts of measurement.
    window.dispatch(op, retired_total_ + op.instructions);
    if (op.kind == StreamOp::Kind::Load) ++loads_;
    else ++stores_;
    retired += op.instructions + 1;
    retired_total_ += op.instructions + 1;
    const int64_t now = window.now();
    if (warming_ && measuring && retired >= job.warmup) {  // measurement starts here, for this core
      end_warmup(now);
      restart(now);
    }
    retired_so_far_ = retired;
    // Progress for the light cores once a quantum of local time. Temporal decoupling itself is the
    // window's: it hands control back before an access would leave a quantum ahead of SystemC time.
    if (now - reported_at >= quantum_fs) {
      job.control->report_detailed(retired - reported_instructions,
                                   static_cast<uint64_t>((now - start) / cycle_fs_) - reported_cycles);
      job.control->tick();
      reported_instructions = retired;
      reported_cycles = static_cast<uint64_t>((now - start) / cycle_fs_);
      reported_at = now;
      if (waves_) waves_->set(retired_signal_, now / 1000, static_cast<int64_t>(retired_total_));
    }
  }
  // The last instructions retire when their loads and stores complete.
  window.complete_all();
  const int64_t now = window.now();
  if (warming_) {  // the stream ended inside the warm-up: nothing was measured
    end_warmup(now);
    restart(now);
  }
  ended_early_ = !measuring || retired < job.instructions;
  instructions_ += retired;
  cycles_ += static_cast<uint64_t>((now - start) / cycle_fs_);
  if (waves_) waves_->set(retired_signal_, now / 1000, static_cast<int64_t>(retired_total_));
  wait_until_fs(now);
  job.control->finished(job.group);
}

void Core::attach_waves(Waves& waves) {
  outstanding_signal_ = waves.level(path(), "outstanding_misses", 8);
  retired_signal_ = waves.value(path(), "retired", 48);
  if (outstanding_signal_ != Waves::kOff || retired_signal_ != Waves::kOff) waves_ = &waves;
}

void Core::run_light() {
  Job& job = *job_;
  const int64_t quantum_fs = job.quantum.ps() * 1000;
  StreamReader reader(*job.stream);
  int64_t start = sim_now_fs(), now = start;
  uint64_t retired = 0;
  const auto restart = [&](int64_t at) {
    start = at;
    retired = 0;
  };
  bool measuring = !job.initialises;
  warming_ = job.warmup > 0;
  // Paced as the paper's artifact paces its trace-driven cores: at most `light_loads` loads in
  // flight (a min-heap of their completions). Dependent loads do not wait for the load before
  // them: measured, that made bfs's light cores slower than the detailed ones (docs/cores.md).
  const size_t max_loads = config_.light_loads;
  std::vector<int64_t> loads_in_flight;
  loads_in_flight.reserve(max_loads);
  const auto earliest_first = std::greater<int64_t>();
  const auto drop_first = [&] {
    std::pop_heap(loads_in_flight.begin(), loads_in_flight.end(), earliest_first);
    loads_in_flight.pop_back();
  };
  while (!measuring || warming_ || retired < job.instructions) {
    const StreamOp* next_op = reader.next();
    if (!next_op) break;
    const StreamOp& op = *next_op;
    if (op.kind == StreamOp::Kind::Barrier) {
      for (int64_t done : loads_in_flight) now = std::max(now, done);  // a fence
      loads_in_flight.clear();
      now = pass_barrier(op, now);
      if (op.starts_measurement) {
        measuring = true;
        restart(now);
      }
      continue;
    }
    retired += op.instructions + 1;
    retired_total_ += op.instructions + 1;
    // The detailed cores' IPC sets the pace: this many cycles for the instructions so far.
    const double cycles = static_cast<double>(op.instructions + 1) / job.control->detailed_ipc();
    now += static_cast<int64_t>(cycles * static_cast<double>(cycle_fs_));
    const bool load = op.kind == StreamOp::Kind::Load;
    if (load) {
      while (!loads_in_flight.empty() && loads_in_flight.front() <= now) drop_first();
      if (loads_in_flight.size() >= max_loads) {  // wait for the first to complete
        ++mshr_stalls_;                           // its load queue stands for the MSHRs
        now = loads_in_flight.front();
        drop_first();
      }
      ++loads_;
    } else {
      ++stores_;
    }
    const int64_t latency = caches_->light_access(op.address, !load, now);
    if (load) {
      loads_in_flight.push_back(now + latency);
      std::push_heap(loads_in_flight.begin(), loads_in_flight.end(), earliest_first);
    }
    if (warming_ && measuring && retired >= job.warmup) {
      end_warmup(now);
      restart(now);
    }
    retired_so_far_ = retired;
    wait_if_ahead(now, quantum_fs);
  }
  for (int64_t done : loads_in_flight) now = std::max(now, done);  // the last loads complete
  if (warming_) {
    end_warmup(now);
    restart(now);
  }
  ended_early_ = !measuring || retired < job.instructions;
  instructions_ += retired;
  cycles_ += static_cast<uint64_t>((now - start) / cycle_fs_);
  wait_until_fs(now);
  job.control->finished(job.group);
}

}  // namespace starnuma
