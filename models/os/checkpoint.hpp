// A sampled run's checkpoint (StarNUMA Fig. 6, step B's output): where every thread's stream stands
// at one migration phase boundary (or a sampling unit inside a phase), the page map there (the
// result of the earlier phases' migrations), and the migrations the OS decided at that boundary.
// One timing window starts from each. The file format is versioned and documented in
// docs/sampling.md ("The checkpoint file format"); reading checks it
// whole (every length, the CRC) and names the file and byte offset of the first problem.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "coherence/functional_llcs.hpp"
#include "paging/page_map.hpp"
#include "paging/page_table.hpp"
#include "os/region_scan.hpp"

namespace starnuma {

struct Checkpoint {
  static constexpr uint32_t kFormatVersion = 5;
  static constexpr size_t kUnknownNode = static_cast<size_t>(-1);

  // What it was made from; a window refuses a checkpoint of another workload, seed, thread
  // layout or starnuma version.
  std::string starnuma_version = STARNUMA_VERSION;
  std::string workload;
  uint64_t seed = 1;
  std::string platform;  // the functional pass's platform file (for the record)
  std::vector<unsigned> cores_per_socket;
  uint64_t page_size = 4096;
  std::string knowledge;      // "tracker" or "perfect"
  unsigned counter_bits = 0;  // the trackers' (tracker knowledge)
  uint64_t phase_instructions = 0;
  uint64_t phase = 0;  // the boundary: after `phase` phases of the functional pass
  // A sampling unit inside the phase after boundary `phase` (1, 2, ...; 0: the boundary itself):
  // its map is the phase's with every move of the boundary made, `moves` are the boundary's, which
  // a window may take back to copy them again as still in flight, and it has no decision of its
  // own (docs/sampling.md, "Units").
  uint64_t unit = 0;
  bool in_initialisation = false;  // some thread had not yet ended the workload's initialisation

  // Per thread: stream operations consumed and instructions retired up to the boundary.
  std::vector<uint64_t> ops, retired;

  // The page map's nodes: each a socket (by index) or the pool; frames as PageMap::frames.
  struct NodeRecord {
    std::string name;
    int socket = -1;  // -1: the pool
    PageMap::NodeFrames frames;
  };
  std::vector<NodeRecord> nodes;

  // The boundary's decision: the moves in order (`to`: index into `nodes`), each page's node when
  // it was decided (`from`, the same indices; kUnknownNode: not placed), what the scan read, and
  // the decision's figures for the report.
  std::vector<PageMove> moves;
  std::vector<size_t> from;
  uint64_t scan_entries = 0, regions_scanned = 0;
  PhaseDecision decision;

  // Functional warming (tracker knowledge; empty otherwise): per thread, its core's TLBs as the
  // pass left them, each level's geometry and pages, each set's least recent first, as
  // (vpage << 1) | marked; marked: the annexed level's entry has not met the phase's mark yet
  // (FunctionalAnnexes::contents). `annex_stlb`: the annexes sit on the STLB, else the L1 DTLB.
  struct ThreadTlbs {
    unsigned dtlb_entries = 0, dtlb_ways = 0, stlb_entries = 0, stlb_ways = 0;
    std::vector<uint64_t> dtlb, stlb;
    std::vector<uint32_t> counts;  // the annexed level's annex counts, in its order (empty: all 0)
  };
  std::vector<ThreadTlbs> tlbs;
  bool annex_stlb = false;
  // Functional warming of the LLCs (checkpoint --warm-llcs; empty otherwise): every socket's LLC
  // and every home's coherence directory as the pass left them.
  CacheContents caches;
  // The page tables the pass walked (with the caches: their lines are in the LLCs), their frames
  // the OS's in `nodes`; a window's page table is made the same.
  PageTable::Tables page_tables;
  // A unit's tracker metadata, accumulated since its boundary's scan cleared it: (region, entry),
  // by region (tracker knowledge; a boundary's window starts its phase with it cleared).
  std::vector<std::pair<uint64_t, uint64_t>> metadata;

  // The header as JSON (everything but the per-thread positions, the frames and the moves).
  nlohmann::ordered_json header() const;
  // The file's bytes.
  std::string serialise() const;

 private:
  // About the payload's bytes (a few per entry), to reserve them at once.
  size_t payload_estimate() const;
};

// Reads and checks a checkpoint; raises a starnuma/input error "PATH: offset N: ..." for a file
// that is not a checkpoint, of another format version, truncated or corrupt.
Checkpoint read_checkpoint(const std::string& path);

}  // namespace starnuma
