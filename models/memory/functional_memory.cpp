#include "memory/functional_memory.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace starnuma {

void FunctionalMemory::read(uint64_t address, uint8_t* data, uint64_t length, ByteEnables enables) const {
  for (uint64_t done = 0; done < length;) {
    const uint64_t offset = (address + done) % kPageBytes;
    const uint64_t n = std::min(length - done, kPageBytes - offset);
    const uint8_t* page = find((address + done) / kPageBytes);
    if (!enables.mask) {
      if (page) std::memcpy(data + done, page + offset, n);
      else std::memset(data + done, 0, n);
    } else {
      for (uint64_t i = 0; i < n; ++i)
        if (enables.on(done + i)) data[done + i] = page ? page[offset + i] : 0;
    }
    done += n;
  }
}

void FunctionalMemory::write(uint64_t address, const uint8_t* data, uint64_t length, ByteEnables enables) {
  for (uint64_t done = 0; done < length;) {
    const uint64_t offset = (address + done) % kPageBytes;
    const uint64_t n = std::min(length - done, kPageBytes - offset);
    uint8_t* p = page(address + done);
    if (!enables.mask) {
      std::memcpy(p + offset, data + done, n);
    } else {
      for (uint64_t i = 0; i < n; ++i)
        if (enables.on(done + i)) p[offset + i] = data[done + i];
    }
    done += n;
  }
}

uint8_t* FunctionalMemory::page(uint64_t address) {
  std::unique_ptr<uint8_t[]>& p = pages_[address / kPageBytes];
  if (!p) p = std::make_unique<uint8_t[]>(kPageBytes);  // value-initialised: zeros
  return p.get();
}

void FunctionalMemory::move(uint64_t from, uint64_t to, uint64_t bytes) {
  if (from == to || bytes == 0) return;
  if (from % kPageBytes == 0 && to % kPageBytes == 0 && bytes % kPageBytes == 0) {
    for (uint64_t k = 0; k < bytes / kPageBytes; ++k) {
      auto it = pages_.find(from / kPageBytes + k);
      if (it == pages_.end()) {
        pages_.erase(to / kPageBytes + k);  // the source was never written: zeros
        continue;
      }
      pages_[to / kPageBytes + k] = std::move(it->second);
      pages_.erase(it);
    }
    return;
  }
  // OS pages smaller than or misaligned with the store's: copy, then clear the source.
  std::vector<uint8_t> bytes_of(bytes);
  read(from, bytes_of.data(), bytes);
  const std::vector<uint8_t> zeros(bytes);
  write(from, zeros.data(), bytes);
  write(to, bytes_of.data(), bytes);
}

}  // namespace starnuma
