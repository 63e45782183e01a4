// SystemC elaborates once per process: a test that needs two elaborations (the same run two ways)
// does one of them in a child process, which hands back its results as text.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <exception>
#include <functional>
#include <string>

namespace starnuma::testing {

// Runs `body` in a forked child and returns what it returned ("ERROR: ..." if it threw).
inline std::string in_child(const std::function<std::string()>& body) {
  int fd[2];
  if (pipe(fd) != 0) return "pipe failed";
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    std::string out;
    try {
      out = body();
    } catch (const std::exception& e) {
      out = std::string("ERROR: ") + e.what();
    }
    for (size_t done = 0; done < out.size();) {
      const ssize_t n = write(fd[1], out.data() + done, out.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    _exit(0);
  }
  close(fd[1]);
  std::string text;
  char buf[65536];
  for (ssize_t n; (n = read(fd[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<size_t>(n));
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return text;
}

}  // namespace starnuma::testing
