#include "run/run_results.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <numeric>
#include <sstream>

#include "socket/socket.hpp"

namespace starnuma {

void collect_cores(RunResult& r, const Fabric& fabric, size_t detailed) {
  double ipc_sum = 0, latency_ps = 0, unloaded_ps = 0, walk_ps = 0;
  size_t detailed_cores = 0;
  std::vector<uint64_t> latency_bins;
  for (size_t s = 0; s < fabric.requesters().size(); ++s) {
    const Socket& sock = *fabric.requesters()[s];
    double sum = 0;
    for (const auto& c : sock.core_list()) {
      sum += c->ipc();
      r.instructions += c->instructions();
      r.instructions_requested += c->budget();
      r.threads_ended_early += c->ended_early();
      r.llc_misses += c->memory().llc_misses.value();
      r.page_walks += c->memory().stlb_misses.value();
      r.walk_llc_misses += c->memory().walk_llc_misses.value();
      walk_ps += static_cast<double>(c->memory().walk_latency_ps.value());
      c->memory().memory_latency.add_to(latency_bins);
      for (size_t k = 0; k < kMissClasses; ++k) {
        r.accesses[k] += c->memory().memory_accesses[k].value();
        latency_ps += static_cast<double>(c->memory().memory_latency_ps[k].value());
        unloaded_ps += static_cast<double>(c->memory().memory_unloaded_ps[k].value());
      }
    }
    if (s < detailed) {
      ipc_sum += sum;
      detailed_cores += sock.cores();
    }
    r.sockets.push_back(sock.basename());
    r.socket_ipc.push_back(sock.cores() ? sum / sock.cores() : 0);
  }
  r.ipc = detailed_cores ? ipc_sum / static_cast<double>(detailed_cores) : 0;
  if (r.page_walks) r.walk_ns = walk_ps / 1e3 / static_cast<double>(r.page_walks);
  const uint64_t total = std::accumulate(r.accesses.begin(), r.accesses.end(), uint64_t{0});
  if (total) {
    for (size_t k = 0; k < kMissClasses; ++k)
      r.breakdown[k] = static_cast<double>(r.accesses[k]) / static_cast<double>(total);
    r.amat_ns = latency_ps / 1e3 / static_cast<double>(total);
    r.amat_unloaded_ns = unloaded_ps / 1e3 / static_cast<double>(total);
    r.amat_contention_ns = r.amat_ns - r.amat_unloaded_ns;
    r.latency_p50_ns = LatencyHistogram::quantile_ps(latency_bins, 0.5) / 1e3;
    r.latency_p99_ns = LatencyHistogram::quantile_ps(latency_bins, 0.99) / 1e3;
    r.latency_p999_ns = LatencyHistogram::quantile_ps(latency_bins, 0.999) / 1e3;
  }
}

void collect_links(RunResult& r, const Platform& platform, Time elapsed) {
  std::vector<std::string> types;
  for (const Link* l : platform.links())
    if (std::find(types.begin(), types.end(), l->type_name()) == types.end()) types.push_back(l->type_name());
  for (const std::string& type : types) {
    double sum = 0;
    int n = 0;
    for (const Link* l : platform.links()) {
      if (l->type_name() != type) continue;
      sum += l->channel_from(*l->node_a()).utilization(elapsed) + l->channel_from(*l->node_b()).utilization(elapsed);
      n += 2;
    }
    r.link_utilization.emplace_back(type, n ? sum / n : 0);
  }
  for (const Link* l : platform.links())
    for (const FabricNode* from : {l->node_a(), l->node_b()})
      if (const double u = l->channel_from(*from).utilization(elapsed); u > 1.0 + 1e-9)
        report_internal(l->path() + " (" + l->direction_name(*from) + ") was busy " + std::to_string(100 * u) +
                        " % of the measured time");
}

std::vector<ProgramResult> program_results(const RunStimulus& stimulus) {
  std::vector<ProgramResult> results;
  for (const RunProgram& prog : stimulus.programs) {
    ProgramResult p;
    p.name = prog.name;
    p.workload = prog.description;
    p.place = prog.place;
    p.threads = prog.threads;
    double ipc = 0, latency_ps = 0;
    uint64_t accesses = 0;
    for (unsigned t = prog.first_thread; t < prog.first_thread + prog.threads; ++t) {
      const Core& c = *stimulus.threads[t].core;
      ipc += c.ipc();
      p.instructions += c.instructions();
      p.llc_misses += c.memory().llc_misses.value();
      p.time_ns = std::max(p.time_ns, static_cast<double>(c.cycles()) * static_cast<double>(c.cycle_fs()) / 1e6);
      for (size_t k = 0; k < kMissClasses; ++k) {
        accesses += c.memory().memory_accesses[k].value();
        latency_ps += static_cast<double>(c.memory().memory_latency_ps[k].value());
      }
    }
    p.ipc = prog.threads ? ipc / prog.threads : 0;
    p.amat_ns = accesses ? latency_ps / 1e3 / static_cast<double>(accesses) : 0;
    results.push_back(std::move(p));
  }
  return results;
}

void note_shortfalls(RunResult& r, const RunOptions& o, const OsSettings& os, const std::vector<ThreadPlace>& threads,
                     bool phased) {
  if (r.threads_ended_early) {
    const double percent = r.instructions_requested ? 100.0 * static_cast<double>(r.instructions) /
                                                          static_cast<double>(r.instructions_requested)
                                                    : 0.0;
    std::ostringstream m;
    m << "the workload ended early: " << r.instructions << " of " << r.instructions_requested
      << " instructions asked for were run (" << std::fixed << std::setprecision(1) << percent << " %), "
      << r.threads_ended_early << " of " << threads.size() << " threads short of their budget";
    if (o.warmup) m << " (after a warm-up of " << o.warmup << " per thread)";
    r.shortfalls.push_back(m.str() + "; give a longer workload or fewer --instructions");
  }
  if (phased && !r.migration.is_null() && r.migration.value("phases", uint64_t{0}) == 0) {
    std::ostringstream m;
    m << "no migration phase completed: nothing was moved. ";
    if (os.phase_period() > Time{})
      m << "A phase starts every " << format_time(os.phase_period()) << " of simulated time";
    else
      m << "A phase starts every " << os.phase_instructions()
        << " instructions of the mean thread (os.phase_instructions, the phases' clock)";
    if (r.migration.contains("clock_instructions"))
      m << ", and the clock reached " << r.migration["clock_instructions"].get<uint64_t>();
    r.shortfalls.push_back(m.str());
  }
  // A sampled window is shorter than its phase by design: the copies it leaves are the phase's
  // later ones, which a continuous run would go on making (each window's per_phase counts them).
  if (phased && !r.migration.is_null() && !r.sampled_window)
    if (const uint64_t dropped = r.migration.value("dropped", uint64_t{0}); dropped > 0) {
      const uint64_t decided = dropped + r.migration.value("pages_moved", uint64_t{0});
      r.shortfalls.push_back(std::to_string(dropped) + " of the " + std::to_string(decided) +
                             " pages the migration phases decided were not moved before the next phase or the "
                             "run's end: the phases are too short for their copies");
    }
  for (const std::string& s : r.shortfalls)
    std::fprintf(stderr, "warning: %s on %s: %s\n", r.workload.c_str(), r.platform.c_str(), s.c_str());
}

}  // namespace starnuma
