// Where a page's first touch puts it, by name: `os.allocation: NAME`. A new policy is one file
// that defines an AllocationPolicy and registers it with STARNUMA_REGISTER_ALLOCATION_POLICY
// (paging/allocation_policies.cpp has the built-in ones; `starnuma list` shows every registered
// one). The page map asks its policy once per new page, off the translation's fast path.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/registry.hpp"

namespace starnuma {

class PageMap;

// What a policy is built from, once per run.
struct AllocationSetup {
  size_t sockets = 0;
  double cpuless_share = 0;  // os.cpuless_share: the share of new pages for the CPU-less nodes
};

class AllocationPolicy {
 public:
  virtual ~AllocationPolicy() = default;
  // The node for `socket`'s next new page; npos when none has room. It may keep state (a cursor):
  // it is asked once per page, in the order pages are first touched.
  virtual size_t node(const PageMap& pages, size_t socket) = 0;
};

struct AllocationPolicyType {
  std::string name;
  std::string description;
  // Places pages on CPU-less nodes, so a platform without one is refused.
  bool needs_cpuless_nodes = false;
  std::function<std::unique_ptr<AllocationPolicy>(const AllocationSetup&)> create;
};

using AllocationPolicyRegistry = Registry<AllocationPolicyType>;

#define STARNUMA_REGISTER_ALLOCATION_POLICY(CLASS, NAME, NEEDS_CPULESS_NODES, DESCRIPTION)            \
  static const bool STARNUMA_CONCAT(starnuma_registered_allocation_policy_, __COUNTER__) =            \
      ::starnuma::AllocationPolicyRegistry::instance().add(::starnuma::AllocationPolicyType{          \
          NAME, DESCRIPTION, NEEDS_CPULESS_NODES,                                                     \
          [](const ::starnuma::AllocationSetup& s) -> std::unique_ptr<::starnuma::AllocationPolicy> { \
            return std::make_unique<CLASS>(s);                                                        \
          }})

// The registered allocation policy `name`; null when none.
const AllocationPolicyType* find_allocation_policy(const std::string& name);
// Every registered policy's name: the built-in ones first, in the order docs/os.md gives them.
std::vector<std::string> allocation_names();

}  // namespace starnuma
