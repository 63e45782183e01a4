// The bytes of the physical address space, kept only when asked for (platform.functional_memory):
// a sparse store whose pages are allocated on first write, so a terabyte map costs what was
// written; bytes never written read as zero. A page's storage stays put until the page is moved
// or dropped, which is what lets DMI hand out pointers to it.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>

#include "common/geometry.hpp"

namespace starnuma {

// Byte enables as TLM-2.0 defines them: byte i of the transfer is enabled when
// mask[i % length] is 0xff; no mask (null) means every byte.
struct ByteEnables {
  const uint8_t* mask = nullptr;
  uint32_t length = 0;
  bool on(uint64_t i) const { return !mask || mask[i % length] == 0xff; }
};

class FunctionalMemory {
 public:
  // Copies [address, address + length) into `data` (disabled bytes of `data` untouched).
  void read(uint64_t address, uint8_t* data, uint64_t length, ByteEnables enables = {}) const;
  // Stores `data` at [address, address + length) (disabled bytes of memory untouched).
  void write(uint64_t address, const uint8_t* data, uint64_t length, ByteEnables enables = {});
  // The storage of the page holding `address`, allocated (zeroed) if it was never written.
  uint8_t* page(uint64_t address);
  // A page of the OS moved: [to, to + bytes) takes the bytes of [from, from + bytes), which then
  // reads as zero (the frame is free). Aligned pages move their storage, not their bytes.
  void move(uint64_t from, uint64_t to, uint64_t bytes);
  // Pages allocated so far.
  size_t pages() const { return pages_.size(); }

 private:
  const uint8_t* find(uint64_t page_number) const {
    auto it = pages_.find(page_number);
    return it == pages_.end() ? nullptr : it->second.get();
  }
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> pages_;  // by page number
};

}  // namespace starnuma
