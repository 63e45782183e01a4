// Step B of the StarNUMA paper's sampled evaluation (Fig. 6): a functional pass over the workload
// that makes every migration phase's decisions and writes one checkpoint per phase boundary.
//
// No timing. The threads run their streams interleaved in small batches; barriers hold a thread
// until every running thread has reached them, so at any boundary all threads stand between the
// same two barriers (a timing window can resume them). Pages are placed by first touch through the
// run's page map; every access goes through its socket's LLC (functional, the platform's size,
// ways and replacement; coherent as the timed protocol with warm_llcs); what the OS learns is
// what the hardware would count: each socket's LLC-missing loads per region folded into the tracker metadata as the
// annexes' flushes would (tracker knowledge), or every LLC miss per page (the baseline's perfect knowledge). At each
// boundary (the phases' clock, the mean thread's work, has run another os.phase_instructions, as in a continuous run)
// the same scan and Algorithm 1 as the timed OS thread decide; the checkpoint records the map
// before the moves and the moves; then every move is applied at once (the paper performs all of a
// phase's migrations in this step) and the moved pages leave the LLCs.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace starnuma {

class Platform;

struct FunctionalPassOptions {
  std::string workload = "uniform";
  uint64_t seed = 1;
  bool seed_given = false;
  // Streams from a recorded trace (starnuma trace record) instead of generating them: the pass
  // takes the trace's workload and seed, the manifest names the trace, and sample's windows seek
  // in it instead of producing each stream again up to their checkpoint (docs/sampling.md).
  std::string trace_in;
  unsigned checkpoints = 5;  // phase boundaries 1..N
  // Sampling units: this many unit checkpoints evenly inside the phase after each boundary 1..N
  // (the pass goes on through phase N), each the map and positions there with no decision (0: none).
  unsigned units_per_phase = 0;
  // Or units evenly over the work: one whenever the mean thread has retired another `unit_every`
  // instructions (at its multiples), from boundary 1 to the end of the last boundary's phase, each
  // in the phase of the last boundary before it (0: none; docs/sampling.md, "Units over the work").
  uint64_t unit_every = 0;
  // With unit_every: the units at the multiples plus this many instructions (below unit_every), a
  // systematic sample's start. A study of the windows' warm-up W takes unit_every - W, so that every
  // warm-up's windows measure the same stretches (docs/sampling.md, "The windows' warm-up").
  uint64_t unit_offset = 0;
  // Or, with unit_every: the windows' warm-up W, SMARTS's placement. Each unit's checkpoint W before
  // a multiple of unit_every, where its window starts measuring, and only units whose measured
  // stretch of unit_every instructions ends by the last phase's end: the windows then measure
  // exactly the multiples' stretches, from the first past boundary 1 + W, none after the phases the
  // pass decided (docs/sampling.md, "Units over the work").
  uint64_t unit_lead = 0;
  // With unit_every: each unit at a random point of its stretch of unit_every (drawn from the seed
  // and the stretch), not at its start: stratified random sampling, one unit per stretch, so every
  // instruction of the work is equally likely to be measured and a phase's start, whose cost lasts
  // past any one window, is measured as often as its share (docs/sampling.md, "Units at random
  // points of their stretches").
  bool unit_jitter = false;
  // Functional warming of the LLCs: the pass keeps its LLCs coherent as the platform's protocol
  // does (when on) and every checkpoint records them and the bounded directories.
  bool warm_llcs = false;
  // And, with warm_llcs, each core's L2 in front of its LLC, recorded in every checkpoint
  // (docs/sampling.md, "Functional warming of the L2s"; opt-in: docs/decisions.md).
  bool warm_l2s = false;
  // A timed start: the pass first runs the workload timed for this many instructions per thread
  // (after its initialisation) and places the pages that run placed where it did (docs/sampling.md,
  // "A timed start"); 0: the pass's own first touches.
  uint64_t timed_start = 0;
  // Paced by time: each thread runs while its clock (its instructions at full
  // width, its LLC misses' latencies and the queues it meets) is behind a common horizon, so the
  // threads drift apart as a timed run's do, instead of equal turns that keep them at the mean
  // (docs/sampling.md, "Paced by time").
  bool time_pace = false;
  unsigned pace_quantum_cycles = 100;  // how far the horizon moves at a time (converged: docs/sampling.md)
  std::string out;                     // folder: manifest.json and checkpoint-K.ckpt, replaced whole
  bool moves = false;                  // and moves.csv: every move the boundaries decided (os/move_log.hpp)
  bool progress = false;               // a line per phase on stderr
  // Benchmark: read the streams in the pass's turns and do nothing else (no counting, no decision,
  // nothing written), which times their production as the pass meets it.
  bool streams_only = false;
};

struct FunctionalPassResult {
  uint64_t accesses = 0, llc_misses = 0, instructions = 0;
  double host_seconds = 0;          // the whole command's
  double pass_seconds = 0;          // the pass itself, without building the workload (its speed)
  nlohmann::ordered_json manifest;  // what manifest.json holds
};

// Runs the pass on `platform` (elaborated, not simulated) and writes the checkpoints. Raises a
// starnuma/input error if the workload ends before the last boundary.
FunctionalPassResult run_functional_pass(Platform& platform, const FunctionalPassOptions& options);

}  // namespace starnuma
