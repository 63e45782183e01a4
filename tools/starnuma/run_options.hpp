// The options `run` and `compare` share, bound to the RunOptions the model takes, and the
// command line's own: where results go, and the raw forms of the options checked together after
// parsing (the waves', the transaction trace's, the timeline's).
#pragma once

#include <string>
#include <vector>

#include "cli.hpp"
#include "run/simulation.hpp"

namespace starnuma::cli {

struct RunRequest {
  RunOptions options;
  std::string out;  // folder of the results (empty: none kept)
  bool json = false;
  std::string timeline;  // INTERVAL, needs `out`
  std::string waves, waves_window;
  std::vector<std::string> waves_filter;
  std::string transactions, trace_addresses, trace_window;
  std::vector<std::string> trace_sockets;
  uint64_t trace_every = 1000;
  // The options that describe the run itself (not its outputs): what `compare` passes on.
  std::vector<const CLI::Option*> run_defining;
};

// The options both `run` and `compare` take; `out_help` says what --out holds.
void add_run_options(CLI::App& cmd, RunRequest& r, const std::string& out_help);
// `run`'s own: progress, timeline, waves, transaction trace, tracker dump, checkpoint.
void add_run_outputs(CLI::App& cmd, RunRequest& r);
// After parsing: which of seed, instructions and workload were given, and the options that only
// mean something with another (usage errors naming both).
void finish_run_options(const CLI::App& cmd, RunRequest& r);
// The run-defining options as given, for a `starnuma run` of the same run.
std::vector<std::string> run_defining_arguments(const RunRequest& r);

}  // namespace starnuma::cli
