// starnuma: the command-line front end of the platform model.
// Exit codes: 0 success, 1 the user's error (bad input or usage), 2 an internal error.
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <vector>

#include <systemc>

#include "cli.hpp"
#include "common/diagnostics.hpp"
#include "common/host_memory_limit.hpp"
#include "common/interrupt_cleanup.hpp"
#include "common/units.hpp"
#include "plugin/plugin_api.hpp"
#include "plugin/plugins.hpp"
#include "subprocess.hpp"
#include "source_digest.hpp"  // generated: cmake/StarnumaSourceDigest.cmake

namespace {

using starnuma::cli::Command;

// The subcommands in `starnuma --help`'s order; each file adds its own (cli.hpp).
std::vector<Command> add_commands(CLI::App& app) {
  using namespace starnuma::cli;
  std::vector<Command> commands;
  for (Command (*add)(CLI::App&) : {add_list, add_check, add_describe, add_latency, add_bandwidth, add_memory_curve,
                                    add_mlc, add_calibrate, add_run, add_compare, add_checkpoint, add_sample, add_trace,
                                    add_profile, add_benchmark, add_sweep, add_sweep_task, add_report})
    commands.push_back(add(app));
  return commands;
}

// A misspelt subcommand: CLI11 would only say that one is required. Returns whether it said so.
bool unknown_subcommand(CLI::App& app, int argc, char** argv) {
  if (!app.get_subcommands().empty()) return false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--max-host-memory") ++i;
    if (a.empty() || a[0] == '-') continue;
    std::string names;
    for (const CLI::App* sub : app.get_subcommands({})) names += (names.empty() ? "" : ", ") + sub->get_name();
    std::cerr << "unknown subcommand '" << a << "'; one of: " << names << '\n';
    return true;
  }
  return false;
}

int run(int argc, char** argv) {
  CLI::App app{"starnuma: SystemC/TLM model of large NUMA servers with a CXL memory pool"};
  app.set_version_flag("--version", std::string("starnuma ") + STARNUMA_VERSION + " (plug-in API " +
                                        std::to_string(STARNUMA_PLUGIN_API_VERSION) + ", sources " +
                                        std::string(STARNUMA_SOURCE_DIGEST).substr(0, 12) + ")");
  app.require_subcommand(1);
  std::string max_host_memory;
  app.add_option("--max-host-memory", max_host_memory,
                 "Host memory this command may use (e.g. 8GiB; default 90 % of this host's): configurations that "
                 "need more are refused with the parameter to change, instead of exhausting the host")
      ->type_name("SIZE")
      ->check(starnuma::cli::kNonEmpty);
  const std::vector<Command> commands = add_commands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (unknown_subcommand(app, argc, argv)) return 1;
    int code = app.exit(e);
    return code == 0 ? 0 : 1;
  }
  uint64_t host_limit = 0;
  if (!max_host_memory.empty()) {
    const starnuma::Parsed<starnuma::Size> size = starnuma::parse_size(max_host_memory);
    if (!size || size.value->bytes() < (uint64_t{64} << 20)) {
      std::cerr << "--max-host-memory " << max_host_memory << ": " << (size ? "at least 64MiB" : size.error) << '\n';
      return 1;
    }
    host_limit = size.value->bytes();
  }
  starnuma::set_host_memory_limit(host_limit);
  for (const Command& c : commands)
    if (*c.app) return c.run();
  return 1;
}

// A command, its errors reported as exit codes: the process's own, and a forked window's
// (fork_self).
int command_main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const sc_core::sc_report& r) {
    // An allocation that failed inside a SystemC process reaches us as its report.
    if (std::string(r.get_msg()).find("std::bad_alloc") != std::string::npos) {
      std::cerr << starnuma::host_memory_exhausted_message() << '\n';
      return 1;
    }
    bool user = starnuma::is_user_error(r.get_msg_type());
    const char* process = r.get_process_name();  // null when no SystemC process was running
    const std::string plugin = user || !process ? "" : starnuma::plugin_node_of_process(process);
    if (!plugin.empty()) {  // the plug-in's defect, as plugin_call reports the others
      std::cerr << "error: " << plugin << ": the plug-in's process threw: " << r.get_msg() << '\n';
      return 1;
    }
    std::cerr << (user ? "" : "internal error: ") << r.get_msg() << '\n';
    return user ? 1 : 2;
  } catch (const std::bad_alloc&) {
    std::cerr << starnuma::host_memory_exhausted_message() << '\n';
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << '\n';
    return 2;
  }
}

}  // namespace

int sc_main(int argc, char** argv) {
  starnuma::install_report_handler();
  starnuma::install_interrupt_cleanup();
  starnuma::cli::set_command_entry(&command_main);
  return command_main(argc, argv);
}

// SystemC prints its banner on stderr during start-up unless told not to through the environment,
// which it reads before main() runs: so set the variable and start again once.
int main(int argc, char** argv) {
  if (!std::getenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE")) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    execv("/proc/self/exe", argv);  // returns only on failure: then run with the banner
  }
  return sc_core::sc_elab_and_sim(argc, argv);
}
