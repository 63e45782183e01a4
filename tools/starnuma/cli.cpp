#include "cli.hpp"

#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "common/diagnostics.hpp"
#include "common/units.hpp"

namespace starnuma::cli {

const CLI::Validator kSeed(
    [](std::string& s) -> std::string {
      const bool digits = !s.empty() && s.size() <= 20 && s.find_first_not_of("0123456789") == std::string::npos;
      if (digits && (s.size() < 20 || s <= "18446744073709551615")) return {};
      return "'" + s + "' is not a seed: an integer from 0 to 18446744073709551615";
    },
    "SEED");

// CLI11 said "out of range" for 1e3.
const CLI::Validator kCount(
    [](std::string& s) -> std::string {
      if (s.find_first_of("eE") == std::string::npos) return {};
      const Parsed<int64_t> v = parse_integer(s);
      if (v && *v.value >= 0) s = std::to_string(*v.value);
      return {};  // anything else: the option's own check reports it
    },
    "");

const CLI::Validator kNonEmpty([](std::string& s) -> std::string { return s.empty() ? "an empty value" : ""; }, "");

const CLI::Validator kPositive(
    [](std::string& s) -> std::string {
      const bool digits = !s.empty() && s.size() <= 18 && s.find_first_not_of("0123456789") == std::string::npos;
      return digits && std::stoll(s) > 0 ? std::string() : "'" + s + "' is not a count from 1";
    },
    "N");

const CLI::Validator kFinite(
    [](std::string& s) -> std::string {
      char* end = nullptr;
      const double v = std::strtod(s.c_str(), &end);
      return end != s.c_str() && *end == '\0' && std::isfinite(v) ? std::string()
                                                                  : "'" + s + "' is not a finite number";
    },
    "");

void add_platform_args(CLI::App& cmd, PlatformArgs& args) {
  cmd.add_option("platform", args.platform, "Platform YAML file")->required()->check(CLI::ExistingFile);
  cmd.add_option("--set", args.sets, "Override a parameter: key.path=value (repeatable)")
      ->type_name("K=V")
      ->allow_extra_args(false);
}

}  // namespace starnuma::cli
