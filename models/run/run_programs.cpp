#include "run/run_programs.hpp"

#include <algorithm>

#include "common/diagnostics.hpp"
#include "socket/socket.hpp"
#include "stimulus/program_mix.hpp"
#include "stimulus/trace/artifact.hpp"
#include "stimulus/trace/trace_input.hpp"
#include "stimulus/trace/trace_reader.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {
namespace {

[[noreturn]] void fail(const ProgramSpec& p, const std::string& message) {
  throw_config_error({p.where, p.place.empty() ? p.name : "@" + p.place, "program '" + p.name + "': " + message});
}

// The cores `p` may use, in order: each of its sockets' cores (or its core range of each).
std::vector<ThreadPlace> cores_of(const ProgramSpec& p, const Fabric& fabric) {
  std::vector<ThreadPlace> cores;
  const size_t sockets = fabric.requesters().size();
  for (unsigned s : p.sockets) {
    if (s >= sockets)
      fail(p, "socket " + std::to_string(s) + ": the platform has " + std::to_string(sockets) + " sockets (0 to " +
                  std::to_string(sockets - 1) + ")");
    const Socket& sock = *fabric.requesters()[s];
    unsigned first = 0, last = sock.cores() ? sock.cores() - 1 : 0;
    if (p.cores) {
      if (p.cores->second >= sock.cores())
        fail(p, "core " + std::to_string(p.cores->second) + ": " + sock.basename() + " has " +
                    std::to_string(sock.cores()) + " cores");
      first = p.cores->first;
      last = p.cores->second;
    }
    for (unsigned c = first; c < sock.cores() && c <= last; ++c) cores.push_back({s, sock.core_list()[c].get()});
  }
  if (cores.empty()) fail(p, "its sockets have no cores");
  return cores;
}

}  // namespace

RunStimulus make_mix_stimulus(const std::string& text, const Fabric& fabric, uint64_t seed, uint64_t instructions) {
  const std::vector<ProgramSpec> specs = parse_program_mix(text);
  RunStimulus r;
  r.mix = true;
  std::vector<ProgramMix::Program> programs;
  std::vector<std::pair<const Core*, std::string>> taken;
  for (size_t i = 0; i < specs.size(); ++i) {
    const ProgramSpec& p = specs[i];
    std::vector<ThreadPlace> cores = cores_of(p, fabric);
    unsigned threads = p.threads ? p.threads : static_cast<unsigned>(cores.size());
    std::unique_ptr<Workload> w;
    std::string description = p.workload;
    // Each program draws its own random numbers: two copies of one workload do not run in lockstep.
    const uint64_t program_seed = i == 0 ? seed : thread_seed(seed, 0x10000u + static_cast<unsigned>(i));
    if (!p.trace.empty()) {
      // A trace program runs one thread per ChampSim trace unless told otherwise; a starnuma trace
      // holds its own thread count.
      const bool own_format = trace::detect_trace_kind(p.trace.front()) == trace::TraceKind::Starnuma;
      if (!p.threads && !own_format) threads = static_cast<unsigned>(std::min(cores.size(), p.trace.size()));
      if (own_format && !p.threads)
        threads = static_cast<unsigned>(trace::TraceFile::open(p.trace.front())->header().threads);
      // A program is one process: its ChampSim traces are its threads, in one address space.
      trace::TraceInputOptions options;
      if (!own_format) options.space = trace::TraceSpace::Shared;
      trace::TraceInput input = trace::open_trace_input(p.trace, threads, options);
      w = std::move(input.workload);
      description = input.description;
    }
    if (threads > cores.size())
      fail(p, std::to_string(threads) + " threads on " + std::to_string(cores.size()) + " cores");
    if (!w) w = make_workload(p.workload, threads, static_cast<unsigned>(p.sockets.size()), program_seed);
    RunProgram rp;
    rp.name = p.name;
    rp.description = description;
    rp.place = p.place;
    rp.first_thread = static_cast<unsigned>(r.threads.size());
    rp.threads = threads;
    rp.instructions = p.instructions ? p.instructions : instructions;
    for (unsigned t = 0; t < threads; ++t) {
      const ThreadPlace& c = cores[t];
      for (const auto& [core, owner] : taken)
        if (core == c.core) fail(p, "core " + c.core->path() + " is already program '" + owner + "''s");
      taken.emplace_back(c.core, p.name);
      r.threads.push_back(c);
      if (std::find(rp.sockets.begin(), rp.sockets.end(), c.socket) == rp.sockets.end()) rp.sockets.push_back(c.socket);
    }
    r.programs.push_back(std::move(rp));
    programs.push_back({std::move(w), p.name});
  }
  r.workload = std::make_unique<ProgramMix>(std::move(programs), virtual_address_limit(fabric).bytes);
  return r;
}

RunStimulus single_program(std::unique_ptr<Workload> workload, std::vector<ThreadPlace> threads,
                           const std::string& description, uint64_t instructions) {
  RunStimulus r;
  r.workload = std::move(workload);
  RunProgram p;
  p.name = p.description = description;
  p.place = "all";
  p.threads = static_cast<unsigned>(threads.size());
  p.instructions = instructions;
  for (const ThreadPlace& t : threads)
    if (std::find(p.sockets.begin(), p.sockets.end(), t.socket) == p.sockets.end()) p.sockets.push_back(t.socket);
  r.programs.push_back(std::move(p));
  r.threads = std::move(threads);
  return r;
}

uint64_t initial_placement_pages(const std::string& file) {
  uint64_t n = 0;
  trace::read_page_owners(file, [&](uint64_t, uint64_t, uint64_t) { ++n; });
  return n;
}

void place_initial(PageMap& pages, const std::string& file, const RunStimulus& stimulus, const Fabric& fabric,
                   size_t pool) {
  static_assert(kRunPageSize == trace::kArtifactPageBytes, "the artifact's pages are starnuma's");
  const std::vector<size_t> socket_node = socket_nodes(fabric);
  const uint64_t listed = initial_placement_pages(file);
  trace::read_page_owners(file, [&](uint64_t line, uint64_t page, uint64_t owner) {
    const std::string at = file + ": line " + std::to_string(line) + ": ";
    size_t node = pool;
    if (owner == trace::kArtifactPoolOwner) {
      if (pool == static_cast<size_t>(-1))
        report_error(msg::kInput, at + "owner 100 is the pool (the artifact's CXO); this platform has none (a "
                                       "baseline's pages are in the pagemaps without _CI)");
    } else if (owner < socket_node.size()) {
      node = socket_node[owner];
    } else {
      report_error(msg::kInput, at + "owner " + std::to_string(owner) + ": the platform has sockets 0 to " +
                                    std::to_string(socket_node.size() - 1) + " (and 100 for the pool)");
    }
    if (page >= (uint64_t{1} << 47) / kRunPageSize)
      report_error(msg::kInput, at + "page " + std::to_string(page) + " is beyond 2^47 bytes (x86-64 user space)");
    uint64_t address = page * kRunPageSize;
    if (stimulus.folded_space) address = mix_address(address, 0, 1, *stimulus.folded_space);
    const uint64_t vpage = address / kRunPageSize;
    if (pages.placed(vpage)) report_error(msg::kInput, at + "page " + std::to_string(page) + " is listed twice");
    if (!pages.place(vpage, node))
      report_error(msg::kInput, at + pages.nodes()[node].name + " is full (" + std::to_string(pages.pages_on(node)) +
                                    " pages): the file places more there than it holds" +
                                    (node == pool ? " (the pool holds --pool-fraction of the " +
                                                        std::to_string(listed) + " pages the file lists)"
                                                  : ""));
  });
}

}  // namespace starnuma
