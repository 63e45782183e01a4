// The sampled evaluation's aggregate (`starnuma sample`): the windows' results as one run.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace starnuma::cli {

// A JSON file, or an input error naming it and `what` it should have been.
nlohmann::ordered_json read_json(const std::filesystem::path& path, const std::string& what);

// "3" for the window of boundary 3, "3.2" for unit 2 inside the phase after it; of a window's
// results or of an entry of per_window.
std::string window_name(const nlohmann::ordered_json& w);

// The windows' results (each its stats.json) as one run, as the paper aggregates its checkpoints,
// with the pooled IPC's and AMAT's intervals at `level` over the windows as units.
nlohmann::ordered_json aggregate(const std::vector<nlohmann::ordered_json>& windows, double level);

}  // namespace starnuma::cli
