// What `sample`'s windows could not stand for: each a shortfall on stderr and in the results.
#include "sample_shortfalls.hpp"

#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "run/unit_selection.hpp"

namespace starnuma::cli {

std::string level_text(double level) {
  std::ostringstream text;
  text << std::setprecision(4) << 100 * level;
  return text.str();
}

void report_target_error(nlohmann::ordered_json& result, double target, size_t available) {
  if (target <= 0) return;
  const auto& c = result["confidence"];
  const double got = c.contains("ipc") ? c["ipc"]["relative_half_width"].get<double>() : INFINITY;
  if (got <= target) return;
  std::ostringstream why;
  why << std::fixed << std::setprecision(1) << "the " << level_text(c["level"].get<double>())
      << " % interval of IPC is ";
  if (std::isinf(got)) why << "unknown with one window";
  else why << "+-" << 100 * got << " %";
  why << ", wider than --target-error " << 100 * target << " % with all " << available
      << " windows the checkpoints hold";
  if (!std::isinf(got))
    why << ": about " << units_needed(c["units"].get<size_t>(), got, target)
        << " are needed (a finer checkpoint --unit-every, or more --checkpoints)";
  result["shortfalls"].push_back(why.str());
  std::cerr << "warning: " << why.str() << '\n';
}

void report_unfinished_copies(nlohmann::ordered_json& result, const nlohmann::ordered_json& phases) {
  result["copies_by_next_boundary"] = phases;
  std::ostringstream which;
  uint64_t unfinished = 0;
  for (const auto& p : phases) {
    const auto to_copy = p["pages_to_copy"].get<uint64_t>(), started = p["started_by_next_boundary"].get<uint64_t>();
    if (started >= to_copy) continue;
    which << (unfinished++ ? ", " : "") << "phase " << p["phase"] << ": about " << started << " of " << to_copy;
  }
  if (!unfinished) return;
  const std::string why =
      "at the copy rates the boundaries' windows measured, a continuous run would not start every copy its "
      "phase decided before the next boundary (" +
      which.str() +
      "); the functional pass made them all, so later checkpoints start from a placement a continuous run "
      "does not reach: a longer os.phase_instructions or a lower os.migration_limit";
  result["shortfalls"].push_back(why);
  std::cerr << "warning: " << why << '\n';
}

void report_thread_drift(nlohmann::ordered_json& result, const nlohmann::ordered_json& drift) {
  result["thread_drift"] = drift;
  if (drift.empty() || drift["relative_drift"].get<double>() <= drift["warning_above"].get<double>()) return;
  std::ostringstream why;
  why << std::fixed << std::setprecision(2) << "the threads ran at different rates in the windows (coefficient of "
      << "variation " << drift["rate_cv"].get<double>() << ", the fastest " << drift["fastest_over_mean"].get<double>()
      << "x the mean, the slowest " << drift["slowest_over_mean"].get<double>() << "x";
  if (drift.contains("rate_over_paced_cv"))
    why << "; over the rates the pass's time pace gave them, a coefficient of variation of "
        << drift["rate_over_paced_cv"].get<double>();
  why << ") and ";
  if (drift["instructions_per_barrier"].is_null()) why << "passed no barrier";
  else
    why << "met at a barrier every " << std::setprecision(0) << drift["instructions_per_barrier"].get<double>()
        << " instructions";
  why << std::setprecision(0) << ": by the " << drift["instructions_at_end"].get<double>()
      << " instructions of the mean thread where the windows end, a continuous run's threads would have their "
         "positions spread by about "
      << 100 * drift["relative_drift"].get<double>()
      << " % of that work (coefficient of variation), where the functional pass "
      << (drift.contains("rate_over_paced_cv") ? "paced them otherwise" : "keeps them together")
      << ", so the windows time other work of each thread than a continuous run does";
  // Which pace would have put the threads nearer: the windows' own spread is what equal turns leave.
  if (!drift.contains("rate_over_paced_cv"))
    why << "; checkpoint --pace time lets the pass's threads drift by their misses' latencies (docs/sampling.md, "
           "\"Paced by time\")";
  else if (drift["rate_cv"].get<double>() < drift["rate_over_paced_cv"].get<double>())
    why << "; the windows' rates spread less than their ratio to the pace's, so equal turns (checkpoint --pace "
           "turns) would keep the threads nearer a continuous run's places: its queues below saturation even out what "
           "the pace's clock tells apart (docs/sampling.md, \"Paced by time\")";
  why << " (docs/sampling.md, \"Threads that drift apart\")";
  result["shortfalls"].push_back(why.str());
  std::cerr << "warning: " << why.str() << '\n';
}

void report_lead_mismatch(nlohmann::ordered_json& result, const nlohmann::ordered_json& manifest, uint64_t warmup) {
  const uint64_t lead = manifest.value("unit_lead", warmup);
  if (lead == warmup) return;
  const std::string why = "the units were placed for a warm-up of " + std::to_string(lead) +
                          " instructions (checkpoint --unit-lead) and the windows warm " + std::to_string(warmup) +
                          ", so each measures from " + std::to_string(warmup > lead ? warmup - lead : lead - warmup) +
                          " instructions " + (warmup > lead ? "after" : "before") +
                          " the multiple it stands for: --warmup " + std::to_string(lead) +
                          ", or checkpoints made again with --unit-lead " + std::to_string(warmup);
  result["shortfalls"].push_back(why);
  std::cerr << "warning: " << why << '\n';
}

}  // namespace starnuma::cli
