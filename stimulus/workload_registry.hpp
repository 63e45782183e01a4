// Named workloads: "uniform", "local", ... with typed parameters given as
// `--workload NAME:key=value,key=value`. Parameters are ordinary Params of a scope whose map is
// built from that text, so a bad key or value is reported like a bad YAML key.
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
  virtual std::unique_ptr<Workload> create(unsigned threads, uint64_t seed) const = 0;
};

struct WorkloadType {
  using Factory = std::function<std::unique_ptr<WorkloadSpec>(const ScopeContext&)>;
  std::string name;
  std::string description;
  Factory create;
};
using WorkloadRegistry = Registry<WorkloadType>;

#define STARNUMA_REGISTER_WORKLOAD(CLASS, NAME, DESCRIPTION)                                        \
  static const bool STARNUMA_CONCAT(starnuma_registered_workload_, __LINE__) =                      \
      ::starnuma::WorkloadRegistry::instance().add(::starnuma::WorkloadType{                        \
          NAME, DESCRIPTION, [](const ::starnuma::ScopeContext& c) -> std::unique_ptr<::starnuma::WorkloadSpec> { \
            return std::make_unique<CLASS>(c);                                                      \
          }})

// Parses "name:key=value,..." into a workload; raises a starnuma/config error naming the key.
std::unique_ptr<Workload> make_workload(const std::string& text, unsigned threads, uint64_t seed);

// A per-thread random generator derived from the run's seed (splitmix64 of seed and thread).
uint64_t thread_seed(uint64_t seed, unsigned thread);

}  // namespace starnuma
