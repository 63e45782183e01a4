#include "common/registry.hpp"

#include <gtest/gtest.h>

#include "platform/topology_generator.hpp"
#include "stimulus/workload_registry.hpp"

namespace starnuma {
namespace {

TEST(Registry, EveryModelTypeRegisteredItselfThroughStaticLinking) {
  // These register from their own translation units; a dropped object file shows here.
  for (const char* name : {"socket", "flex_asic", "cxl_switch", "cxl_pool", "upi", "numalink", "cxl", "ddr5"})
    EXPECT_NE(ComponentRegistry::instance().find(name), nullptr) << name;
  EXPECT_NE(GeneratorRegistry::instance().find("superdome_flex"), nullptr);
  for (const char* name : {"uniform", "local"}) EXPECT_NE(WorkloadRegistry::instance().find(name), nullptr) << name;
  EXPECT_EQ(ComponentRegistry::instance().duplicate(), "");
  EXPECT_EQ(GeneratorRegistry::instance().duplicate(), "");
  EXPECT_EQ(WorkloadRegistry::instance().duplicate(), "");
}

TEST(Registry, RolesSeparateNodesLinksAndParts) {
  EXPECT_EQ(ComponentRegistry::instance().find("socket")->role, Role::Node);
  EXPECT_EQ(ComponentRegistry::instance().find("upi")->role, Role::Link);
  EXPECT_EQ(ComponentRegistry::instance().find("ddr5")->role, Role::Part);
  auto links = ComponentRegistry::instance().names([](const ComponentType& t) { return t.role == Role::Link; });
  EXPECT_EQ(links, (std::vector<std::string>{"cxl", "numalink", "upi"}));  // sorted
}

TEST(Registry, UnknownNameIsNotFound) { EXPECT_EQ(ComponentRegistry::instance().find("sockett"), nullptr); }

TEST(Registry, FactoryBuildsANamedComponentOfItsType) {
  Elaboration elab;
  ConfigNode cfg = load_yaml_string("type: flex_asic\nlatency: 30ns\n", "f.yaml");
  auto c = ComponentRegistry::instance()
               .find("flex_asic")
               ->create("f", ScopeContext{&elab, &cfg, "f", cfg.location(), nullptr, "flex_asic", true});
  c->check_unused_keys();
  EXPECT_TRUE(elab.diagnostics().empty());
  EXPECT_STREQ(c->name(), "f");
  EXPECT_EQ(c->type_name(), "flex_asic");
  EXPECT_EQ(c->find_param("latency")->value_text(), "30ns");
}

}  // namespace
}  // namespace starnuma
