#include "tracking/tracker_update_model.hpp"

#include <stdexcept>
#include <string>

#include "common/bits.hpp"

namespace starnuma {

TrackerUpdateModel::TrackerUpdateModel(const TrackerConfig& config) : config_(config) {
  if (!is_power_of_two(config.sockets) || config.sockets < 2)
    throw std::invalid_argument("tracker update: sockets must be a power of two >= 2");
  if (config.counter_bits > 16)
    throw std::invalid_argument("tracker update: counter_bits is 0..16, not " + std::to_string(config.counter_bits));
  if (!is_power_of_two(config.pages_per_region))
    throw std::invalid_argument("tracker update: pages_per_region must be a power of two");
  const unsigned bytes = (config.sockets + config.counter_bits + 7) / 8;
  entry_bytes_ = 1;
  while (entry_bytes_ < bytes) entry_bytes_ *= 2;
  if (entry_bytes_ > 8) throw std::invalid_argument("tracker update: an entry wider than 64 bits is not modelled");
}

uint64_t TrackerUpdateModel::entry_mask() const {
  return entry_bytes_ == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * entry_bytes_)) - 1;
}

uint64_t TrackerUpdateModel::sharers(uint64_t entry) const { return entry & ((uint64_t{1} << config_.sockets) - 1); }

uint32_t TrackerUpdateModel::count(uint64_t entry) const {
  return static_cast<uint32_t>(entry >> config_.sockets) & max_count();
}

uint64_t TrackerUpdateModel::updated(uint64_t entry, const FlushRequest& flush) const {
  if (flush.socket >= config_.sockets)
    throw std::out_of_range("tracker update: socket " + std::to_string(flush.socket));
  if (flush.count > max_count())
    throw std::out_of_range("tracker update: count " + std::to_string(flush.count) + " exceeds the T" +
                            std::to_string(config_.counter_bits) + " maximum");
  uint64_t next = (entry & entry_mask()) | (uint64_t{1} << flush.socket);
  if (config_.counter_bits > 0) {  // T0 has no counter: nothing to add
    const uint64_t sum = uint64_t{count(entry)} + flush.count;
    const uint64_t saturated = sum > max_count() ? max_count() : sum;
    next = (next & ~(uint64_t{max_count()} << config_.sockets)) | saturated << config_.sockets;
  }
  return next;
}

bool TrackerUpdateModel::update(const FlushRequest& flush, MetadataMemory& memory) const {
  const uint64_t addr = entry_address(flush.ppage);
  const uint64_t entry = memory.read(addr) & entry_mask();
  const uint64_t next = updated(entry, flush);
  if (next == entry) return false;  // bit already set and nothing to add: no write traffic
  memory.write(addr, next);
  return true;
}

}  // namespace starnuma
