// The subcommands of the `starnuma` command-line tool. Each returns the process exit code;
// errors propagate as sc_reports and are mapped to exit codes by main.cpp.
#pragma once

#include <string>
#include <vector>

namespace starnuma::cli {

struct PlatformArgs {
  std::string platform;           // path of the platform YAML file
  std::vector<std::string> sets;  // "key.path=value" overrides
};

int list(bool json, bool markdown);
int check(const PlatformArgs& args);
int describe(const PlatformArgs& args, bool json);

}  // namespace starnuma::cli
