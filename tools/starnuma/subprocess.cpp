#include "subprocess.hpp"

#include <sys/prctl.h>
#include <sys/wait.h>

#include <csignal>
#include <unistd.h>

#include <cstdio>

#include "common/diagnostics.hpp"
#include "common/interrupt_cleanup.hpp"

namespace starnuma::cli {

pid_t spawn_self(std::vector<std::string> args) {
  const pid_t pid = fork();
  if (pid < 0) report_internal("cannot start a run: fork failed");
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGTERM);  // never outlive the command that started us
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (!std::freopen("/dev/null", "w", stdout)) _exit(2);
    execv("/proc/self/exe", argv.data());
    _exit(2);
  }
  track_child(pid);  // killed with us if we are interrupted
  return pid;
}

int wait_for(pid_t pid) {
  int status = 0;
  const pid_t r = waitpid(pid, &status, 0);
  untrack_child(pid);
  if (r < 0) return 2;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}

}  // namespace starnuma::cli
