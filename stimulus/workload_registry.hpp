// Named workloads: "uniform", "local", ... with typed parameters given as
// `--workload NAME:key=value,key=value` or in a workload file. Parameters are ordinary Params of a
// scope whose map is built from that text, so a bad key or value is reported like a bad YAML key.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "common/param.hpp"
#include "common/registry.hpp"
#include "common/scope.hpp"
#include "stimulus/stream.hpp"

namespace starnuma {

// A workload's parameters and its factory. `threads` and `seed` come from the run.
class WorkloadSpec : public ParamScope {
 public:
  using ParamScope::ParamScope;
  // `sockets`: how many groups the threads form (threads are placed on sockets in order).
  virtual std::unique_ptr<Workload> create(unsigned threads, unsigned sockets, uint64_t seed) const = 0;
};

using WorkloadType = ScopedType<WorkloadSpec>;
using WorkloadRegistry = Registry<WorkloadType>;
#define STARNUMA_REGISTER_WORKLOAD(CLASS, NAME, DESCRIPTION) \
  STARNUMA_REGISTER_SCOPED(::starnuma::WorkloadSpec, CLASS, NAME, DESCRIPTION)

// Parses "name:key=value,..." into a workload; raises a starnuma/config error naming the key.
// The name may be a workload file (ending .yaml or .yml): a map holding `workload: NAME` and the
// parameters; key=value pairs after it override the file's.
std::unique_ptr<Workload> make_workload(const std::string& text, unsigned threads, unsigned sockets, uint64_t seed);
// Keeps a workload built from these arguments for the next make_workload of the same arguments in
// this process, or in each child forked after this call: `starnuma sample` builds the workload
// once and forks a window per checkpoint, so no window builds it again (an unconsumed workload is
// the same object whoever builds it).
void keep_workload(const std::string& text, unsigned threads, unsigned sockets, uint64_t seed,
                   std::unique_ptr<Workload> workload);
// Whether make_workload has returned a kept workload in this process.
bool kept_workload_used();
// Whether a workload's name is a workload file's path (it ends .yaml or .yml).
bool is_yaml_path(const std::string& name);
// The same checks without building the workload (a graph's generation): for checking a sweep.
void check_workload(const std::string& text);

// A per-thread random generator derived from the run's seed (splitmix64 of seed and thread).
uint64_t thread_seed(uint64_t seed, unsigned thread);

}  // namespace starnuma
