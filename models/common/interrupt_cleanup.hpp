// What an interrupted command leaves behind: temporary files half written and child runs still
// simulating. On SIGINT, SIGTERM or SIGHUP the registered files are removed and the registered
// children killed, then the process dies of the signal as it would have. The handler does only
// what a signal handler may (unlink, kill): the registry is a fixed table, written outside it.
#pragma once

#include <sys/types.h>

#include <string>

namespace starnuma {

// Installs the handler (once; main calls it).
void install_interrupt_cleanup();

// A file (or a folder, with what it holds up to 4 levels down) to remove if interrupted, until
// released. Paths longer than the table's slots, or more than it holds, are simply not cleaned (a
// leftover, never a crash).
class TemporaryFileGuard {
 public:
  explicit TemporaryFileGuard(const std::string& path);
  ~TemporaryFileGuard();
  TemporaryFileGuard(const TemporaryFileGuard&) = delete;
  TemporaryFileGuard& operator=(const TemporaryFileGuard&) = delete;

 private:
  int slot_;
};

// In a child forked to run a command of its own (fork_self): the files and children registered so
// far are the parent's to clean, so the child forgets them.
void forget_interrupt_cleanup();

// A child process to kill if interrupted, from its start until it has been waited for.
void track_child(pid_t pid);
void untrack_child(pid_t pid);

}  // namespace starnuma
