// Child processes: runs of `starnuma` itself (SystemC elaborates once per process: compare's two
// runs, a sampled evaluation's windows, a sweep's runs) and the external programs a sweep drives
// (sbatch, squeue).
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace starnuma::cli {

// Starts `/proc/self/exe args...` (args[0] is the program name) with stdout discarded; stderr is
// kept so a failing child explains itself. Returns its pid.
pid_t spawn_self(std::vector<std::string> args);
// The same with stdout written to `out` and stderr appended to `err` (files; empty: inherited).
pid_t spawn_self_to(std::vector<std::string> args, const std::string& out, const std::string& err);
// Forks a child that runs the command `args` (args[0] is the program name) in this process's image
// instead of starting the program afresh, so it inherits what this process built (a kept workload:
// stimulus/workload_registry.hpp); stdout discarded, stderr kept. This process must not have
// elaborated SystemC. Returns its pid.
pid_t fork_self(std::vector<std::string> args);
// What fork_self's child runs: main's command dispatch (set by main).
void set_command_entry(int (*entry)(int argc, char** argv));
// Waits for `pid`; its exit code (2 if it died of a signal).
int wait_for(pid_t pid);
// Waits for any child; returns its pid and sets `exit_code` (2 if it died of a signal).
pid_t wait_any(int& exit_code);

// Runs a program found on PATH to completion, capturing its stdout and stderr. Returns its exit
// code, 127 when it cannot be started.
int run_program(const std::vector<std::string>& argv, std::string& out, std::string& err);

}  // namespace starnuma::cli
