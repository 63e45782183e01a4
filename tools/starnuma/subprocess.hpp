// Runs of `starnuma` itself in child processes (SystemC elaborates once per process): compare's two
// runs and a sampled evaluation's windows.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace starnuma::cli {

// Starts `/proc/self/exe args...` (args[0] is the program name) with stdout discarded; stderr is
// kept so a failing child explains itself. Returns its pid.
pid_t spawn_self(std::vector<std::string> args);
// Waits for `pid`; its exit code (2 if it died of a signal).
int wait_for(pid_t pid);

}  // namespace starnuma::cli
