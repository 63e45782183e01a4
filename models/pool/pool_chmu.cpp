#include "pool/pool_chmu.hpp"

#include "common/bits.hpp"

namespace starnuma {

using namespace literals;

namespace {

// One of the model's counters as a statistic: what it counted since the last reset.
class ModelCounter : public StatBase {
 public:
  ModelCounter(StatOwner& owner, std::string name, std::string description, const uint64_t& source)
      : StatBase(owner, std::move(name), "events", std::move(description)), source_(source), base_(source) {}
  nlohmann::json to_json(sc_core::sc_time) const override { return source_ - base_; }
  void reset() override { base_ = source_; }

 private:
  const uint64_t& source_;
  uint64_t base_;
};

// The platform's RTL build (rtl/CMakeLists.txt) and the model share these defaults; the device
// address width covers any pool.
constexpr unsigned kAddrBits = 52;

class ModelChmu final : public ChmuEngine {
 public:
  ModelChmu(const ChmuGeometry& g, const ChmuConfig& c) : model_(g) { model_.configure(c); }
  void access(uint64_t offset, bool write) override { model_.access(offset, write); }
  void end_epoch() override { model_.end_epoch(); }
  void drain(std::vector<HotlistEntry>& out) override { model_.drain(out); }
  const ChmuStats& stats() const override { return model_.stats(); }

 private:
  ChmuModel model_;
};

}  // namespace

std::unique_ptr<ChmuEngine> make_model_chmu(const ChmuGeometry& geometry, const ChmuConfig& config) {
  return std::make_unique<ModelChmu>(geometry, config);
}

PoolChmu::PoolChmu(sc_core::sc_module_name n, const ScopeContext& c)
    : Component(n, c),
      enabled_(*this, "enabled", false,
               "A CXL Hotness Monitoring Unit in the device (CXL 3.2 CHMU; docs/cxl-device.md): counts the "
               "requests the pool serves per unit and lists hot units in a hotlist the OS drains"),
      impl_(*this, "impl", "model",
            "model (ChmuModel) or rtl (the Verilated rtl/chmu.sv, built at the default sets, ways, counter_bits "
            "and hotlist); both count alike, bit for bit",
            std::vector<std::string>{"model", "rtl"}),
      sets_(*this, "sets", 512, "Sets of the CHMU's counter table (a power of two)", between(2u, 1u << 20)),
      ways_(*this, "ways", 8, "Ways of each set (a power of two); a miss in a full set takes the least-counted way",
            between(2u, 64u)),
      counter_bits_(*this, "counter_bits", 16, "Bits of each unit's count (the CHMU status' counter width)",
                    between(2u, 32u)),
      hotlist_(*this, "hotlist", 1024, "Slots of the hotlist ring (a power of two; it holds one fewer unit)",
               between(2u, 65536u)),
      unit_(*this, "unit", 4_KiB, "Device memory per counter (a power of two, 256 B to 1 GiB)", between(256_B, 1_GiB)),
      threshold_(*this, "threshold", 16, "Count at which a unit is hot (1 to 2^counter_bits - 1)",
                 between(uint64_t{1}, uint64_t{0xFFFFFFFF})),
      mode_(*this, "mode", "epoch",
            "epoch (units at the threshold reported at each epoch's end, then the counts restart) or always_on "
            "(a unit reported when it reaches the threshold; the epoch's end only ages the table)",
            std::vector<std::string>{"epoch", "always_on"}),
      epoch_(*this, "epoch", 100_us, "Epoch length on the device's clock (the specification's smallest scale: 100 us)",
             between(1_us, Time::from_ps(int64_t{1000} * 1000 * 1000 * 1000 * 100))),
      down_sampling_(*this, "down_sampling", 1, "Count one tracked request in this many (a power of two, 1 to 32768)",
                     between(1u, 32768u)),
      randomized_(*this, "randomized_down_sampling", false,
                  "Choose which requests the down-sampling keeps by an LFSR instead of every n-th"),
      track_(*this, "track", "all", "Requests counted: reads, writes or all",
             std::vector<std::string>{"all", "reads", "writes"}),
      notify_level_(*this, "notify_level", 0,
                    "Hotlist occupancy at which the level-crossed status is set (0: never; below hotlist)",
                    between(0u, 65535u)) {
  bool refused = false;  // a refused value leaves the CHMU unbuilt (the run stops at elaboration)
  const auto refuse = [&](const std::string& key, const std::string& why) {
    error_at(key, why);
    refused = true;
  };
  for (const Param<unsigned>* p : {&sets_, &ways_, &hotlist_, &down_sampling_})
    if (!is_power_of_two(p->get())) refuse(p->name(), "must be a power of two, not " + p->value_text());
  if (!is_power_of_two(unit_.get().bytes())) refuse("unit", "must be a power of two, not " + unit_.value_text());
  const uint64_t max_count = (uint64_t{1} << counter_bits_.get()) - 1;
  if (threshold_.get() > max_count)
    refuse("threshold",
           "is above what " + counter_bits_.value_text() + "-bit counters hold (" + std::to_string(max_count) + ")");
  if (notify_level_.get() >= hotlist_.get())
    refuse("notify_level", "must be below the hotlist's " + hotlist_.value_text() + " slots");
  if (!enabled_.get() || refused) return;
  const ChmuGeometry geometry{sets_.get(), ways_.get(), kAddrBits, counter_bits_.get(), hotlist_.get()};
  ChmuConfig cfg;
  cfg.threshold = static_cast<uint32_t>(threshold_.get());
  cfg.unit_shift = static_cast<unsigned>(log2_of_power(unit_.get().bytes()));
  cfg.ds_shift = static_cast<unsigned>(log2_of_power(down_sampling_.get()));
  cfg.random_ds = randomized_.get();
  cfg.always_on = mode_.get() == "always_on";
  cfg.track_reads = track_.get() != "writes";
  cfg.track_writes = track_.get() != "reads";
  cfg.notify_level = notify_level_.get();
  if (impl_.get() == "rtl") {
    const ChmuGeometry built = rtl_chmu_geometry();
    if (geometry.sets != built.sets || geometry.ways != built.ways || geometry.counter_bits != built.counter_bits ||
        geometry.hotlist != built.hotlist) {
      refuse("impl", "rtl is built with sets " + std::to_string(built.sets) + ", ways " + std::to_string(built.ways) +
                         ", counter_bits " + std::to_string(built.counter_bits) + " and hotlist " +
                         std::to_string(built.hotlist) + "; use impl: model for other sizes");
      return;
    }
    engine_ = make_rtl_chmu(cfg);
  } else {
    engine_ = make_model_chmu(geometry, cfg);
  }
  next_epoch_ps_ = epoch_.get().ps();
  const ChmuStats& s = engine_->stats();
  const auto stat = [&](const char* name, const char* what, const uint64_t& field) {
    stats_.push_back(std::make_unique<ModelCounter>(*this, name, what, field));
  };
  stat("counted", "Requests counted (a tracked type, kept by the down-sampling)", s.counted);
  stat("filtered", "Requests of a type not tracked", s.filtered);
  stat("sampled_out", "Tracked requests the down-sampling skipped", s.sampled_out);
  stat("replaced", "Counter-table misses that displaced a unit", s.replaced);
  stat("reported", "Units written to the hotlist", s.reported);
  stat("dropped", "Hot units lost to a full hotlist", s.dropped);
  stat("epochs", "Epochs ended", epochs_);
  stats_.push_back(std::make_unique<Formula>(*this, "storage_bits", "bits",
                                             "The table's and hotlist's state (the hardware's cost; chmu_storage_bits)",
                                             [this](sc_core::sc_time) { return nlohmann::json(storage_bits()); }));

  stat("drained", "Hotlist entries the OS read", drained_);
}

void PoolChmu::count(Time arrival, MemOp op, uint64_t offset) {
  if (arrival.ps() >= next_epoch_ps_) {
    engine_->end_epoch();
    // Epochs without a request leave nothing to report: skip to the one this request falls in.
    const int64_t len = epoch_.get().ps(), skipped = (arrival.ps() - next_epoch_ps_) / len;
    epochs_ += static_cast<uint64_t>(skipped) + 1;
    next_epoch_ps_ += (skipped + 1) * len;
  }
  engine_->access(offset, op == MemOp::Write);
}

void PoolChmu::end_epoch() {
  if (!engine_) return;
  engine_->end_epoch();
  ++epochs_;
}

uint64_t PoolChmu::storage_bits() const {
  return chmu_storage_bits({sets_.get(), ways_.get(), kAddrBits, counter_bits_.get(), hotlist_.get()});
}

void PoolChmu::drain(std::vector<HotlistEntry>& out) {
  if (!engine_) return;
  const size_t before = out.size();
  engine_->drain(out);
  drained_ += out.size() - before;
}

}  // namespace starnuma
