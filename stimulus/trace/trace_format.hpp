// starnuma's own multi-thread memory trace format (docs/traces.md describes it byte by byte).
//
//   header      magic "SNMTRACE", version, threads, seed, footprint, instructions, flags,
//               workload description, CRC-32
//   blocks      any number, threads interleaved in any order; each: tag "SBLK", thread, op count,
//               payload bytes, CRC-32, payload (the thread's next ops, delta/varint encoded)
//   end record  tag "SEND", threads, per thread its op count and whether its stream ended, CRC-32
//
// A block decodes on its own (the delta state restarts at zero), so a reader needs one block of
// one thread in memory at a time.
#pragma once

#include <cstdint>
#include <string>

namespace starnuma::trace {

inline constexpr char kMagic[8] = {'S', 'N', 'M', 'T', 'R', 'A', 'C', 'E'};
inline constexpr uint32_t kFormatVersion = 1;
inline constexpr uint32_t kBlockTag = 0x4b4c4253;  // "SBLK" little-endian
inline constexpr uint32_t kEndTag = 0x444e4553;    // "SEND"

// Fixed part of the header, before the description: magic, version, threads, seed, footprint,
// instructions, flags, description length.
inline constexpr size_t kHeaderFixedBytes = 48;
inline constexpr size_t kThreadsOffset = 12;
inline constexpr size_t kBlockHeaderBytes = 20;  // tag, thread, ops, payload bytes, CRC
inline constexpr uint32_t kMaxDescriptionBytes = 4096;
inline constexpr uint32_t kMaxThreads = 1u << 16;
// A block holds at most this much payload; the writer closes blocks well before (kTargetPayload).
inline constexpr uint32_t kMaxPayloadBytes = 1u << 20;
inline constexpr uint32_t kTargetPayloadBytes = 64u << 10;
// The longest encoding of one op: a tag byte and two 10-byte varints.
inline constexpr size_t kMaxOpBytes = 21;

// Header flags.
inline constexpr uint32_t kFlagInitialises = 1;

// Op tag byte: bits 0-1 kind (0 load, 1 store, 2 barrier), bit 2 dependent, bit 3 starts
// measurement, bit 4 "same instruction count as the previous op of the block" (no varint follows).
inline constexpr uint8_t kTagKindMask = 0x03, kTagDependent = 0x04, kTagStartsMeasurement = 0x08,
                         kTagSameInstructions = 0x10, kTagReserved = 0xe0;

struct TraceHeader {
  uint32_t version = kFormatVersion;
  uint32_t threads = 0;
  uint64_t seed = 0;
  uint64_t footprint = 0;     // bytes the workload touches (Workload::footprint)
  uint64_t instructions = 0;  // the run budget it was recorded for, per thread (0: whole streams)
  bool initialises = false;   // Workload::initialises
  std::string workload;       // the generator's description, e.g. "bfs:scale=16"
};

}  // namespace starnuma::trace
