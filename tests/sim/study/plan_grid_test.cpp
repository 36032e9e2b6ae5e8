// `hplsim plan`'s run at a node count (sim/study/plan_grid.hpp) on the three
// from-specifications machines, at node counts from 1 to each machine's size,
// primes among them: a grid of the active nodes' ranks near the scenario's
// shape, a few idle ranks at most, and an N that fits with its panels.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/scenario/memory_fit.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "sim/study/plan_grid.hpp"

namespace hplsim::sim {
namespace {

std::string scenario(const std::string& name) {
  return std::string(HPLSIM_SOURCE_DIR) + "/scenarios/" + name;
}

// The sampled counts: small ones, primes up to and near each machine's size
// (5,881 is prime; 5,884 x 4 = 16 x 1,471 with 1,471 prime), and the machine.
std::vector<int> sampled(int machine_nodes) {
  std::vector<int> counts = {1, 2, 3, 5, 7, 13, 97, 509, 1021, 2039, 4093, 5881, 5884, 9403, 11131};
  std::vector<int> out;
  for (const int c : counts)
    if (c <= machine_nodes) out.push_back(c);
  out.push_back(machine_nodes - 1);
  out.push_back(machine_nodes);
  return out;
}

TEST(PlanGrid, EveryNodeCountGetsASquarishGridAndAnNThatFits) {
  for (const char* name : {"el-capitan-hpl.textproto", "jupiter-hpl.textproto", "frontier-hpl.textproto"}) {
    const ResolvedScenario base = resolve(load_scenario(scenario(name)));
    const WorkloadConfig& w = base.workload;
    const double target = std::log(double(w.p) / double(w.q));
    for (const int nodes : sampled(base.machine.topology.nodes)) {
      SCOPED_TRACE(std::string(name) + " at " + std::to_string(nodes) + " nodes");
      const PlanGrid g = plan_grid(base, nodes);
      EXPECT_EQ(g.nodes, nodes);
      EXPECT_EQ(g.p * g.q, g.active_nodes * w.ranks_per_node);
      EXPECT_EQ(g.idle_ranks, (nodes - g.active_nodes) * w.ranks_per_node);
      // A few ranks idle: at most 1% of the nodes', or one node's.
      EXPECT_LE(nodes - g.active_nodes, std::max(1, nodes / 100));
      // Within 2x of the scenario's P:Q at every sampled count.
      EXPECT_LE(std::abs(std::log(double(g.p) / double(g.q)) - target), std::log(kMaxAspect) + 1e-9)
          << g.p << " x " << g.q;
      EXPECT_EQ(g.n % w.nb, 0);
      EXPECT_GE((g.n + w.nb - 1) / w.nb, std::max(g.p, g.q)) << "a block per process row and column";
      ScenarioOverrides o;
      o.nodes = g.active_nodes;
      o.p = g.p;
      o.q = g.q;
      o.n = g.n;
      const ResolvedScenario point = resolve(load_scenario(scenario(name), o));
      EXPECT_FALSE(memory_refusal(point).has_value()) << *memory_refusal(point);
    }
  }
}

TEST(PlanGrid, JupitersBadCountsLeaveOneNodeIdle) {
  const ResolvedScenario base = resolve(load_scenario(scenario("jupiter-hpl.textproto")));
  // 5,884 x 4 = 23,536 = 16 x 1,471; 5,883 x 4 = 23,532 = 148 x 159 (4 x 37 and 3 x 53).
  const PlanGrid a = plan_grid(base, 5884);
  EXPECT_EQ(a.active_nodes, 5883);
  EXPECT_EQ(a.idle_ranks, 4);
  EXPECT_EQ(a.p, 148);
  EXPECT_EQ(a.q, 159);
  // 5,881 is prime (4 x 5,881); 5,880 x 4 = 23,520 = 147 x 160.
  const PlanGrid b = plan_grid(base, 5881);
  EXPECT_EQ(b.active_nodes, 5880);
  EXPECT_EQ(b.p, 147);
  EXPECT_EQ(b.q, 160);
  // The machine's own count is the scenario's run.
  const PlanGrid c = plan_grid(base, 6000);
  EXPECT_EQ(c.idle_ranks, 0);
  EXPECT_EQ(c.p, 150);
  EXPECT_EQ(c.q, 160);
  EXPECT_EQ(c.n, base.workload.n);
  EXPECT_FALSE(c.memory_capped);
}

} // namespace
} // namespace hplsim::sim
