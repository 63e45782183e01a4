#include "common/interrupt_cleanup.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>

namespace starnuma {

namespace {

constexpr int kFiles = 64, kChildren = 256;
constexpr size_t kPathBytes = 4096;
char files[kFiles][kPathBytes];
std::atomic<bool> file_used[kFiles];
std::atomic<pid_t> children[kChildren];

// Removes what the folder `dir` (an open descriptor) holds, `depth` levels down at most, with
// system calls only (openat, getdents64, unlinkat: what a signal handler may call).
void empty_folder(int dir, int depth) {
  alignas(8) char buf[4096];
  for (;;) {
    const long n = ::syscall(SYS_getdents64, dir, buf, sizeof buf);
    if (n <= 0) return;
    for (long off = 0; off < n;) {
      struct Entry {
        uint64_t ino;
        int64_t off;
        unsigned short reclen;
        unsigned char type;
        char name[1];
      };
      const auto* e = reinterpret_cast<const Entry*>(buf + off);
      off += e->reclen;
      if (e->name[0] == '.' && (e->name[1] == '\0' || (e->name[1] == '.' && e->name[2] == '\0'))) continue;
      if (e->type == DT_DIR) {
        if (depth > 0) {
          const int sub = ::openat(dir, e->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
          if (sub >= 0) {
            empty_folder(sub, depth - 1);
            ::close(sub);
          }
        }
        ::unlinkat(dir, e->name, AT_REMOVEDIR);
      } else {
        ::unlinkat(dir, e->name, 0);
      }
    }
  }
}

void on_signal(int sig) {
  for (int i = 0; i < kChildren; ++i)
    if (const pid_t p = children[i].load(); p > 0) ::kill(p, SIGTERM);
  for (int i = 0; i < kFiles; ++i) {
    if (!file_used[i].load()) continue;
    if (::unlink(files[i]) != 0) {  // a folder: its contents first
      const int dir = ::open(files[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (dir >= 0) {
        empty_folder(dir, 4);
        ::close(dir);
        ::rmdir(files[i]);
      }
    }
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

void install_interrupt_cleanup() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &sa, nullptr);
}

TemporaryFileGuard::TemporaryFileGuard(const std::string& path) : slot_(-1) {
  if (path.size() >= kPathBytes) return;
  // Guards are made and released by the main thread only; the slot is filled, then published
  // (the handler reads published slots only).
  for (int i = 0; i < kFiles; ++i) {
    if (file_used[i].load()) continue;
    std::memcpy(files[i], path.c_str(), path.size() + 1);
    file_used[i].store(true);
    slot_ = i;
    return;
  }
}

TemporaryFileGuard::~TemporaryFileGuard() {
  if (slot_ < 0) return;
  file_used[slot_].store(false);
}

void forget_interrupt_cleanup() {
  for (auto& used : file_used) used.store(false);
  for (auto& child : children) child.store(0);
}

void track_child(pid_t pid) {
  for (int i = 0; i < kChildren; ++i) {
    pid_t none = 0;
    if (children[i].compare_exchange_strong(none, pid)) return;
  }
}

void untrack_child(pid_t pid) {
  for (int i = 0; i < kChildren; ++i) {
    pid_t p = pid;
    if (children[i].compare_exchange_strong(p, 0)) return;
  }
}

}  // namespace starnuma
