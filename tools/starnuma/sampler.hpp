// `starnuma sample`, the sampled evaluation's step C (docs/sampling.md): one timing window per
// checkpoint `starnuma checkpoint` wrote, each its own forked `starnuma run --checkpoint`, several
// at once or as one Slurm job array per stage, then the aggregate (sampled_aggregate.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "cli.hpp"
#include "sweep/slurm_array.hpp"

namespace starnuma::cli {

struct SampleArgs {
  PlatformArgs platform;
  std::string checkpoints;         // folder `checkpoint` wrote
  uint64_t instructions = 100000;  // per thread and window
  uint64_t warmup = 50000;         // the warm-up study: docs/sampling.md, "The windows' warm-up"
  unsigned jobs = 0;               // windows at once; 0: the host's cores
  unsigned detailed_sockets = 0;
  // The units' method by default (docs/sampling.md, "The defaults"): each window over a common span
  // (run --common-span), its TLBs warmed from its checkpoint (run --warm-tlbs), and its LLCs and
  // directories when the checkpoints carry them (run --warm-llcs; warm_llcs_given: asked either way).
  bool common_span = true;
  bool warm_tlbs = true;
  bool warm_llcs = false, warm_llcs_given = false;
  std::string out;
  bool json = false;
  double target_error = 0;         // the IPC interval's relative half-width asked for; 0: none
  double confidence = 0.95;        // the intervals' level
  std::string executor = "local";  // or slurm: each stage's windows one job array
  SlurmOptions slurm;
};
// Runs the windows of sa.checkpoints and prints their aggregate (and writes it under sa.out); the
// command's exit code: a failed window's.
int sample(const SampleArgs& sa);

}  // namespace starnuma::cli
