// The sharing profile of a workload (the StarNUMA paper's Fig. 2): which pages are shared by how
// many sockets, and where the memory accesses go, counted after an LLC filter. A functional pass,
// no timing: the threads' streams are interleaved in small batches (barriers only order the
// batches), each socket's accesses go through an LLC of the given size, and every LLC miss counts
// for its page. Initialisation (before a barrier that starts measurement) is not counted.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace starnuma {

class Workload;

struct ProfileOptions {
  std::string workload = "bfs";
  unsigned sockets = 16;
  unsigned cores_per_socket = 4;
  uint64_t llc_bytes_per_core = 2ull << 20;
  uint64_t instructions = 10000000;  // per thread
  uint64_t seed = 1;
};

struct SharingProfile {
  unsigned sockets = 0;
  uint64_t pages = 0, accesses = 0;
  std::map<unsigned, double> pages_by_sharers;         // sharer count -> fraction of pages
  std::map<unsigned, double> accesses_by_sharers;      // sharer count -> fraction of accesses
  double read_only_pages = 0, read_only_accesses = 0;  // fractions
  // What the profile did less than asked (threads whose streams ended before the instructions).
  std::vector<std::string> shortfalls;
  nlohmann::ordered_json to_json() const;
};

SharingProfile profile_sharing(const ProfileOptions& options);

// The functional pass behind both the sharing profile and the oracle placement: the workload's
// threads run their streams interleaved in small batches (barriers only order the batches), thread
// t's accesses go through the LLC of socket `socket_of[t]` (`llc_lines[s]` lines, 16-way LRU), and
// `miss(address, socket, store)` is called for every LLC miss after initialisation (the barrier
// that starts measurement), up to `instructions` per thread. Returns each thread's instructions
// measured: fewer than `instructions` where its stream ended first.
std::vector<uint64_t> for_each_llc_miss(const Workload& workload, const std::vector<unsigned>& socket_of,
                                        const std::vector<uint64_t>& llc_lines, uint64_t instructions,
                                        const std::function<void(uint64_t address, unsigned socket, bool store)>& miss);
std::string format_profile(const SharingProfile& p);

}  // namespace starnuma
