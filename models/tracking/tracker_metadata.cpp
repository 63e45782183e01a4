#include "tracking/tracker_metadata.hpp"

#include <bitset>
#include <charconv>
#include <cstdio>
#include <cstring>

#include "common/diagnostics.hpp"

namespace starnuma {

TrackerMetadata::TrackerMetadata(const TrackerConfig& config, uint64_t regions)
    : layout_(config),
      regions_(regions),
      entries_(static_cast<uint64_t*>(std::calloc(regions ? regions : 1, sizeof(uint64_t))), &std::free) {
  if (!entries_)
    report_error(msg::kConfig, "tracking: cannot allocate the metadata of " + std::to_string(regions) + " regions");
}

size_t TrackerMetadata::slot(uint64_t addr) const {
  const uint64_t offset = addr - base();
  if (addr < base() || offset % layout_.entry_bytes() != 0 || offset / layout_.entry_bytes() >= regions_)
    report_error(msg::kModel, "tracking: metadata access at " + std::to_string(addr) +
                                  " is not an entry of the region at " + std::to_string(base()));
  return static_cast<size_t>(offset / layout_.entry_bytes());
}

uint64_t TrackerMetadata::entry(uint64_t region) const {
  if (region >= regions_)
    report_error(msg::kUsage, "tracking: region " + std::to_string(region) + " of " + std::to_string(regions_));
  return entries_.get()[region];
}

void TrackerMetadata::clear() { std::memset(entries_.get(), 0, regions_ * sizeof(uint64_t)); }

std::vector<std::pair<uint64_t, uint64_t>> TrackerMetadata::nonzero() const {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (uint64_t r = 0; r < regions_; ++r)
    if (const uint64_t e = entries_.get()[r]) out.emplace_back(r, e);
  return out;
}

void TrackerMetadata::restore(const std::vector<std::pair<uint64_t, uint64_t>>& entries) {
  clear();
  for (const auto& [region, e] : entries) {
    if (region >= regions_)
      report_error(msg::kInput, "tracking: a checkpoint's metadata names region " + std::to_string(region) + " of " +
                                    std::to_string(regions_));
    entries_.get()[region] = e & layout_.entry_mask();
  }
}

namespace {
// Lower-case hexadecimal, zero-padded to `width` digits.
std::string padded_hex(uint64_t v, unsigned width) {
  char digits[16];
  const auto end = std::to_chars(digits, digits + sizeof digits, v, 16).ptr;
  const auto n = static_cast<unsigned>(end - digits);
  return std::string(n < width ? width - n : 0, '0') + std::string(digits, end);
}
}  // namespace

std::string TrackerMetadata::csv() const {
  std::string out = "region,address,sharers,sharer_count,count\n";
  const unsigned hex_digits = (layout_.config().sockets + 3) / 4;
  for (uint64_t r = 0; r < regions_; ++r) {
    const uint64_t e = entries_.get()[r];
    if (e == 0) continue;
    const uint64_t s = layout_.sharers(e);
    out += std::to_string(r) + ",0x" + padded_hex(base() + r * layout_.entry_bytes(), 0) + ",0x" +
           padded_hex(s, hex_digits) + ',' + std::to_string(std::bitset<64>(s).count()) + ',' +
           std::to_string(layout_.count(e)) + '\n';
  }
  return out;
}

}  // namespace starnuma
