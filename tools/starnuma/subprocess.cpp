#include "subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include <csignal>
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "common/diagnostics.hpp"
#include "common/interrupt_cleanup.hpp"

namespace starnuma::cli {
namespace {

// In the child: `fd` becomes `path` (truncated or appended), or the child exits.
void redirect(int fd, const std::string& path, int flags) {
  if (path.empty()) return;
  const int f = open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0644);
  if (f < 0 || dup2(f, fd) < 0) _exit(2);
}

pid_t start_self(std::vector<std::string> args, const std::string& out, const std::string& err, bool discard_out) {
  const pid_t pid = fork();
  if (pid < 0) report_internal("cannot start a run: fork failed");
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGTERM);  // never outlive the command that started us
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    redirect(STDOUT_FILENO, discard_out ? "/dev/null" : out, O_TRUNC);
    redirect(STDERR_FILENO, err, O_APPEND);
    execv("/proc/self/exe", argv.data());
    _exit(2);
  }
  track_child(pid);  // killed with us if we are interrupted
  return pid;
}

int (*command_entry)(int, char**) = nullptr;

int exit_code_of(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 2; }

}  // namespace

pid_t spawn_self(std::vector<std::string> args) { return start_self(std::move(args), "", "", true); }

pid_t spawn_self_to(std::vector<std::string> args, const std::string& out, const std::string& err) {
  return start_self(std::move(args), out, err, false);
}

void set_command_entry(int (*entry)(int, char**)) { command_entry = entry; }

pid_t fork_self(std::vector<std::string> args) {
  if (!command_entry) report_internal("fork_self: no command entry (main sets it)");
  std::cout.flush();  // nothing buffered is written twice
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) report_internal("cannot start a run: fork failed");
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    forget_interrupt_cleanup();
    redirect(STDOUT_FILENO, "/dev/null", O_TRUNC);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int code = command_entry(static_cast<int>(args.size()), argv.data());
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    _exit(code);  // not exit: the parent's static objects and handlers are the parent's
  }
  track_child(pid);
  return pid;
}

int wait_for(pid_t pid) {
  int status = 0;
  const pid_t r = waitpid(pid, &status, 0);
  untrack_child(pid);
  if (r < 0) return 2;
  return exit_code_of(status);
}

pid_t wait_any(int& exit_code) {
  int status = 0;
  const pid_t pid = waitpid(-1, &status, 0);
  if (pid > 0) untrack_child(pid);
  exit_code = pid > 0 ? exit_code_of(status) : 2;
  return pid;
}

int run_program(const std::vector<std::string>& argv, std::string& out, std::string& err) {
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) return 127;
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    return 127;
  }
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (pid < 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    return 127;
  }
  track_child(pid);
  // Both pipes at once, so neither output can fill its pipe and stall the program.
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&out, &err};
  for (int open_pipes = 2; open_pipes > 0;) {
    if (poll(fds, 2, -1) < 0) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[4096];
      const ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, static_cast<size_t>(n));
      } else {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_pipes;
      }
    }
  }
  for (const pollfd& f : fds)
    if (f.fd >= 0) close(f.fd);
  return wait_for(pid);
}

}  // namespace starnuma::cli
