#include "commands.hpp"

#include <iostream>

#include "platform/describe.hpp"
#include "platform/platform.hpp"

namespace starnuma::cli {

int list(bool json, bool markdown) {
  if (json)
    std::cout << catalog_json().dump(2) << '\n';
  else if (markdown)
    std::cout << catalog_markdown();
  else
    std::cout << catalog_text();
  return 0;
}

int check(const PlatformArgs& args) {
  auto platform = Platform::build(args.platform, args.sets);
  std::cout << args.platform << ": ok (" << platform->nodes().size() << " nodes, " << platform->links().size()
            << " links)\n";
  return 0;
}

int describe(const PlatformArgs& args, bool json) {
  auto platform = Platform::build(args.platform, args.sets);
  if (json)
    std::cout << describe_json(*platform).dump(2) << '\n';
  else
    std::cout << describe_text(*platform);
  return 0;
}

}  // namespace starnuma::cli
