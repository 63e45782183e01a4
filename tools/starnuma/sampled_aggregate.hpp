// The sampled evaluation's aggregate (`starnuma sample`): the windows' results as one run.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace starnuma::cli {

// A JSON file, or an input error naming it and `what` it should have been.
nlohmann::ordered_json read_json(const std::filesystem::path& path, const std::string& what);

// "3" for the window of boundary 3, "3.2" for unit 2 inside the phase after it; of a window's
// results or of an entry of per_window.
std::string window_name(const nlohmann::ordered_json& w);

// The units over the work whose windows measure a phase's start (docs/sampling.md, "The phases'
// starts, a stratum"): a unit at the clock's c, warmed `warmup` and measuring `instructions`, measures
// the boundary at b when c + warmup <= b < c + warmup + min(instructions, unit_every). `starts`:
// (phase, unit) -> the phase whose start it measures; `in_span`: the boundaries within the units'
// measured span (from the first unit's measurement to one spacing past the last's), so those no
// window measures are in_span - boundaries_measured(). Empty for checkpoints without units over the
// work. Throws nlohmann::json's exceptions on a manifest without the clocks.
struct PhaseStarts {
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> starts;
  uint64_t in_span = 0;
  // The boundaries some unit measures, each once however many do.
  uint64_t boundaries_measured() const {
    std::set<uint64_t> phases;
    for (const auto& [unit, phase] : starts) phases.insert(phase);
    return phases.size();
  }
};
PhaseStarts phase_starts(const nlohmann::ordered_json& manifest, uint64_t warmup, uint64_t instructions);

// The windows' results (each its stats.json) as one run, as the paper aggregates its checkpoints,
// with the pooled IPC's and AMAT's intervals at `level` over the windows as units; its migration
// the execution's, from the checkpoints' manifest (the windows' own copies: windows_copies). When
// the units' windows (`warmup` + `instructions`) leave gaps between the manifest's units over the
// work, the windows measuring a phase's start are a stratum standing for their own stretch and the
// others share the rest of the work (`phase_starts` in the result; docs/sampling.md).
// Throws nlohmann::json's exceptions on a manifest without the phases' moves.
nlohmann::ordered_json aggregate(const std::vector<nlohmann::ordered_json>& windows, double level,
                                 const nlohmann::ordered_json& manifest, uint64_t warmup, uint64_t instructions);

// Each phase boundary's position in a checkpoint folder's manifest: phase, the mean thread's
// instructions there.
std::map<uint64_t, uint64_t> boundary_positions(const nlohmann::ordered_json& manifest);

// A unit whose stretch crosses its next boundary: that boundary's checkpoint (its file, as the
// manifest names it) and the phases' clock's instructions from the unit's checkpoint to it, where
// the functional pass crossed it (run --next-boundary, --next-boundary-after).
struct NextBoundary {
  std::string file;
  uint64_t after = 0;
};
// Per (phase, unit) of the manifest's units, those whose windows, running `stretch` instructions
// of the phases' clock (warm-up and measurement) from their checkpoints, cross the next boundary.
// Throws nlohmann::json's exceptions on a manifest without the clocks (an older starnuma's).
std::map<std::pair<uint64_t, uint64_t>, NextBoundary> next_boundaries(const nlohmann::ordered_json& manifest,
                                                                      uint64_t stretch);

// Whether each phase's copies would finish before the next boundary in a continuous run: for each
// boundary's window that saw copies start, the copies started by the next boundary at the rate it
// measured (copies_started_by; the boundaries' distances from the manifest, the last phase taken
// as long as os.phase_instructions). One entry per such phase: phase, pages_to_copy,
// started_by_next_boundary. The functional pass makes every decided copy at its boundary, so a
// phase that would not finish its copies starts the next ones from a placement a continuous run
// does not reach.
nlohmann::ordered_json copies_by_next_boundary(const std::vector<nlohmann::ordered_json>& windows,
                                               const nlohmann::ordered_json& manifest);

// Each core's [instructions, cycles, barriers, "socketN.coreK"] in a window's statistics tree (its
// `nodes`), socket by socket, in the tree's order: what thread_drift reads from each window's `stats.cores`.
nlohmann::ordered_json core_counts(const nlohmann::ordered_json& stats);

// How far apart a timed run's threads would drift where the functional pass keeps them together
// (docs/sampling.md, "Threads that drift apart"): each thread's rate over the windows in the
// estimate (its instructions over its cycles, summed, from each window's `stats.cores`), their
// coefficient of variation, the fastest and slowest against the mean, the instructions a thread
// retires between barriers, the mean thread's instructions from the start to where the windows end
// (from the manifest), and `relative_drift`, the spread of the threads' positions there as a share
// of that work: the rates' CV, times the share of it a thread runs without meeting the others at a
// barrier, and `warning_above`, kDriftWarning. A pass paced by time (manifest `pace`) ran each thread
// at its clock's rate: then `rate_over_paced_cv` is the CV of the windows' rates over those, and the
// drift is that CV, scaled the same way (`paced_by`: time or turns). An empty object when the windows
// carry no per-core statistics or fewer than two threads ran.
nlohmann::ordered_json thread_drift(const std::vector<nlohmann::ordered_json>& windows,
                                    const nlohmann::ordered_json& manifest);

// Above this relative drift, `sample` warns that its units sample other work than a continuous run.
inline constexpr double kDriftWarning = 0.1;

}  // namespace starnuma::cli
