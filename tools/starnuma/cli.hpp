// What every subcommand of the command line is built from: the validators of its values, the
// platform arguments, and `Command`, which each subcommand's file returns from its `add_*`: the
// subcommand on the command line, its options bound to the state it runs from.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace starnuma::cli {

// A seed: decimal digits only, at most 2^64 - 1 (CLI11 alone wraps "-1" and clamps larger values).
extern const CLI::Validator kSeed;
// A count, also as 1e6 or 2.5e5 when that is a whole number (CLI11 reads integers in digits only).
extern const CLI::Validator kCount;
// A path or size given as "" is a mistake, not "not given".
extern const CLI::Validator kNonEmpty;
// A count from 1, in digits (CLI11 alone wraps "-1").
extern const CLI::Validator kPositive;
// A real number that is one (CLI11's ranges let NaN through).
extern const CLI::Validator kFinite;

struct PlatformArgs {
  std::string platform;           // path of the platform YAML file
  std::vector<std::string> sets;  // "key.path=value" overrides
};
// The platform file and its --set overrides.
void add_platform_args(CLI::App& cmd, PlatformArgs& args);

// A subcommand on the command line and what runs it once the line is parsed (the exit code).
struct Command {
  CLI::App* app;
  std::function<int()> run;
};

// The subcommands, each defined in the file of its implementation, in `starnuma --help`'s order.
Command add_list(CLI::App& app);          // inspect.cpp
Command add_check(CLI::App& app);         // inspect.cpp
Command add_describe(CLI::App& app);      // inspect.cpp
Command add_latency(CLI::App& app);       // inspect.cpp
Command add_bandwidth(CLI::App& app);     // inspect.cpp
Command add_memory_curve(CLI::App& app);  // memory_curve.cpp
Command add_mlc(CLI::App& app);           // mlc.cpp
Command add_calibrate(CLI::App& app);     // calibrate.cpp
Command add_run(CLI::App& app);           // run_command.cpp
Command add_compare(CLI::App& app);       // compare.cpp
Command add_checkpoint(CLI::App& app);    // sampled.cpp
Command add_sample(CLI::App& app);        // sampled.cpp
Command add_trace(CLI::App& app);         // trace_commands.cpp
Command add_profile(CLI::App& app);       // inspect.cpp
Command add_benchmark(CLI::App& app);     // benchmark.cpp
Command add_sweep(CLI::App& app);         // sweep_commands.cpp
Command add_sweep_task(CLI::App& app);    // sweep_commands.cpp
Command add_report(CLI::App& app);        // sweep_commands.cpp

}  // namespace starnuma::cli
