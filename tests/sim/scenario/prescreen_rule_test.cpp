// Pre-screening wired into the run (sim/scenario/prescreen_rule.hpp): the run
// takes its nodes from those left, and when too few are left the grid and N
// are re-derived by the stated rule.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "sim/scenario/scenario_defaults.hpp"
#include "sim/scenario/scenario_loader.hpp"

namespace hplsim::sim {
namespace {

// small-dragonfly's machine has 48 nodes; `on_40` runs on 40 of them (12 x 20)
// so that pre-screening can leave enough.
ResolvedScenario with_prescreen(const std::string& prescreen, bool on_40 = false) {
  const std::string path =
      std::string(HPLSIM_SOURCE_DIR) + "/scenarios/faults/small-dragonfly-flap.textproto";
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  const std::string text =
      s.str().substr(0, s.str().find("faults {")) + "faults { prescreen { " + prescreen + " } }";
  ScenarioOverrides o;
  if (on_40) {
    o.nodes = 40;
    o.p = 12;
    o.q = 20;
  }
  return resolve(
      load_scenario_text(text, std::string(HPLSIM_SOURCE_DIR) + "/scenarios/faults/x.textproto", o));
}

TEST(Prescreen, EnoughNodesLeftKeepsTheGridOnTheNodesLeft) {
  const ResolvedScenario sc = with_prescreen("drop_slowest_fraction: 0.1", true);
  const int machine = sc.machine.topology.nodes;
  const int dropped = static_cast<int>(std::lround(0.1 * machine)); // models/prescreen.hpp: round(f x nodes)
  ASSERT_GE(machine - dropped, 40);
  EXPECT_EQ(sc.workload.nodes, 40);
  EXPECT_EQ(sc.workload.p, 12);
  EXPECT_EQ(sc.workload.q, 20);
  ASSERT_EQ(sc.workload.node_map.size(), 40u);
  // Without variability every node is as fast: the lowest ids are dropped first.
  EXPECT_EQ(sc.workload.node_map.front(), dropped);
  EXPECT_NE(sc.prescreen_note.find(std::to_string(dropped) + " of " + std::to_string(machine)),
            std::string::npos)
      << sc.prescreen_note;
}

TEST(Prescreen, TooFewNodesLeftReDerivesTheGridAndN) {
  const ResolvedScenario base = with_prescreen("drop_slowest_fraction: 0");
  const int machine = base.machine.topology.nodes;
  const double fraction = 1.0 - 38.0 / machine; // leaves 38 nodes
  std::ostringstream f;
  f.precision(17);
  f << "drop_slowest_fraction: " << fraction;
  const ResolvedScenario sc = with_prescreen(f.str());
  ASSERT_EQ(sc.workload.nodes, 38);
  // 38 x 6 = 228 ranks; of 228's factorizations with P <= Q, 12 x 19 has the
  // ratio closest in log to the scenario's 12 / 24 (|ln(12/19) - ln(1/2)| = 0.23;
  // 6 x 38: 1.15).
  EXPECT_EQ(sc.workload.p, 12);
  EXPECT_EQ(sc.workload.q, 19);
  // N' = floor(12288 x sqrt(228 / 288) / 256) x 256 = floor(42.7) x 256 = 10752.
  EXPECT_EQ(sc.workload.n, 10752);
  EXPECT_EQ(sc.workload.node_map.size(), 38u);
}

TEST(Prescreen, NodesNamedInAFileAreLeftOut) {
  const std::string file = ::testing::TempDir() + "/hplsim-drop-nodes.txt";
  std::ofstream(file) << "# bad GPU\n3\n7  # flaky NIC\n";
  const ResolvedScenario sc = with_prescreen("drop_nodes_file: \"" + file + "\"", true);
  const auto& m = sc.workload.node_map;
  EXPECT_EQ(std::count(m.begin(), m.end(), 3), 0);
  EXPECT_EQ(std::count(m.begin(), m.end(), 7), 0);
  EXPECT_EQ(m.size(), 40u);
  EXPECT_EQ(m.at(3), 4);
}

TEST(Prescreen, ABadLineInTheFileNamesItsLine) {
  const std::string file = ::testing::TempDir() + "/hplsim-drop-nodes-bad.txt";
  std::ofstream(file) << "3\nnode7\n";
  try {
    with_prescreen("drop_nodes_file: \"" + file + "\"");
    FAIL() << "expected a ScenarioError";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find(file + ":2: expected a node index"), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace hplsim::sim
