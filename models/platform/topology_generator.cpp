#include "platform/topology_generator.hpp"

namespace starnuma {

Location TopologyGenerator::generated_at() const {
  if (config())
    if (const MapEntry* e = config()->find_entry("generator")) return e->value.location();
  return location();
}

ConfigNode TopologyGenerator::instantiate(const MapParam& tmpl, const char* type) const {
  ConfigNode node = tmpl.get() ? *tmpl.get() : ConfigNode::map(generated_at());
  if (!node.find("type")) node.set("type", node.location(), ConfigNode::scalar(type, node.location()));
  return node;
}

void TopologyGenerator::add_node(ConfigNode& nodes, const std::string& name, const MapParam& tmpl, const char* type) {
  nodes.set(name, generated_at(), instantiate(tmpl, type));
}

void TopologyGenerator::add_link(ConfigNode& links, const std::string& type, const MapParam& tmpl, const std::string& a,
                                 const std::string& b) {
  ConfigNode link = instantiate(tmpl, type.c_str());
  for (const char* end : {"a", "b"})
    if (const MapEntry* e = link.find_entry(end))
      error(&e->value, std::string(tmpl.name()) + "." + end,
            "a link template cannot name its ends: the generator connects each link");
  link.set("a", link.location(), ConfigNode::scalar(a, link.location()));
  link.set("b", link.location(), ConfigNode::scalar(b, link.location()));
  links.set(type + "_" + a + "_" + b, generated_at(), std::move(link));
}

}  // namespace starnuma
