// What `sample`'s windows could not stand for, said on stderr and in the results' `shortfalls`
// (docs/sampling.md): the target error unmet, copies a phase would not finish, threads drifting
// apart, units placed for another warm-up.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace starnuma::cli {

// An interval's level as a percentage: "95", "99.9".
std::string level_text(double level);

// A target error the windows did not meet, with the windows the interval's spread says it needs.
void report_target_error(nlohmann::ordered_json& result, double target, size_t available);

// Phases whose copies a continuous run would not finish before the next boundary, at the rate
// their windows measured (copies_by_next_boundary's entries), since the pass made them all
// (docs/sampling.md, "Phases too short for their copies").
void report_unfinished_copies(nlohmann::ordered_json& result, const nlohmann::ordered_json& phases);

// Threads whose rates in the windows would carry them apart in a continuous run, where the pass's
// equal turns keep them together (thread_drift's figures; docs/sampling.md, "Threads that drift apart").
void report_thread_drift(nlohmann::ordered_json& result, const nlohmann::ordered_json& drift);

// Units placed for another warm-up than the windows': each measures |warm-up - lead| instructions off
// the multiple its checkpoint was placed for (checkpoint --unit-lead; docs/sampling.md, "Units over
// the work").
void report_lead_mismatch(nlohmann::ordered_json& result, const nlohmann::ordered_json& manifest, uint64_t warmup);

}  // namespace starnuma::cli
