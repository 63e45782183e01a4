#include "run/profile.hpp"

#include <algorithm>
#include <array>
#include <iomanip>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "cache/cache_array.hpp"
#include "common/diagnostics.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {

namespace {
constexpr unsigned kProfilePageShift = 12, kProfileLineShift = 6;
constexpr size_t kProfileOpsPerTurn = 64;  // operations a thread runs before the next thread's turn

struct PageRecord {
  uint64_t sharers = 0;  // bit per socket
  uint64_t accesses = 0;
  bool written = false;
};
}  // namespace

std::vector<uint64_t> for_each_llc_miss(const Workload& workload, const std::vector<unsigned>& socket_of,
                                        const std::vector<uint64_t>& llc_lines, uint64_t instructions,
                                        const std::function<void(uint64_t, unsigned, bool)>& miss) {
  const unsigned threads = static_cast<unsigned>(socket_of.size());
  std::vector<std::unique_ptr<ThreadStream>> streams;
  for (unsigned t = 0; t < threads; ++t) streams.push_back(workload.stream(t));
  std::vector<CacheArray> llcs;
  for (uint64_t lines : llc_lines) llcs.emplace_back(std::max<uint64_t>(16, lines / 16 * 16), 16, Replacement::Lru);
  std::vector<uint64_t> retired(threads, 0);
  std::vector<bool> measuring(threads), finished(threads, false);
  for (unsigned t = 0; t < threads; ++t) measuring[t] = !workload.thread_initialises(t);
  std::array<StreamOp, kProfileOpsPerTurn> batch;
  for (unsigned live = threads; live > 0;) {
    for (unsigned t = 0; t < threads; ++t) {
      if (finished[t]) continue;
      const size_t n = retired[t] < instructions ? streams[t]->fill(batch.data(), kProfileOpsPerTurn) : 0;
      if (n == 0) {
        finished[t] = true;
        --live;
        continue;
      }
      const unsigned socket = socket_of[t];
      for (size_t i = 0; i < n; ++i) {
        const StreamOp& op = batch[i];
        if (op.kind == StreamOp::Kind::Barrier) {
          measuring[t] = measuring[t] || op.starts_measurement;
          continue;
        }
        if (!measuring[t]) continue;  // initialisation
        retired[t] += op.instructions + 1;
        const bool store = op.kind == StreamOp::Kind::Store;
        const uint64_t line = op.address >> kProfileLineShift;
        if (llcs[socket].access(line, store)) continue;
        llcs[socket].fill(line, store);
        miss(op.address, socket, store);
      }
    }
  }
  return retired;
}

SharingProfile profile_sharing(const ProfileOptions& o) {
  if (o.sockets == 0 || o.sockets > 64) report_error(msg::kUsage, "--sockets must be 1 to 64");
  const unsigned threads = o.sockets * o.cores_per_socket;
  auto workload = make_workload(o.workload, threads, o.sockets, o.seed);
  std::vector<unsigned> socket_of(threads);
  for (unsigned t = 0; t < threads; ++t) socket_of[t] = t / o.cores_per_socket;
  std::unordered_map<uint64_t, PageRecord> pages;
  const std::vector<uint64_t> measured = for_each_llc_miss(
      *workload, socket_of, std::vector<uint64_t>(o.sockets, o.llc_bytes_per_core * o.cores_per_socket / 64),
      o.instructions, [&](uint64_t address, unsigned socket, bool store) {
        PageRecord& p = pages[address >> kProfilePageShift];
        p.sharers |= uint64_t{1} << socket;
        ++p.accesses;
        p.written = p.written || store;
      });

  SharingProfile r;
  r.sockets = o.sockets;
  const auto short_of = [&](uint64_t n) { return n < o.instructions; };
  if (const auto k = std::count_if(measured.begin(), measured.end(), short_of))
    r.shortfalls.push_back(
        std::to_string(k) + " of the " + std::to_string(threads) + " threads' streams ended before " +
        std::to_string(o.instructions) +
        " instructions (the fewest measured: " + std::to_string(*std::min_element(measured.begin(), measured.end())) +
        "): the profile covers less than asked; give a longer workload or fewer --instructions");
  std::map<unsigned, uint64_t> page_count, access_count;
  uint64_t ro_pages = 0, ro_accesses = 0;
  for (const auto& [page, rec] : pages) {
    const unsigned k = static_cast<unsigned>(__builtin_popcountll(rec.sharers));
    ++page_count[k];
    access_count[k] += rec.accesses;
    ++r.pages;
    r.accesses += rec.accesses;
    if (!rec.written) {
      ++ro_pages;
      ro_accesses += rec.accesses;
    }
  }
  for (unsigned k = 1; k <= o.sockets; ++k) {
    r.pages_by_sharers[k] = r.pages ? static_cast<double>(page_count[k]) / static_cast<double>(r.pages) : 0;
    r.accesses_by_sharers[k] = r.accesses ? static_cast<double>(access_count[k]) / static_cast<double>(r.accesses) : 0;
  }
  r.read_only_pages = r.pages ? static_cast<double>(ro_pages) / static_cast<double>(r.pages) : 0;
  r.read_only_accesses = r.accesses ? static_cast<double>(ro_accesses) / static_cast<double>(r.accesses) : 0;
  return r;
}

nlohmann::ordered_json SharingProfile::to_json() const {
  nlohmann::ordered_json j;
  j["sockets"] = sockets;
  j["pages"] = pages;
  j["accesses"] = accesses;
  nlohmann::ordered_json p = nlohmann::ordered_json::object(), a = nlohmann::ordered_json::object();
  for (const auto& [k, v] : pages_by_sharers) p[std::to_string(k)] = v;
  for (const auto& [k, v] : accesses_by_sharers) a[std::to_string(k)] = v;
  j["pages_by_sharers"] = p;
  j["accesses_by_sharers"] = a;
  j["read_only_pages"] = read_only_pages;
  j["read_only_accesses"] = read_only_accesses;
  j["shortfalls"] = shortfalls;
  return j;
}

std::string format_profile(const SharingProfile& p) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(1);
  os << p.pages << " pages, " << p.accesses << " memory accesses (LLC misses)\n\n";
  os << "sharers   % pages   % accesses\n";
  double over8_pages = 0, over8_accesses = 0;
  for (const auto& [k, v] : p.pages_by_sharers) {
    os << std::setw(7) << k << std::setw(10) << 100 * v << std::setw(13) << 100 * p.accesses_by_sharers.at(k) << '\n';
    if (k > 8) {
      over8_pages += v;
      over8_accesses += p.accesses_by_sharers.at(k);
    }
  }
  os << "\npages with more than 8 sharers: " << 100 * over8_pages << " % of pages, " << 100 * over8_accesses
     << " % of accesses\nread-only pages: " << 100 * p.read_only_pages << " % of pages, " << 100 * p.read_only_accesses
     << " % of accesses\n";
  for (const std::string& s : p.shortfalls) os << "\nWARNING: " << s << "\n";
  return os.str();
}

}  // namespace starnuma
