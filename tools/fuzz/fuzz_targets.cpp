// libFuzzer targets for starnuma's readers of untrusted input (issue 18; tools/fuzz.sh builds and
// runs them). Each takes arbitrary bytes; the only acceptable outcomes are a result or a
// starnuma/... error report (what the tool turns into exit 1). Anything else (a crash, a sanitizer
// finding, another exception, an internal-error report) is a finding. One binary per target:
// STARNUMA_FUZZ_TARGET selects it at compile time.
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include <systemc>

#include "common/config_node.hpp"
#include "common/diagnostics.hpp"
#include "os/checkpoint.hpp"
#include "stimulus/trace/champsim.hpp"
#include "stimulus/trace/trace_reader.hpp"
#if STARNUMA_FUZZ_TARGET == 5
#include <filesystem>

#include "sweep/sweep_spec.hpp"
#endif

namespace {

// The bytes as a file (the trace and checkpoint readers read files).
std::string as_file(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/starnuma-fuzz-" + std::to_string(getpid());
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}

void drain(starnuma::ThreadStream& s, uint64_t max_ops) {
  std::array<starnuma::StreamOp, 256> ops;
  for (uint64_t n = 0; n < max_ops;) {
    const size_t got = s.fill(ops.data(), ops.size());
    if (got == 0) return;
    n += got;
  }
}

void run(const uint8_t* data, size_t size) {
#if STARNUMA_FUZZ_TARGET == 1  // platform and workload files: the YAML layer
  starnuma::load_yaml_string(std::string(reinterpret_cast<const char*>(data), size), "fuzz.yaml");
#elif STARNUMA_FUZZ_TARGET == 2  // starnuma traces
  auto file = starnuma::trace::TraceFile::open(as_file(data, size));
  for (unsigned t = 0; t < file->header().threads && t < 8; ++t) {
    starnuma::trace::TraceStream s(file, t);
    drain(s, file->ops(t));
  }
#elif STARNUMA_FUZZ_TARGET == 3  // ChampSim traces (plain or xz)
  starnuma::trace::ChampSimStream s(as_file(data, size), 0, starnuma::trace::champsim_window_bits(1), false);
  drain(s, 1 << 20);
#elif STARNUMA_FUZZ_TARGET == 4  // sampled runs' checkpoints
  starnuma::read_checkpoint(as_file(data, size));
#elif STARNUMA_FUZZ_TARGET == 5  // sweep files, beside the project's platforms as experiments/ is
  static const std::string path = [] {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("starnuma-fuzz-sweep-" + std::to_string(getpid()));
    fs::create_directories(dir / "experiments");
    std::error_code ignored;
    fs::create_directory_symlink(fs::path(STARNUMA_SOURCE_DIR) / "platforms", dir / "platforms", ignored);
    fs::create_directory_symlink(fs::path(STARNUMA_SOURCE_DIR) / "tests", dir / "tests", ignored);
    return (dir / "experiments" / "fuzz.yaml").string();
  }();
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  const starnuma::cli::SweepSpec spec = starnuma::cli::load_sweep_spec(path);
  for (const starnuma::cli::SweepRun& run : spec.runs) run.commands("runs/" + run.name);
#else
#error "STARNUMA_FUZZ_TARGET must be 1 to 5"
#endif
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    run(data, size);
  } catch (const sc_core::sc_report& r) {
    if (!starnuma::is_user_error(r.get_msg_type())) {
      std::fprintf(stderr, "internal error on fuzzed input: %s\n", r.get_msg());
      std::abort();
    }
  }
  return 0;
}

// SystemC's library defines main() and calls sc_main; libFuzzer brings its own main.
int sc_main(int, char**) { return 0; }
