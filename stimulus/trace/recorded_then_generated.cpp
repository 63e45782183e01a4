#include "stimulus/trace/recorded_then_generated.hpp"

#include <iostream>

#include "common/diagnostics.hpp"
#include "stimulus/trace/artifact.hpp"
#include "stimulus/trace/trace_input.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma::trace {

namespace {

unsigned generated_past_recording = 0;

// The generator, built the first time a thread needs it (a graph's generation can take minutes).
struct Generator {
  std::shared_ptr<const TraceFile> file;
  unsigned sockets = 1;
  std::unique_ptr<Workload> workload;

  const Workload& get() {
    if (!workload) {
      const TraceHeader& h = file->header();
      workload = make_workload(h.workload, h.threads, sockets, h.seed);
    }
    return *workload;
  }
};

class RecordedThenGeneratedStream : public ThreadStream {
 public:
  RecordedThenGeneratedStream(std::shared_ptr<Generator> generator, unsigned thread)
      : generator_(std::move(generator)),
        recorded_(generator_->file, thread, TraceStream::PastEnd::Stop),
        thread_(thread) {}

  size_t fill(StreamOp* out, size_t max) override {
    if (!generated_) {
      const size_t n = recorded_.fill(out, max);
      if (n > 0 || !recorded_.past_recording()) return n;
      go_on_generated();
    }
    return generated_->fill(out, max);
  }

  uint64_t skip(uint64_t n) override {
    if (generated_) return generated_->skip(n);
    const uint64_t passed = recorded_.skip(n);
    if (passed == n || !recorded_.past_recording()) return passed;
    go_on_generated();
    return passed + generated_->skip(n - passed);
  }

 private:
  void go_on_generated() {
    const TraceFile& file = *generator_->file;
    std::cerr << "warning: " << file.path() << ": thread " << thread_ << " runs past the " << file.ops(thread_)
              << " ops recorded; it goes on from the workload's generator, which "
              << "produces its stream again up to there (slower; record the streams with a larger --instructions)\n";
    generated_ = generator_->get().stream(thread_);
    if (generated_->skip(file.ops(thread_)) != file.ops(thread_))
      report_error(msg::kInput, file.path() + ": thread " + std::to_string(thread_) + ": the workload " +
                                    file.header().workload + " ends before the " + std::to_string(file.ops(thread_)) +
                                    " ops recorded (recorded by another starnuma version?)");
    ++generated_past_recording;
  }

  std::shared_ptr<Generator> generator_;
  TraceStream recorded_;
  unsigned thread_;
  std::unique_ptr<ThreadStream> generated_;
};

class RecordedThenGeneratedWorkload : public Workload {
 public:
  explicit RecordedThenGeneratedWorkload(std::shared_ptr<Generator> generator) : generator_(std::move(generator)) {}
  unsigned threads() const override { return generator_->file->header().threads; }
  uint64_t footprint() const override { return generator_->file->header().footprint; }
  bool initialises() const override { return generator_->file->header().initialises; }
  std::unique_ptr<ThreadStream> stream(unsigned thread) const override {
    return std::make_unique<RecordedThenGeneratedStream>(generator_, thread);
  }

 private:
  std::shared_ptr<Generator> generator_;
};

}  // namespace

std::shared_ptr<const TraceFile> open_recording(const std::string& path, unsigned threads, const std::string& option) {
  if (is_trace_directory(path) || detect_trace_kind(path) != TraceKind::Starnuma)
    report_error(msg::kUsage, option + " " + path +
                                  ": a sampled evaluation reads starnuma's own traces (starnuma trace record), not "
                                  "ChampSim's or an artifact set");
  std::shared_ptr<const TraceFile> file = TraceFile::open(path);
  if (file->header().threads != threads)
    report_error(msg::kInput, path + ": recorded for " + std::to_string(file->header().threads) +
                                  " threads; this platform has " + std::to_string(threads) + " cores");
  return file;
}

std::unique_ptr<Workload> recorded_then_generated(std::shared_ptr<const TraceFile> file, unsigned sockets) {
  auto generator = std::make_shared<Generator>();
  generator->file = std::move(file);
  generator->sockets = sockets;
  return std::make_unique<RecordedThenGeneratedWorkload>(std::move(generator));
}

unsigned threads_generated_past_recording() { return generated_past_recording; }

}  // namespace starnuma::trace
