// --nodes K (sim/scenario/scenario_loader.cpp): a scenario run on another node
// count is re-derived by the grid rule (sim/scenario/grid_rule.hpp), P x Q
// and N each unless given (a node left idle where the ranks factor badly, N
// lowered to fit the memory), and says so.
#include <string>

#include <gtest/gtest.h>

#include "sim/scenario/memory_fit.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "sim/scenario/scenario_loader.hpp"

namespace hplsim::sim {
namespace {

const std::string kAurora = std::string(HPLSIM_SOURCE_DIR) + "/scenarios/aurora-hpl-sc24.textproto";

TEST(NodesFlag, AloneItRederivesTheGridAndN) {
  ScenarioOverrides o;
  o.nodes = 170;
  const ResolvedScenario sc = resolve(load_scenario(kAurora, o));
  // 1,020 ranks: of its factorizations with P <= Q, 20 x 51 (ratio 0.392) is
  // the closest in log to 162 x 342 (0.474); N = 28,773,888 x sqrt(1,020 /
  // 55,404) = 3,904,185, down to a multiple of NB 384: 3,904,128.
  EXPECT_EQ(sc.workload.nodes, 170);
  EXPECT_EQ(sc.workload.p, 20);
  EXPECT_EQ(sc.workload.q, 51);
  EXPECT_EQ(sc.workload.n, 3904128);
  EXPECT_NE(sc.rederive_note.find("162 x 342 -> 20 x 51"), std::string::npos) << sc.rederive_note;
  EXPECT_NE(sc.rederive_note.find("N 28773888 -> 3904128"), std::string::npos) << sc.rederive_note;
}

TEST(NodesFlag, WhatIsGivenIsKept) {
  ScenarioOverrides o;
  o.nodes = 170;
  o.p = 30;
  o.q = 34;
  const ResolvedScenario grid = resolve(load_scenario(kAurora, o));
  EXPECT_EQ(grid.workload.p, 30);
  EXPECT_EQ(grid.workload.n, 3904128); // N still follows the rule
  EXPECT_EQ(grid.rederive_note.find("-> 20 x 51"), std::string::npos) << grid.rederive_note;
  ScenarioOverrides all = o;
  all.set.push_back("workload.n=3903360");
  const ResolvedScenario given = resolve(load_scenario(kAurora, all));
  EXPECT_EQ(given.workload.n, 3903360);
  EXPECT_TRUE(given.rederive_note.empty()) << given.rederive_note;
}

TEST(NodesFlag, TheScenariosOwnNodeCountChangesNothing) {
  ScenarioOverrides o;
  o.nodes = 9234;
  const ResolvedScenario sc = resolve(load_scenario(kAurora, o));
  EXPECT_EQ(sc.workload.p, 162);
  EXPECT_EQ(sc.workload.q, 342);
  EXPECT_EQ(sc.workload.n, 28773888);
  EXPECT_TRUE(sc.rederive_note.empty()) << sc.rederive_note;
}

TEST(NodesFlag, RanksThatFactorBadlyLeaveANodeIdleAsPlanDoes) {
  // JUPITER (4 ranks a node, 150 x 160): 5,884 x 4 = 23,536 = 16 x 1,471 with
  // 1,471 prime, 10x off the scenario's shape; 5,883 x 4 = 23,532 = 148 x 159
  // (4 x 37 and 3 x 53), the run `hplsim plan` takes at 5,884 nodes
  // (tests/sim/study/plan_grid_test.cpp).
  ScenarioOverrides o;
  o.nodes = 5884;
  const ResolvedScenario sc =
      resolve(load_scenario(std::string(HPLSIM_SOURCE_DIR) + "/scenarios/jupiter-hpl.textproto", o));
  EXPECT_EQ(sc.workload.nodes, 5883);
  EXPECT_EQ(sc.workload.p, 148);
  EXPECT_EQ(sc.workload.q, 159);
  EXPECT_EQ(sc.workload.n % sc.workload.nb, 0);
  EXPECT_FALSE(memory_refusal(sc).has_value()) << *memory_refusal(sc);
  EXPECT_NE(sc.rederive_note.find("HPL on 5883 of the nodes, 1 idle"), std::string::npos) << sc.rederive_note;
  EXPECT_NE(sc.rederive_note.find("-> 148 x 159"), std::string::npos) << sc.rederive_note;
}

} // namespace
} // namespace hplsim::sim
