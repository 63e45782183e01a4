// A vertex of the platform topology: anything a link can attach to.
#pragma once

#include <vector>

#include "common/component.hpp"

namespace starnuma {

class Link;

class FabricNode : public Component {
 public:
  using Component::Component;
  void attach(Link& link) { links_.push_back(&link); }
  const std::vector<Link*>& links() const { return links_; }

 private:
  std::vector<Link*> links_;
};

}  // namespace starnuma
