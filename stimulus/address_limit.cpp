#include "stimulus/address_limit.hpp"

#include "common/diagnostics.hpp"
#include "common/host_memory_limit.hpp"
#include "common/text.hpp"

namespace starnuma {
namespace {

struct Shared {
  std::string what;
  AddressLimit limit;
};

class LimitedStream : public ThreadStream {
 public:
  LimitedStream(std::unique_ptr<ThreadStream> inner, std::shared_ptr<const Shared> shared, unsigned thread)
      : inner_(std::move(inner)), shared_(std::move(shared)), thread_(thread) {}
  size_t fill(StreamOp* out, size_t max) override {
    const size_t n = inner_->fill(out, max);
    const uint64_t limit = shared_->limit.bytes;
    bool beyond = false;
    for (size_t i = 0; i < n; ++i) beyond |= out[i].kind != StreamOp::Kind::Barrier && out[i].address >= limit;
    if (beyond) {
      for (size_t i = 0; i < n; ++i)
        if (out[i].kind != StreamOp::Kind::Barrier && out[i].address >= limit)
          report_error(msg::kInput, shared_->what + ": thread " + std::to_string(thread_) + ", op " +
                                        std::to_string(delivered_ + i) + ": address " + hex(out[i].address) +
                                        " is beyond the " + approximate_size(limit) +
                                        " of virtual address space this platform's cores translate (" +
                                        shared_->limit.reason + ")");
    }
    delivered_ += n;
    return n;
  }
  // Ops passed over are not delivered, so not checked (a trace seeks past them unread).
  uint64_t skip(uint64_t n) override {
    const uint64_t passed = inner_->skip(n);
    delivered_ += passed;
    return passed;
  }

 private:
  std::unique_ptr<ThreadStream> inner_;
  std::shared_ptr<const Shared> shared_;
  unsigned thread_;
  uint64_t delivered_ = 0;
};

class LimitedWorkload : public Workload {
 public:
  LimitedWorkload(std::unique_ptr<Workload> inner, std::shared_ptr<const Shared> shared)
      : inner_(std::move(inner)), shared_(std::move(shared)) {}
  unsigned threads() const override { return inner_->threads(); }
  uint64_t footprint() const override { return inner_->footprint(); }
  bool initialises() const override { return inner_->initialises(); }
  bool thread_initialises(unsigned thread) const override { return inner_->thread_initialises(thread); }
  bool executes() const override { return inner_->executes(); }
  std::unique_ptr<ThreadStream> stream(unsigned thread) const override {
    return std::make_unique<LimitedStream>(inner_->stream(thread), shared_, thread);
  }

 private:
  std::unique_ptr<Workload> inner_;
  std::shared_ptr<const Shared> shared_;
};

}  // namespace

std::unique_ptr<Workload> limit_addresses(std::unique_ptr<Workload> workload, std::string what, AddressLimit limit) {
  auto shared = std::make_shared<const Shared>(Shared{std::move(what), std::move(limit)});
  return std::make_unique<LimitedWorkload>(std::move(workload), std::move(shared));
}

}  // namespace starnuma
