// Random traffic into DRAMsim3 (built against a checkout of it, experiments/dramsim3/run.sh) at a
// chosen offered load and write fraction; prints delivered GB/s and mean read latency (ns, from the
// transaction's acceptance). An offered load above 1 saturates the controller.
//
//   harness INI WRITE_FRACTION LOAD [CYCLES [OUT_DIR]]
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <random>
#include <unordered_map>
#include "memory_system.h"

int main(int argc, char** argv) {
  const char* ini = argv[1];
  const char* out_dir = argc > 5 ? argv[5] : ".";
  const double writes = atof(argv[2]);
  const double load = atof(argv[3]);  // fraction of the peak, in requests offered per cycle
  const long cycles = argc > 4 ? atol(argv[4]) : 2000000;
  std::unordered_map<uint64_t, std::deque<long>> issued;
  long now = 0, reads_done = 0, writes_done = 0;
  double read_latency = 0;
  dramsim3::MemorySystem mem(
      ini, out_dir,
      [&](uint64_t a) {
        auto& q = issued[a];
        read_latency += now - q.front();
        q.pop_front();
        ++reads_done;
      },
      [&](uint64_t) { ++writes_done; });
  const double tck = mem.GetTCK();
  // Peak: one 64-byte burst per BL/2 cycles per subchannel, two subchannels.
  const double peak_per_cycle = 2.0 / 8.0;
  std::mt19937_64 gen(1);
  std::uniform_real_distribution<double> u(0, 1);
  const uint64_t space = 32ull << 30;
  double credit = 0;
  bool pending = false;
  uint64_t addr = 0;
  bool is_write = false;
  for (now = 0; now < cycles; ++now) {
    credit += load * peak_per_cycle;
    while (credit >= 1) {
      if (!pending) {
        addr = (gen() % (space / 64)) * 64;
        is_write = u(gen) < writes;
        pending = true;
      }
      if (!mem.WillAcceptTransaction(addr, is_write)) break;
      mem.AddTransaction(addr, is_write);
      if (!is_write) issued[addr].push_back(now);
      pending = false;
      credit -= 1;
    }
    if (credit > 64) credit = 64;  // open loop, but a bounded backlog at the source
    mem.ClockTick();
  }
  const double seconds = cycles * tck * 1e-9;
  std::printf("writes %.3f load %.2f: %.2f GB/s (reads %.2f), mean read latency %.1f ns\n", writes, load,
              (reads_done + writes_done) * 64.0 / seconds / 1e9, reads_done * 64.0 / seconds / 1e9,
              reads_done ? read_latency / reads_done * tck : 0.0);
}
