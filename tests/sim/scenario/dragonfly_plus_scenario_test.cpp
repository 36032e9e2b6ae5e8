// A DragonFly+ machine in a scenario (tests/sim/scenario/dragonfly-plus-small.textproto):
// it loads and resolves with the documented defaults, builds the topology
// with the hand-computed counts and fault link classes, the loader rejects
// its bad fields naming them, and `hplsim topo` prints its figures.
#include <string>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sim/scenario/machine_topology.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "tests/sim/cli/cli_runner.hpp"
#include "topologies/topology.hpp"

namespace hplsim::sim {
namespace {

using testing::read_text;
using testing::run_hplsim;
using testing::TempDir;

const std::string kScenario =
    std::string(HPLSIM_SOURCE_DIR) + "/tests/sim/scenario/dragonfly-plus-small.textproto";

/// The scenario's text with the first occurrence of `from` replaced by `to`.
std::string with(const std::string& from, const std::string& to) {
  std::string text = read_text(kScenario);
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

/// The ScenarioError message of loading `text`, or "" when it loads.
std::string error_of(const std::string& text, const ScenarioOverrides& overrides = {}) {
  try {
    load_scenario_text(text, "x.textproto", overrides);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

TEST(DragonflyPlusScenario, ResolvesWithDefaults) {
  const ResolvedScenario r = resolve(load_scenario(kScenario));
  const TopologyConfig& t = r.machine.topology;
  EXPECT_EQ(t.kind, TopologyKind::DragonflyPlus);
  EXPECT_STREQ(to_string(t.kind), "dragonfly-plus");
  EXPECT_EQ(t.dragonfly_plus.groups, 4);
  EXPECT_EQ(t.dragonfly_plus.leaves_per_group, 3);
  EXPECT_EQ(t.dragonfly_plus.spines_per_group, 2);
  EXPECT_EQ(t.dragonfly_plus.links_per_leaf_spine, 2);
  EXPECT_EQ(t.dragonfly_plus.global_ports_per_spine, 3);
  EXPECT_DOUBLE_EQ(t.dragonfly_plus.switch_latency_s, 300e-9);
  // 4 groups x 3 leaves x floor(4 ports / 2 NICs): every node the ports hold.
  EXPECT_EQ(t.port_capacity_nodes, 24);
  EXPECT_EQ(t.nodes, 24);
  EXPECT_EQ(t.routing, topo::Routing::Minimal);
  const ResolvedScenario plain =
      resolve(load_scenario_text(with("      links_per_leaf_spine: 2\n", ""), "x.textproto"));
  EXPECT_EQ(plain.machine.topology.dragonfly_plus.links_per_leaf_spine, 1); // default
}

TEST(DragonflyPlusScenario, BuildsTheTopologyWithItsFaultLinkClasses) {
  const ResolvedScenario r = resolve(load_scenario(kScenario));
  const auto topology = make_topology(r.machine);
  const topo::Metrics m = topology->metrics();
  // Hand figures in the scenario file's header.
  EXPECT_EQ(m.nodes, 24);
  EXPECT_EQ(m.nics, 48);
  EXPECT_EQ(m.switches, 20);
  EXPECT_EQ(m.links, 108);
  EXPECT_NEAR(m.injection_bandwidth_bytes_per_s, 1.2e12, 1.0); // 48 x 25e9; rounding only
  EXPECT_NEAR(m.bisection_bandwidth_bytes_per_s, 0.4e12, 1.0); // 2 x 2 x 2 x 25e9 x 2
  // Leaf-spine links count as SWITCH_LOCAL, spine-spine ones as GLOBAL.
  EXPECT_EQ(links_of_class(*topology, NIC_PORT).size(), 48u);
  EXPECT_EQ(links_of_class(*topology, SWITCH_LOCAL).size(), 48u);
  EXPECT_EQ(links_of_class(*topology, GLOBAL).size(), 12u);
  // Node 0 (group 0) to node 23 (group 3): up, global, down. Latency: 2 NIC
  // latencies 2 x 500e-9 + 5 links x 100e-9 + 4 switches x 300e-9 = 2.7e-6 s.
  const PathFigures f = nominal_path(r, 0, 23);
  EXPECT_EQ(f.switch_hops, 3);
  EXPECT_NEAR(f.latency_s, 2.7e-6, 1e-12);
  EXPECT_NEAR(f.bandwidth_bytes_per_s, 25e9, 1.0);
}

TEST(DragonflyPlusScenario, RejectsAMissingSpineCount) {
  const std::string e = error_of(with("      spines_per_group: 2\n", ""));
  EXPECT_NE(e.find("machine.topology.dragonfly_plus.spines_per_group is required"), std::string::npos) << e;
}

TEST(DragonflyPlusScenario, RejectsGlobalLinksThatDoNotFitTheSpines) {
  const std::string e = error_of(with("global_ports_per_spine: 3", "global_ports_per_spine: 2"));
  EXPECT_NE(e.find("machine.topology.dragonfly_plus.global_ports_per_spine = 2 is too few"),
            std::string::npos)
      << e;
  const std::string missing = error_of(with("      global_ports_per_spine: 3", ""));
  EXPECT_NE(missing.find("dragonfly_plus.global_ports_per_spine is required with groups > 1"),
            std::string::npos)
      << missing;
}

TEST(DragonflyPlusScenario, RejectsMoreNodesThanTheLeavesHold) {
  const std::string e = error_of(with("  topology {\n", "  topology {\n    nodes: 25\n"));
  EXPECT_NE(e.find("machine.topology.nodes = 25 exceeds the nodes the endpoint ports hold"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("groups*leaves_per_group*floor(endpoint_ports_per_leaf"), std::string::npos) << e;
}

TEST(DragonflyPlusScenario, RejectsBadBandwidth) {
  const std::string e =
      error_of(with("global_link_bandwidth_bytes_per_s: 25e9", "global_link_bandwidth_bytes_per_s: 0"));
  EXPECT_NE(e.find("machine.topology.dragonfly_plus.global_link_bandwidth_bytes_per_s must be > 0"),
            std::string::npos)
      << e;
}

TEST(DragonflyPlusScenario, TopoCommandPrintsTheFigures) {
  TempDir dir;
  const testing::CliResult text = run_hplsim({"topo", kScenario}, dir);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("DragonFly+"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("links:     108"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("injection: 1.200 TB/s"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("bisection: 400.0 GB/s"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("NIC_PORT 48, SWITCH_LOCAL 48, GLOBAL 12"), std::string::npos) << text.out;
  const testing::CliResult json = run_hplsim({"topo", kScenario, "--json"}, dir);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const nlohmann::json j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j.at("switches").get<long>(), 20);
  // Same hand figures as above; tolerance for the JSON's double printing only.
  EXPECT_NEAR(j.at("injection_bandwidth_bytes_per_s").get<double>(), 1.2e12, 1.0);
  EXPECT_NEAR(j.at("bisection_bandwidth_bytes_per_s").get<double>(), 0.4e12, 1.0);
  EXPECT_EQ(j.at("fault_link_classes").at("GLOBAL").get<long>(), 12);
}

} // namespace
} // namespace hplsim::sim
