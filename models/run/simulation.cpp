#include "run/simulation.hpp"

#include <iomanip>
#include <sstream>

#include "run/run_assembly.hpp"

namespace starnuma {

RunResult run_workload(Platform& platform, const RunOptions& options) { return RunAssembly(platform, options).run(); }

nlohmann::ordered_json RunResult::summary_json() const {
  nlohmann::ordered_json j;
  j["platform"] = platform;
  j["workload"] = workload;
  j["placement"] = placement;
  if (sampled_window) {
    j["checkpoint_phase"] = checkpoint_phase;
    j["checkpoint_tlbs_warmed"] = tlbs_warmed;
    j["checkpoint_llc_lines_warmed"] = llc_lines_warmed;
    j["checkpoint_l2_lines_warmed"] = l2_lines_warmed;
    if (time_copies_to) j["checkpoint_time_copies_to"] = time_copies_to;
  }
  if (checkpoint_unit) {
    j["checkpoint_unit"] = checkpoint_unit;
    j["checkpoint_copies_in_flight"] = copies_in_flight;
    j["checkpoint_copies_stayed"] = copies_stayed;
  }
  if (next_boundary_phase)
    j["checkpoint_next_boundary"] = {{"phase", next_boundary_phase},
                                     {"after_clock_instructions", next_boundary_after},
                                     {"crossed", next_boundary_crossed}};
  j["ipc"] = ipc;
  j["detailed_sockets"] = detailed_sockets;
  if (!tracking.empty()) j["tracking"] = tracking;
  nlohmann::ordered_json per_socket = nlohmann::ordered_json::object();
  for (size_t s = 0; s < sockets.size(); ++s) per_socket[sockets[s]] = socket_ipc[s];
  j["ipc_per_socket"] = per_socket;
  if (!programs.empty()) {
    nlohmann::ordered_json per_program = nlohmann::ordered_json::object();
    for (const ProgramResult& p : programs)
      per_program[p.name] = {{"workload", p.workload},         {"place", p.place},
                             {"threads", p.threads},           {"ipc", p.ipc},
                             {"time_ns", p.time_ns},           {"amat_ns", p.amat_ns},
                             {"instructions", p.instructions}, {"llc_misses", p.llc_misses}};
    j["programs"] = per_program;
  }
  j["amat_ns"] = amat_ns;
  j["amat_unloaded_ns"] = amat_unloaded_ns;
  j["amat_contention_ns"] = amat_contention_ns;
  j["memory_latency_percentiles_ns"] = {{"p50", latency_p50_ns}, {"p99", latency_p99_ns}, {"p99.9", latency_p999_ns}};
  nlohmann::ordered_json breakdown_json = nlohmann::ordered_json::object(), counts = nlohmann::ordered_json::object();
  for (size_t k = 0; k < classes(); ++k) {
    breakdown_json[miss_class_name(static_cast<MissClass>(k))] = breakdown[k];
    counts[miss_class_name(static_cast<MissClass>(k))] = accesses[k];
  }
  j["access_breakdown"] = breakdown_json;
  j["memory_accesses"] = counts;
  nlohmann::ordered_json util = nlohmann::ordered_json::object();
  for (const auto& [type, u] : link_utilization) util[type] = u;
  j["link_utilization"] = util;
  j["instructions"] = instructions;
  j["instructions_requested"] = instructions_requested;
  j["threads_ended_early"] = threads_ended_early;
  j["shortfalls"] = shortfalls;
  j["warmup"] = warmup;
  j["measured_over"] = common_span ? "common span" : "per-thread budgets";
  j["llc_misses"] = llc_misses;
  j["page_walks"] = {{"walks", page_walks}, {"mean_ns", walk_ns}, {"llc_misses", walk_llc_misses}};
  if (!migration.is_null()) {
    nlohmann::ordered_json m = migration;
    m["policy"] = migration_policy;
    j["migration"] = m;
  }
  if (!dcd.is_null()) j["dynamic_capacity"] = dcd;
  if (stats.contains("initiators")) j["initiators"] = stats["initiators"];
  j["sim_time_ns"] = sim_time_ns;
  j["host_seconds"] = host_seconds;
  if (sampled_window) j["host_workload_shared"] = host_workload_shared;
  if (threads_generated_past_recording) j["threads_generated_past_recording"] = *threads_generated_past_recording;
  return j;
}

nlohmann::ordered_json RunResult::to_json() const {
  nlohmann::ordered_json j = summary_json();
  j["stats"] = stats;
  if (!timeline.is_null()) j["timeline"] = timeline;
  return j;
}

std::string format_summary(const RunResult& r) {
  std::ostringstream os;
  os << std::fixed;
  os << r.workload << " on " << r.platform << " (" << r.placement << " placement)\n\n";
  os << "IPC            " << std::setprecision(3) << r.ipc << " per core\n";
  os << "  per socket  ";
  for (size_t s = 0; s < r.sockets.size(); ++s)
    os << (s % 8 == 0 && s ? "\n              " : "") << " " << r.socket_ipc[s];
  if (!r.programs.empty()) {
    os << "\nprograms       name (place): IPC per core, time, AMAT";
    for (const ProgramResult& p : r.programs)
      os << "\n  " << p.name << " (" << p.place << ", " << p.threads << " threads): " << std::setprecision(3) << p.ipc
         << ", " << std::setprecision(1) << p.time_ns / 1e3 << " us, " << p.amat_ns << " ns";
  }
  os << "\nAMAT           " << std::setprecision(1) << r.amat_ns << " ns = " << r.amat_unloaded_ns << " unloaded + "
     << r.amat_contention_ns << " contention\n";
  os << "  percentiles  p50 " << r.latency_p50_ns << " ns, p99 " << r.latency_p99_ns << " ns, p99.9 "
     << r.latency_p999_ns << " ns\n";
  os << "accesses      ";
  for (size_t k = 0; k < r.classes(); ++k)
    os << " " << miss_class_name(static_cast<MissClass>(k)) << " " << std::setprecision(1) << 100 * r.breakdown[k]
       << " %";
  if (r.coherence) {
    const nlohmann::json& c = r.stats["coherence"];
    os << "\ntransfers      3-hop " << c["bt_socket"].get<uint64_t>() << " (mean " << std::setprecision(1)
       << c["bt_socket_latency"]["mean"].get<double>() << " ns), via the pool " << c["bt_pool"].get<uint64_t>()
       << " (mean " << c["bt_pool_latency"]["mean"].get<double>() << " ns), " << std::setprecision(2)
       << c["invalidations_per_write"]["mean"].get<double>() << " invalidations per write";
  }
  if (!r.migration.is_null() && r.migration.contains("hinting_faults")) {
    const auto& m = r.migration;
    os << "\nmigration      " << m["pages_moved"].get<uint64_t>() << " pages (" << r.migration_policy
       << "): " << m["to_cxl"].get<uint64_t>() << " to the CXL node, " << m["from_cxl"].get<uint64_t>() << " from it; "
       << m["hinting_faults"].get<uint64_t>() << " hinting faults (" << m["shared_faults"].get<uint64_t>()
       << " shared, " << m["local_faults"].get<uint64_t>() << " local), " << m["pages_unmapped"].get<uint64_t>()
       << " pages unmapped in " << m["scans"].get<uint64_t>() << " scans";
  } else if (!r.migration.is_null()) {
    const auto& m = r.migration;
    os << "\nmigration      " << m["pages_moved"].get<uint64_t>() << " pages in " << m["phases"].get<uint64_t>()
       << " phases (" << r.migration_policy << "): " << m["to_pool"].get<uint64_t>() << " to the pool, "
       << m["from_pool"].get<uint64_t>() << " from it, " << m["socket_to_socket"].get<uint64_t>()
       << " socket to socket; " << m["shootdowns_sent"].get<uint64_t>() << " shootdowns";
  }
  if (!r.dcd.is_null())
    for (const auto& [device, d] : r.dcd.items())
      for (const auto& e : d["events"]) {
        os << "\ncapacity       " << device << ": " << e["event"].get<std::string>() << ": "
           << e["status"].get<std::string>();
        if (e.contains("pages_moved"))
          os << ", " << e["pages_moved"].get<uint64_t>() << " of " << e["pages_in_extent"].get<uint64_t>()
             << " pages moved out";
        if (e.contains("duration_ns") && e["duration_ns"].get<double>() > 0)
          os << " in " << std::setprecision(1) << e["duration_ns"].get<double>() / 1e3 << " us";
      }
  if (r.walk_ns > 0)
    os << "\npage walks     " << r.page_walks << " (mean " << std::setprecision(1) << r.walk_ns << " ns), "
       << r.walk_llc_misses << " entry reads from memory";
  if (r.tracking == "idle") {
    os << "\ntracking       idle: no migration decides by it (tracking.active: always runs it anyway)";
  } else if (r.tracking == "on") {
    uint64_t flushes = 0, requests = 0, hits = 0, stall = 0;
    for (const auto& [name, node] : r.stats["nodes"].items()) {
      if (!node.contains("tracking")) continue;
      const nlohmann::json& t = node["tracking"];
      flushes += t["flushes"].get<uint64_t>();
      requests += t["tracker_reads"].get<uint64_t>() + t["tracker_writes"].get<uint64_t>();
      hits += t["metadata_llc_hits"].get<uint64_t>() + t["metadata_cache_hits"].get<uint64_t>();
      stall += t["core_stall_cycles"].get<uint64_t>();
    }
    os << "\ntracking       " << flushes << " flushes, " << requests << " metadata requests (" << std::setprecision(1)
       << (requests ? 100.0 * static_cast<double>(hits) / static_cast<double>(requests) : 0.0) << " % cached), "
       << stall << " core cycles held by full tracker queues";
  }
  if (r.stats.contains("initiators"))
    for (const auto& [name, i] : r.stats["initiators"].items())
      os << "\ninitiator " << name << "  " << i["transactions"].get<uint64_t>() << " transactions ("
         << i["reads"].get<uint64_t>() << " reads), " << std::setprecision(2) << i["bandwidth"].get<double>()
         << " GB/s, latency " << std::setprecision(1) << i["latency"]["mean"].get<double>() << " ns mean, "
         << i["latency"]["max"].get<double>() << " max";
  os << "\nlink busy     ";
  for (const auto& [type, u] : r.link_utilization) os << " " << type << " " << std::setprecision(1) << 100 * u << " %";
  os << "\n\n"
     << r.instructions << " instructions, " << r.llc_misses << " LLC misses, " << std::setprecision(1)
     << r.sim_time_ns / 1e3 << " us simulated in " << std::setprecision(2) << r.host_seconds << " s ("
     << (r.host_seconds > 0 ? r.instructions / r.host_seconds / 1e6 : 0) << " MIPS)";
  if (r.warmup) os << " after a warm-up of " << r.warmup << " instructions per thread";
  if (r.common_span) os << ", measured over a common span";
  os << "\n";
  for (const std::string& s : r.shortfalls) os << "\nWARNING: " << s << "\n";
  return os.str();
}

}  // namespace starnuma
