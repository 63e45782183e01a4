#include "os/checkpoint.hpp"

#include <algorithm>
#include <cstring>

#include "common/diagnostics.hpp"
#include "common/divisor.hpp"
#include "stimulus/trace/binary_io.hpp"

namespace starnuma {

namespace {

constexpr char kMagic[8] = {'S', 'N', 'C', 'H', 'K', 'P', 'T', '\n'};
constexpr size_t kFixedBytes = 16;  // magic, format version, header length

void put_varint(std::string& out, uint64_t v) {
  uint8_t b[10];
  out.append(reinterpret_cast<const char*>(b), trace::put_varint(b, v));
}

template <class Int>
void put_fixed(std::string& out, Int v) {
  uint8_t b[sizeof(Int)];
  for (size_t i = 0; i < sizeof(Int); ++i) b[i] = static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * i));
  out.append(reinterpret_cast<const char*>(b), sizeof b);
}

// Reads the payload's varints, reporting the file offset of any that runs past its end.
class PayloadReader {
 public:
  PayloadReader(const std::string& path, const std::vector<uint8_t>& bytes, uint64_t file_offset)
      : path_(path), begin_(bytes.data()), p_(bytes.data()), end_(bytes.data() + bytes.size()), base_(file_offset) {}
  uint64_t next(const char* what) {
    const uint8_t* at = p_;
    uint64_t v = 0;
    if (!trace::get_varint(p_, end_, v)) trace::fail_at(path_, offset(at), std::string("bad or truncated ") + what);
    return v;
  }
  uint8_t byte(const char* what) {
    if (p_ == end_) trace::fail_at(path_, offset(p_), std::string("truncated ") + what);
    return *p_++;
  }
  uint64_t offset(const uint8_t* at) const { return base_ + static_cast<uint64_t>(at - begin_); }
  uint64_t offset() const { return offset(p_); }
  bool done() const { return p_ == end_; }
  // A count of items of at least `min_bytes` each: more than the rest of the payload holds is
  // corrupt (and would otherwise make the reader allocate without bound).
  uint64_t count(const char* what, uint64_t min_bytes) {
    const uint8_t* at = p_;
    const uint64_t n = next(what);
    if (n > static_cast<uint64_t>(end_ - p_) / min_bytes)
      trace::fail_at(path_, offset(at), std::string(what) + " " + std::to_string(n) + " exceeds the payload");
    return n;
  }

 private:
  const std::string& path_;
  const uint8_t *begin_, *p_, *end_;
  uint64_t base_;
};

// A cache's contents: each entry by its set's distance from the last entry's and its tag (the line
// divided by the sets) with its state.
void put_cache(std::string& out, const CacheContents::Llc& l) {
  const Divisor sets(l.lines / l.ways);
  put_varint(out, l.lines);
  put_varint(out, l.ways);
  put_varint(out, l.entries.size());
  uint64_t set = 0;
  for (uint64_t e : l.entries) {
    const uint64_t line = e >> 2, its_set = sets.mod(line);
    if (its_set < set) report_internal("checkpoint: a cache's entries out of their sets' order");
    put_varint(out, its_set - set);
    set = its_set;
    put_varint(out, sets.div(line) << 2 | (e & 3));
  }
}

// `what` names the cache in errors ("LLC", "L2"); S is a state only coherent caches hold.
CacheContents::Llc read_cache(PayloadReader& in, const std::string& path, const std::string& what, bool coherent) {
  // The names the reader's errors give, made once (an L2's entries are hundreds of thousands).
  const std::string lines_name = what + " lines", ways_name = what + " ways", count_name = what + " entry count",
                    set_name = what + " entry's set", entry_name = what + " entry";
  CacheContents::Llc l;
  const uint64_t at = in.offset();
  l.lines = in.next(lines_name.c_str());
  l.ways = static_cast<unsigned>(std::min<uint64_t>(in.next(ways_name.c_str()), 1u << 16));
  if (l.ways == 0 || l.lines % l.ways != 0 || l.lines > (uint64_t{1} << 40))
    trace::fail_at(path, at,
                   "an " + what + " of " + std::to_string(l.lines) + " lines in " + std::to_string(l.ways) + " ways");
  const uint64_t sets = l.lines / l.ways;
  const uint64_t count_at = in.offset();
  const uint64_t n = in.count(count_name.c_str(), 2);
  if (n > l.lines)
    trace::fail_at(path, count_at, std::to_string(n) + " entries in an " + what + " of " + std::to_string(l.lines));
  l.entries.reserve(n);
  uint64_t set = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t entry_at = in.offset();
    set += in.next(set_name.c_str());
    const uint64_t tagged = in.next(entry_name.c_str());
    const uint64_t state = tagged & 3;
    if (set >= sets || state == 0 || (!coherent && state == 1) || (tagged >> 2) > (~uint64_t{0} >> 2) / sets)
      trace::fail_at(path, entry_at, "an " + what + " entry out of its cache's sets or of an unknown state");
    l.entries.push_back(((tagged >> 2) * sets + set) << 2 | state);
  }
  return l;
}

// The LLCs; then every home's directory, a bounded one's least recently used entry first, an
// unbounded one's by block, each block as its distance from the last one's; then each thread's L2.
void put_caches(std::string& out, const CacheContents& c) {
  put_varint(out, c.llcs.size());
  if (c.empty()) return;
  out.push_back(c.coherent ? 1 : 0);
  for (const CacheContents::Llc& l : c.llcs) put_cache(out, l);
  put_varint(out, c.directories.size());
  for (const CacheContents::Directory& d : c.directories) {
    for (uint64_t v : {uint64_t{d.home}, d.entries, uint64_t{d.ways}, uint64_t{d.records.size()}}) put_varint(out, v);
    uint64_t last = 0;
    for (const CacheContents::Entry& e : d.records) {
      if (!d.entries && e.block < last) report_internal("checkpoint: an unbounded directory's entries out of order");
      put_varint(out, d.entries ? e.block : e.block - last);
      last = e.block;
      put_varint(out, static_cast<uint64_t>(e.owner + 1));
      put_varint(out, e.sharers);
    }
  }
  put_varint(out, c.l2s.size());
  for (const CacheContents::Llc& l : c.l2s) put_cache(out, l);
}

CacheContents read_caches(PayloadReader& in, const std::string& path) {
  CacheContents c;
  const uint64_t sockets = in.count("LLC count", 4);
  if (sockets == 0) return c;
  const uint8_t coherent = in.byte("LLCs' coherence");
  if (coherent > 1) trace::fail_at(path, in.offset() - 1, "LLCs' coherence " + std::to_string(coherent));
  c.coherent = coherent == 1;
  for (uint64_t s = 0; s < sockets; ++s) c.llcs.push_back(read_cache(in, path, "LLC", c.coherent));
  const uint64_t dirs = in.count("directory count", 4);
  for (uint64_t k = 0; k < dirs; ++k) {
    CacheContents::Directory& d = c.directories.emplace_back();
    const uint64_t at = in.offset();
    d.home = in.next("directory's home");
    d.entries = in.next("directory entries");
    d.ways = static_cast<unsigned>(std::min<uint64_t>(in.next("directory ways"), 1u << 16));
    const uint64_t n = in.count("directory entry count", 3);
    if (d.entries && (d.ways == 0 || d.entries % d.ways != 0 || n > d.entries))
      trace::fail_at(path, at,
                     "a directory of " + std::to_string(n) + " entries in " + std::to_string(d.entries) + " (" +
                         std::to_string(d.ways) + " ways)");
    d.records.reserve(n);
    uint64_t last = 0;
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t entry_at = in.offset();
      CacheContents::Entry& e = d.records.emplace_back();
      e.block = in.next("directory entry's block") + (d.entries ? 0 : last);
      last = e.block;
      const uint64_t owner = in.next("directory entry's owner");
      e.sharers = in.next("directory entry's sharers");
      if (owner > 64 || (owner && e.sharers)) trace::fail_at(path, entry_at, "a directory entry with a bad owner");
      e.owner = static_cast<int>(owner) - 1;
    }
  }
  const uint64_t threads = in.count("L2 count", 4);
  for (uint64_t t = 0; t < threads; ++t) c.l2s.push_back(read_cache(in, path, "L2", false));
  return c;
}

nlohmann::ordered_json decision_json(const PhaseDecision& d) {
  return {{"hi", d.hi},
          {"lo", d.lo},
          {"candidates", d.candidates},
          {"pages_over_hi", d.candidate_pages},
          {"already_home", d.home},
          {"ping_pong", d.ping_pong},
          {"no_victim", d.no_victim},
          {"limit_reached", d.limit_reached},
          {"pages_decided", d.pages}};
}

}  // namespace

nlohmann::ordered_json Checkpoint::header() const {
  nlohmann::ordered_json h;
  h["format"] = "starnuma checkpoint";
  h["format_version"] = kFormatVersion;
  h["starnuma"] = starnuma_version;
  h["workload"] = workload;
  h["seed"] = seed;
  h["platform"] = platform;
  h["threads"] = ops.size();
  h["cores_per_socket"] = cores_per_socket;
  h["page_size"] = page_size;
  h["knowledge"] = knowledge;
  h["counter_bits"] = counter_bits;
  h["phase_instructions"] = phase_instructions;
  h["phase"] = phase;
  if (unit) h["unit"] = unit;
  h["in_initialisation"] = in_initialisation;
  nlohmann::ordered_json n = nlohmann::ordered_json::array();
  for (const NodeRecord& r : nodes) {
    nlohmann::ordered_json e{{"name", r.name}};
    if (r.socket >= 0) e["socket"] = r.socket;
    else e["pool"] = true;
    n.push_back(e);
  }
  h["nodes"] = n;
  h["moves"] = moves.size();
  h["scan_entries"] = scan_entries;
  h["regions_scanned"] = regions_scanned;
  h["decision"] = decision_json(decision);
  if (!tlbs.empty()) h["tlbs_annexed"] = annex_stlb ? "stlb" : "dtlb";
  if (!caches.empty()) {
    h["llcs"] = caches.coherent ? "coherent" : "not coherent";
    h["llc_lines"] = caches.lines();
    if (!caches.l2s.empty()) h["l2_lines"] = caches.l2_lines();
  }
  if (!page_tables.empty()) h["page_tables"] = page_tables.tables.size() + 1;
  return h;
}

size_t Checkpoint::payload_estimate() const {
  size_t entries = 2 * ops.size() + 3 * moves.size() + 2 * metadata.size() + 2 * page_tables.tables.size();
  for (const NodeRecord& r : nodes) entries += r.frames.owners.size() + r.frames.free.size();
  for (const ThreadTlbs& t : tlbs) entries += t.dtlb.size() + t.stlb.size() + t.counts.size();
  entries += 2 * (caches.lines() + caches.l2_lines());
  for (const CacheContents::Directory& d : caches.directories) entries += 3 * d.records.size();
  return 4 * entries + 64;
}

std::string Checkpoint::serialise() const {
  if (retired.size() != ops.size()) report_internal("checkpoint: positions of unequal lengths");
  if (from.size() != moves.size()) report_internal("checkpoint: moves and their sources of unequal lengths");
  const std::string head = header().dump();
  // The payload is written in place after the fixed part and the header (megabytes with the
  // caches: not copied again), its length filled in once known.
  std::string out(kMagic, sizeof kMagic);
  out.reserve(kFixedBytes + head.size() + 8 + payload_estimate() + 4);
  put_fixed<uint32_t>(out, kFormatVersion);
  put_fixed<uint32_t>(out, static_cast<uint32_t>(head.size()));
  out += head;
  const size_t length_at = out.size();
  put_fixed<uint64_t>(out, 0);
  for (size_t t = 0; t < ops.size(); ++t) {
    put_varint(out, ops[t]);
    put_varint(out, retired[t]);
  }
  for (const NodeRecord& r : nodes) {
    put_varint(out, r.frames.owners.size());
    for (uint64_t v : r.frames.owners) put_varint(out, v == PageMap::kNoPage ? 0 : v + 1);
    put_varint(out, r.frames.free.size());
    for (uint64_t f : r.frames.free) put_varint(out, f);
  }
  put_varint(out, moves.size());
  for (size_t k = 0; k < moves.size(); ++k) {
    put_varint(out, moves[k].vpage);
    put_varint(out, moves[k].to);
    put_varint(out, from[k] == kUnknownNode ? 0 : from[k] + 1);
    out.push_back(moves[k].kind == MoveKind::Victim ? 1 : 0);
  }
  if (!tlbs.empty() && tlbs.size() != ops.size()) report_internal("checkpoint: TLBs of some threads only");
  put_varint(out, tlbs.size());
  for (const ThreadTlbs& t : tlbs) {
    for (unsigned v : {t.dtlb_entries, t.dtlb_ways, t.stlb_entries, t.stlb_ways}) put_varint(out, v);
    for (const std::vector<uint64_t>* level : {&t.dtlb, &t.stlb}) {
      put_varint(out, level->size());
      for (uint64_t e : *level) put_varint(out, e);
    }
    put_varint(out, t.counts.size());
    for (uint32_t n : t.counts) put_varint(out, n);
  }
  put_caches(out, caches);
  put_varint(out, page_tables.empty() ? 0 : page_tables.root + 1);
  if (!page_tables.empty()) {
    put_varint(out, page_tables.tables.size());
    uint64_t last = 0;
    for (const auto& [key, address] : page_tables.tables) {
      put_varint(out, key - last);  // by key
      put_varint(out, address);
      last = key;
    }
  }
  put_varint(out, metadata.size());
  uint64_t last_region = 0;
  for (const auto& [region, entry] : metadata) {
    put_varint(out, region - last_region);  // by region
    put_varint(out, entry);
    last_region = region;
  }
  const uint64_t length = out.size() - length_at - 8;
  for (size_t i = 0; i < 8; ++i) out[length_at + i] = static_cast<char>(length >> (8 * i));
  put_fixed<uint32_t>(out, trace::crc32(out.data(), out.size()));
  return out;
}

Checkpoint read_checkpoint(const std::string& path) {
  const trace::InputFile file(path);
  uint8_t fixed[kFixedBytes];
  file.read_exact(0, fixed, kFixedBytes, "checkpoint header");
  if (std::memcmp(fixed, kMagic, sizeof kMagic) != 0)
    file.fail(0, "not a starnuma checkpoint (written by `starnuma checkpoint`)");
  const uint32_t version = trace::get_u32(fixed + 8);
  if (version != Checkpoint::kFormatVersion)
    file.fail(8, "checkpoint format version " + std::to_string(version) + "; this starnuma reads version " +
                     std::to_string(Checkpoint::kFormatVersion));
  const uint32_t head_bytes = trace::get_u32(fixed + 12);
  if (head_bytes > file.size() - kFixedBytes)
    file.fail(file.size(),
              "truncated checkpoint: its header of " + std::to_string(head_bytes) + " bytes starts at offset 16");
  std::string head(head_bytes, '\0');
  file.read_exact(kFixedBytes, head.data(), head_bytes, "checkpoint header");
  uint8_t len[8];
  const uint64_t len_at = kFixedBytes + head_bytes;
  file.read_exact(len_at, len, 8, "payload length");
  const uint64_t payload_bytes = trace::get_u64(len);
  if (payload_bytes > file.size() - std::min(file.size(), len_at + 8))
    file.fail(file.size(), "truncated checkpoint: its payload of " + std::to_string(payload_bytes) +
                               " bytes starts at offset " + std::to_string(len_at + 8));
  std::vector<uint8_t> payload(payload_bytes);
  file.read_exact(len_at + 8, payload.data(), payload_bytes, "payload");
  uint8_t crc_bytes[4];
  const uint64_t crc_at = len_at + 8 + payload_bytes;
  file.read_exact(crc_at, crc_bytes, 4, "checksum");
  if (file.size() != crc_at + 4) file.fail(crc_at + 4, "data after the checkpoint's end");
  uint32_t crc = trace::crc32(fixed, kFixedBytes);
  crc = trace::crc32(head.data(), head.size(), crc);
  crc = trace::crc32(len, 8, crc);
  crc = trace::crc32(payload.data(), payload.size(), crc);
  if (crc != trace::get_u32(crc_bytes)) file.fail(crc_at, "checksum mismatch: the checkpoint is corrupt");

  Checkpoint c;
  try {
    const nlohmann::json h = nlohmann::json::parse(head);
    c.starnuma_version = h.at("starnuma").get<std::string>();
    c.workload = h.at("workload").get<std::string>();
    c.seed = h.at("seed").get<uint64_t>();
    c.platform = h.at("platform").get<std::string>();
    c.cores_per_socket = h.at("cores_per_socket").get<std::vector<unsigned>>();
    c.page_size = h.at("page_size").get<uint64_t>();
    c.knowledge = h.at("knowledge").get<std::string>();
    c.counter_bits = h.at("counter_bits").get<unsigned>();
    c.phase_instructions = h.at("phase_instructions").get<uint64_t>();
    c.phase = h.at("phase").get<uint64_t>();
    c.unit = h.value("unit", uint64_t{0});
    c.in_initialisation = h.at("in_initialisation").get<bool>();
    const uint64_t threads = h.at("threads").get<uint64_t>();
    if (threads > payload_bytes / 2)
      file.fail(kFixedBytes, "thread count " + std::to_string(threads) + " exceeds the payload");
    c.ops.resize(threads);
    for (const auto& n : h.at("nodes")) {
      Checkpoint::NodeRecord r;
      r.name = n.at("name").get<std::string>();
      r.socket = n.contains("socket") ? n.at("socket").get<int>() : -1;
      c.nodes.push_back(std::move(r));
    }
    c.scan_entries = h.at("scan_entries").get<uint64_t>();
    c.regions_scanned = h.at("regions_scanned").get<uint64_t>();
    const auto& d = h.at("decision");
    c.decision.hi = d.at("hi").get<uint64_t>();
    c.decision.lo = d.at("lo").get<uint64_t>();
    c.decision.candidates = d.at("candidates").get<uint64_t>();
    c.decision.candidate_pages = d.value("pages_over_hi", uint64_t{0});  // absent before 2026-11-28
    c.decision.home = d.at("already_home").get<uint64_t>();
    c.decision.ping_pong = d.at("ping_pong").get<uint64_t>();
    c.decision.no_victim = d.at("no_victim").get<uint64_t>();
    c.decision.limit_reached = d.at("limit_reached").get<bool>();
    c.decision.pages = d.at("pages_decided").get<uint64_t>();
    c.annex_stlb = h.value("tlbs_annexed", std::string()) == "stlb";
  } catch (const nlohmann::json::exception& e) {
    file.fail(kFixedBytes, std::string("bad checkpoint header: ") + e.what());
  }
  if (c.knowledge != "tracker" && c.knowledge != "perfect")
    file.fail(kFixedBytes, "bad checkpoint header: knowledge '" + c.knowledge + "'");

  PayloadReader in(path, payload, len_at + 8);
  c.retired.resize(c.ops.size());
  for (size_t t = 0; t < c.ops.size(); ++t) {
    c.ops[t] = in.next("stream position");
    c.retired[t] = in.next("instruction count");
  }
  for (Checkpoint::NodeRecord& r : c.nodes) {
    const uint64_t frames = in.count("frame count", 1);
    r.frames.owners.reserve(frames);
    for (uint64_t i = 0; i < frames; ++i) {
      const uint64_t o = in.next("frame owner");
      r.frames.owners.push_back(o == 0 ? PageMap::kNoPage : o - 1);
    }
    const uint64_t free = in.count("free frame count", 1);
    for (uint64_t i = 0; i < free; ++i) r.frames.free.push_back(in.next("free frame"));
  }
  const uint64_t moves = in.count("move count", 4);
  for (uint64_t i = 0; i < moves; ++i) {
    const uint64_t at = in.offset();
    PageMove m{};
    m.vpage = in.next("move's page");
    m.to = in.next("move's node");
    const uint64_t from = in.next("move's source");
    const uint8_t kind = in.byte("move's kind");
    if (m.to >= c.nodes.size() || from > c.nodes.size() || kind > 1)
      trace::fail_at(path, at, "move to or from an unknown node, or of an unknown kind");
    m.kind = kind ? MoveKind::Victim : MoveKind::Candidate;
    c.moves.push_back(m);
    c.from.push_back(from == 0 ? Checkpoint::kUnknownNode : from - 1);
  }
  const uint64_t at = in.offset();
  const uint64_t tlbs = in.count("TLB thread count", 6);
  if (tlbs != 0 && tlbs != c.ops.size())
    trace::fail_at(path, at,
                   "TLBs of " + std::to_string(tlbs) + " threads, not of all " + std::to_string(c.ops.size()));
  c.tlbs.resize(tlbs);
  for (Checkpoint::ThreadTlbs& t : c.tlbs) {
    const uint64_t geometry_at = in.offset();
    for (unsigned* v : {&t.dtlb_entries, &t.dtlb_ways, &t.stlb_entries, &t.stlb_ways}) {
      const uint64_t x = in.next("TLB geometry");
      if (x > (uint64_t{1} << 24))
        trace::fail_at(path, geometry_at, "a TLB of " + std::to_string(x) + " entries or ways");
      *v = static_cast<unsigned>(x);
    }
    for (auto [level, entries] : {std::pair{&t.dtlb, t.dtlb_entries}, std::pair{&t.stlb, t.stlb_entries}}) {
      const uint64_t count_at = in.offset();
      const uint64_t n = in.count("TLB entry count", 1);
      if (n > entries)
        trace::fail_at(path, count_at, std::to_string(n) + " TLB entries in a TLB of " + std::to_string(entries));
      level->reserve(n);
      for (uint64_t i = 0; i < n; ++i) level->push_back(in.next("TLB entry"));
    }
    const uint64_t counts_at = in.offset();
    const uint64_t n = in.count("annex count count", 1);
    if (n != 0 && n != (c.annex_stlb ? t.stlb : t.dtlb).size())
      trace::fail_at(path, counts_at,
                     std::to_string(n) + " annex counts for " +
                         std::to_string((c.annex_stlb ? t.stlb : t.dtlb).size()) + " annexed entries");
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t count = in.next("annex count");
      if (count > 0xffff) trace::fail_at(path, in.offset(), "an annex count above 16 bits");
      t.counts.push_back(static_cast<uint32_t>(count));
    }
  }
  c.caches = read_caches(in, path);
  if (const uint64_t root = in.next("page tables' root"); root != 0) {
    c.page_tables.root = root - 1;
    const uint64_t n = in.count("page table count", 2);
    uint64_t key = 0;
    for (uint64_t i = 0; i < n; ++i) {
      key += in.next("page table's key");
      c.page_tables.tables.emplace_back(key, in.next("page table's address"));
    }
  }
  const uint64_t entries = in.count("metadata entry count", 2);
  uint64_t region = 0;
  for (uint64_t i = 0; i < entries; ++i) {
    region += in.next("metadata entry's region");
    c.metadata.emplace_back(region, in.next("metadata entry"));
  }
  if (!in.done()) trace::fail_at(path, in.offset(), "bytes after the tracker metadata in the payload");
  return c;
}

}  // namespace starnuma
