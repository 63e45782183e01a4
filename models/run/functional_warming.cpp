// A sampled window's functional warming (docs/sampling.md): the TLBs with their annexes' marks and
// counts and a unit's tracker metadata (--warm-tlbs), the LLCs and coherence directories
// (--warm-llcs), installed from the checkpoint before the cores start. Part of RunAssembly's
// assemble phase (run_assembly.hpp).
#include "run/run_assembly.hpp"

#include <unordered_set>

#include "common/diagnostics.hpp"
#include "common/geometry.hpp"
#include "core/core.hpp"
#include "socket/socket.hpp"

namespace starnuma {

std::string RunAssembly::llcs_mismatch() const {
  const CacheContents& k = checkpoint_->caches;
  if (k.coherent != (coherence_ != nullptr))
    return std::string("the checkpoint's LLCs were ") + (k.coherent ? "" : "not ") +
           "kept coherent and this platform's coherence is " + (coherence_ ? "on" : "off");
  for (size_t s = 0; s < sockets_; ++s) {
    const CacheArray& a = llcs_[s]->array;
    if (a.sets() * a.ways() != k.llcs[s].lines || a.ways() != k.llcs[s].ways)
      return "the checkpoint's LLC of socket " + std::to_string(s) + " (" + std::to_string(k.llcs[s].lines) +
             " lines in " + std::to_string(k.llcs[s].ways) + " ways) is not this platform's";
  }
  if (k.coherent && k.directories.size() != fabric_.homes().size())
    return "the checkpoint's directories are of " + std::to_string(k.directories.size()) +
           " homes, this platform's of " + std::to_string(fabric_.homes().size());
  for (const CacheContents::Directory& d : k.directories) {
    const std::unique_ptr<Directory> ours =
        d.home < fabric_.homes().size() ? coherence_->new_directory(fabric_.homes()[d.home]) : nullptr;
    if (!ours || ours->entries() != d.entries || ours->ways() != d.ways)
      return "the checkpoint's directory of home " + std::to_string(d.home) + " (" + std::to_string(d.entries) +
             " entries in " + std::to_string(d.ways) + " ways) is not this platform's";
  }
  return "";
}

// The directories first, a bounded one in its replacement order; then every LLC, each set's least
// recent line first, each copy checked against its home's directory. The lines of the frames a
// unit's copies in flight vacated are left out: their pages are back at their sources, uncached.
void RunAssembly::warm_llcs() {
  const CacheContents& k = checkpoint_->caches;
  if (k.llcs.size() != sockets_) report_error(msg::kInput, o_.checkpoint + ": LLCs of another number of sockets");
  if (const std::string why = llcs_mismatch(); !why.empty()) {
    llcs_not_warmed_ = why + ": the window's LLCs and directories started empty";
    return;
  }
  const auto corrupt = [this](const std::string& what) {
    report_error(msg::kInput, o_.checkpoint + ": its caches are not a state the protocol can be in (" + what + ")");
  };
  std::unordered_set<uint64_t> vacated(in_flight_.vacated.begin(), in_flight_.vacated.end());
  const uint64_t lines_per_page = pages_->page_size() / kLineBytes;
  const auto left_out = [&](uint64_t line) { return !vacated.empty() && vacated.count(line / lines_per_page) != 0; };
  for (const CacheContents::Directory& d : k.directories)
    for (const CacheContents::Entry& e : d.records)
      if (!left_out(e.block) && !coherence_->warm_entry(d.home, e.block, e.owner, e.sharers))
        corrupt("a set of its directory overflows");
  for (size_t s = 0; s < sockets_; ++s) {
    CacheArray& a = llcs_[s]->array;
    for (uint64_t e : k.llcs[s].entries) {
      const uint64_t line = e >> 2;
      const auto state = static_cast<MesiState>(e & 3);
      if (line >= fabric_.map_end() / kLineBytes) corrupt("a line beyond the physical address map");
      if (left_out(line)) continue;
      if (a.fill(line, state == MesiState::M, 0, coherence_ ? static_cast<unsigned>(state) : 0).valid)
        corrupt("a set of an LLC overflows");
      if (coherence_ && !coherence_->warm_copy(s, line, state)) corrupt("a copy its home's directory does not list");
      ++llc_lines_warmed_;
    }
  }
  warm_l2s(left_out);
}

template <class LeftOut>
void RunAssembly::warm_l2s(const LeftOut& left_out) {
  const std::vector<CacheContents::Llc>& l2s = checkpoint_->caches.l2s;
  if (l2s.empty()) return;  // a pass that kept none
  if (l2s.size() != stimulus_.threads.size())
    report_error(msg::kInput, o_.checkpoint + ": L2s of another number of threads");
  for (size_t t = 0; t < l2s.size(); ++t)
    if (!stimulus_.threads[t].core->caches().l2_is(l2s[t].lines, l2s[t].ways)) {
      l2s_not_warmed_ = "the checkpoint's L2s (thread " + std::to_string(t) + ": " + std::to_string(l2s[t].lines) +
                        " lines in " + std::to_string(l2s[t].ways) +
                        " ways) are not this platform's cores': the window's L2s started empty";
      return;
    }
  std::vector<uint64_t> kept;
  for (size_t t = 0; t < l2s.size(); ++t) {
    CacheHierarchy& caches = stimulus_.threads[t].core->caches();
    if (in_flight_.vacated.empty()) {
      l2_lines_warmed_ += caches.warm_l2(l2s[t].entries);
      continue;
    }
    kept.clear();
    for (const uint64_t e : l2s[t].entries)
      if (!left_out(e >> 2)) kept.push_back(e);
    l2_lines_warmed_ += caches.warm_l2(kept);
  }
}

void RunAssembly::warm_tlbs() {
  const std::vector<Checkpoint::ThreadTlbs>& tlbs = checkpoint_->tlbs;  // plan_stimulus refused none
  for (size_t t = 0; t < tlbs.size(); ++t) {
    const CoreConfig& c = fabric_.requesters()[stimulus_.threads[t].socket]->core_config();
    const Checkpoint::ThreadTlbs& k = tlbs[t];
    if (k.dtlb_entries != c.dtlb.entries() || k.dtlb_ways != c.dtlb.ways() || k.stlb_entries != c.stlb.entries() ||
        k.stlb_ways != c.stlb.ways()) {
      tlbs_not_warmed_ = "the checkpoint's TLBs (thread " + std::to_string(t) + ": DTLB " +
                         std::to_string(k.dtlb_entries) + "x" + std::to_string(k.dtlb_ways) + ", STLB " +
                         std::to_string(k.stlb_entries) + "x" + std::to_string(k.stlb_ways) +
                         ") are not this platform's cores': the window's TLBs started empty";
      return;
    }
  }
  const TlbLevel annexed = checkpoint_->annex_stlb ? TlbLevel::L2 : TlbLevel::L1;
  for (size_t t = 0; t < tlbs.size(); ++t)
    tlbs_warmed_ += stimulus_.threads[t].core->caches().warm_tlbs(tlbs[t].dtlb, tlbs[t].stlb, annexed, tlbs[t].counts);
  // A unit's trackers hold what the annexes flushed since its boundary's scan (the annexes'
  // counts are what they have gathered since).
  if (tracking_ && tracking_->metadata() && !checkpoint_->metadata.empty())
    tracking_->metadata()->restore(checkpoint_->metadata);
}

}  // namespace starnuma
