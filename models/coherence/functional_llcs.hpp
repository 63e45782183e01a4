// The sockets' LLCs in a functional pass (no timing; run/functional_pass.hpp), each of the
// platform's size, ways and replacement. Coherent, they are kept as the timed protocol keeps them
// (coherence.hpp): MESI states in the tags, the same directories (a socket home's unbounded, a
// pool device's of finite entries and ways whose victim back-invalidates its copies), E upgraded
// silently, S copies leaving silently. What they hold at a checkpoint is what a timing window's
// LLCs and directories start from (functional warming, docs/sampling.md). Not coherent, each LLC
// caches on its own, as the timed LLCs do with coherence off.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "cache/cache_array.hpp"
#include "coherence/coherence.hpp"
#include "coherence/directory.hpp"
#include "common/geometry.hpp"
#include "fabric/fabric.hpp"

namespace starnuma {

// The sockets' LLCs and every home's coherence directory at a checkpoint.
struct CacheContents {
  bool coherent = false;  // kept coherent (states S, E, M); else E (clean) or M (dirty)
  struct Llc {
    uint64_t lines = 0;
    unsigned ways = 0;
    // Set by set, each set's least recent first: (line << 2) | MesiState.
    std::vector<uint64_t> entries;
  };
  std::vector<Llc> llcs;  // per socket
  struct Entry {
    uint64_t block = 0, sharers = 0;
    int owner = -1;
  };
  struct Directory {
    size_t home = 0;       // index into the fabric's homes
    uint64_t entries = 0;  // 0: unbounded (a socket's)
    unsigned ways = 0;
    // Bounded: least recently used first; unbounded: by block. Sharers are the protocol's superset
    // (an S copy leaves silently), which the LLCs alone would not give: a line whose sharers all
    // left is granted S, not E, to its next reader, and read from memory by the one after.
    std::vector<Entry> records;
  };
  std::vector<Directory> directories;  // per home, in the fabric's order (coherent only)
  // Each thread's L2 (FunctionalL2s), in the same form as an LLC (each entry E: clean), when the
  // pass kept them; empty otherwise.
  std::vector<Llc> l2s;
  bool empty() const { return llcs.empty(); }
  uint64_t lines() const { return lines_of(llcs); }
  uint64_t l2_lines() const { return lines_of(l2s); }
  static uint64_t lines_of(const std::vector<Llc>& caches) {
    uint64_t n = 0;
    for (const Llc& l : caches) n += l.entries.size();
    return n;
  }
};

class FunctionalL2s;

class FunctionalLlcs {
 public:
  struct Geometry {
    uint64_t lines;
    unsigned ways;
    Replacement replacement;
  };
  // An LLC per socket, of `llcs[s]`; `coherence`: the platform's protocol, for its directories'
  // geometry (used when `coherent`).
  FunctionalLlcs(const Fabric& fabric, const std::vector<Geometry>& llcs, const Coherence& coherence, uint64_t seed,
                 bool coherent);

  // What an access did beyond its socket's LLC, for the pool device's hotness monitor: whether its
  // line was read at its home (no cache supplied it), and the lines written home (dirty copies
  // leaving: the fill's victim, a back-invalidated copy, an owner's copy a load shares).
  struct Outcome {
    bool hit = false;
    bool memory_read = false;
    int supplier = -1;  // coherent: the socket whose LLC supplied the line (its owner), not the home's memory
    unsigned writes = 0;
    std::array<uint64_t, 3> written{};
    // The transaction's messages, as the timed protocol sends them (the time pace books them):
    bool upgrade = false;           // a store's hit on a shared copy: ownership granted, no data
    bool supplier_dirty = false;    // the supplier held the line modified
    bool back_dirty = false;        // the directory's victim was held modified
    uint8_t put = 0;                // the requester's own victim left its LLC: kPutE or kPutM
    uint64_t invalidated = 0;       // the sockets whose copies a store took, a bit each
    uint64_t back_invalidated = 0;  // the holders of the directory's victim, whose copies it took
    uint64_t put_line = 0;
  };
  static constexpr uint8_t kPutE = 1, kPutM = 2;  // Outcome::put: the victim was exclusive, or modified
  // Socket `s` loads or stores `line`.
  Outcome access(size_t s, uint64_t line, bool store) {
    if (coherent_) return coherent_access(s, line, store);
    CacheArray& llc = llcs_[s];
    Outcome o;
    if (llc.access(line, store)) {
      o.hit = true;
      return o;
    }
    o.memory_read = true;
    const CacheArray::Victim v = llc.fill(line, store);
    if (v.valid && v.dirty) {
      o.written[o.writes++] = v.line;
      o.put = kPutM;
      o.put_line = v.line;
    }
    return o;
  }
  // Host prefetch hints for an access of `line` by socket `s` (no effect on the model), in two
  // steps a few accesses apart: first its LLC set and, coherent and asked to `chain` (worth it when
  // most accesses miss; on hits it costs more than it saves), its directory slot; then, those
  // in the host's caches, what a miss or a store's upgrade will look up: the slot of the line the
  // fill would evict (an E or M copy leaving updates its home's directory) and the sets of the
  // other sockets holding the line (a store takes their copies, a load may share the owner's).
  // Coherent misses are otherwise a chain of dependent host memory accesses.
  void prefetch(size_t s, uint64_t line, bool chain) const {
    llcs_[s].prefetch(line);
    if (chain && coherent_) directory_of(line).prefetch(line);
  }
  void prefetch_dependents(size_t s, uint64_t line, bool store) const;
  // `lines` lines from `first` leave every LLC (a moved page's old frame), a dirty one put home.
  void evict_lines(uint64_t first, uint64_t lines);
  // The state of socket `s`'s copy of `line` (I: none; not coherent: E for any copy).
  MesiState state(size_t s, uint64_t line) const {
    if (coherent_) return static_cast<MesiState>(llcs_[s].state(line));
    return llcs_[s].contains(line) ? MesiState::E : MesiState::I;
  }
  CacheContents contents() const;
  bool coherent() const { return coherent_; }
  // The cores' L2s in front of the LLCs: coherent, a line leaving a socket's LLC leaves them too
  // (inclusion); not coherent, the LLCs are not inclusive, as the timed ones are not. A moved
  // page's lines leave them either way (evict_lines).
  void attach(FunctionalL2s* l2s) { l2s_ = l2s; }
  // A store to `line` that one of socket `s`'s L2s holds: whether it completes there, as a timed
  // core's does when its socket's copy is E or M (the LLC's copy then made M, its recency
  // untouched); false when it needs the protocol (an S copy's upgrade). Not coherent: always.
  bool store_in_place(size_t s, uint64_t line);

 private:
  Outcome coherent_access(size_t s, uint64_t line, bool store);
  Directory& directory_of(uint64_t line) const;
  // Socket `s`'s copy, in state `held`, leaves its LLC (its own eviction: PutM, PutE; S silently).
  void leave(size_t s, uint64_t line, unsigned held, Outcome* o);
  // The protocol takes `line` from every socket in `sockets` (a bit each).
  void take(uint64_t sockets, uint64_t line);
  static void wrote(Outcome& o, uint64_t line) { o.written[o.writes++] = line; }
  void lost(size_t s, uint64_t line);  // socket s's copy of `line` left its LLC

  const Fabric& fabric_;
  bool coherent_;
  std::vector<CacheArray> llcs_;
  std::vector<std::unique_ptr<Directory>> directories_;  // per fabric home, when coherent
  FunctionalL2s* l2s_ = nullptr;                         // attach()
};

}  // namespace starnuma
