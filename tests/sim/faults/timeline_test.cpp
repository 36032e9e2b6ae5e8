// The run's fault timeline (sim/faults/timeline.hpp): listed and drawn events
// in time order, drawn ones the same for the same (seed, run) and
// independent between runs, link indices resolved to the topology's links.
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "sim/faults/timeline.hpp"
#include "sim/scenario/machine_topology.hpp"
#include "sim/scenario/scenario_loader.hpp"

namespace hplsim::sim {
namespace {

ResolvedScenario with_faults(const std::string& faults, unsigned long long seed = 1) {
  const std::string path =
      std::string(HPLSIM_SOURCE_DIR) + "/scenarios/faults/small-dragonfly-flap.textproto";
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  const std::string text = s.str().substr(0, s.str().find("faults {")) + faults;
  ScenarioOverrides o;
  o.seed = seed;
  return resolve(
      load_scenario_text(text, std::string(HPLSIM_SOURCE_DIR) + "/scenarios/faults/x.textproto", o));
}

// 48 nodes at 0.5 failures per node-hour and 384 NIC cables at 0.2 flaps per
// hour over 10 h: ~240 failures and ~770 flaps, enough to tell runs apart.
const char* kProcesses = "faults { failure_process { law: EXPONENTIAL rate_per_node_per_hour: 0.5 } "
                         "flap_process { classes { link_class: NIC_PORT rate_per_link_per_hour: 0.2 "
                         "duration { law: LOGNORMAL mean_s: 2 cv: 0.5 } } } }";
constexpr double kHorizon_s = 10 * 3600.0;

TEST(FaultTimeline, ListedEventsComeInTimeOrderWithTheirLinks) {
  const ResolvedScenario sc =
      with_faults("faults { link_flaps { link { link_class: GLOBAL index: 2 } start_s: 5 duration_s: 1 } "
                  "link_flaps { link { link_class: NIC_PORT index: 9 } start_s: 1 duration_s: 1 } "
                  "node_failures { node: 4 time_s: 3 } }");
  const auto topology = make_topology(sc.machine);
  const FaultTimeline t = build_timeline(sc, *topology, 0, kHorizon_s);
  ASSERT_EQ(t.flaps.size(), 2u);
  EXPECT_DOUBLE_EQ(t.flaps[0].start_s, 1.0);
  // NIC 9 = node 1's NIC 1 (8 NICs per node).
  EXPECT_EQ(t.flaps[0].link, topology->nic_link(1, 1));
  EXPECT_EQ(topology->links().at(static_cast<std::size_t>(t.flaps[1].link)).kind, topo::LinkKind::Global);
  EXPECT_EQ(t.flaps[0].id, 0);
  EXPECT_EQ(t.flaps[1].id, 1);
  ASSERT_EQ(t.node_failures.size(), 1u);
  EXPECT_EQ(t.node_failures[0].id, 2);
  EXPECT_EQ(t.retry_waits_s, kCassiniRetryWaits_s);
}

TEST(FaultTimeline, DrawnEventsAreTheSameForTheSameSeedAndRun) {
  const ResolvedScenario sc = with_faults(kProcesses);
  const auto topology = make_topology(sc.machine);
  const FaultTimeline a = build_timeline(sc, *topology, 3, kHorizon_s);
  const FaultTimeline b = build_timeline(sc, *topology, 3, kHorizon_s);
  ASSERT_GT(a.flaps.size(), 500u);
  ASSERT_GT(a.node_failures.size(), 150u);
  ASSERT_EQ(a.flaps.size(), b.flaps.size());
  for (std::size_t i = 0; i < a.flaps.size(); ++i) {
    EXPECT_EQ(a.flaps[i].link, b.flaps[i].link);
    EXPECT_EQ(a.flaps[i].start_s, b.flaps[i].start_s);
  }
  ASSERT_EQ(a.node_failures.size(), b.node_failures.size());
  EXPECT_EQ(a.node_failures.front().time_s, b.node_failures.front().time_s);
  for (std::size_t i = 1; i < a.flaps.size(); ++i)
    EXPECT_LE(a.flaps[i - 1].start_s, a.flaps[i].start_s);
}

TEST(FaultTimeline, RunsAndSeedsDrawDifferentEvents) {
  const ResolvedScenario sc = with_faults(kProcesses);
  const auto topology = make_topology(sc.machine);
  const FaultTimeline run1 = build_timeline(sc, *topology, 1, kHorizon_s);
  const FaultTimeline run2 = build_timeline(sc, *topology, 2, kHorizon_s);
  EXPECT_NE(run1.node_failures.front().time_s, run2.node_failures.front().time_s);
  const FaultTimeline other_seed = build_timeline(with_faults(kProcesses, 7), *topology, 1, kHorizon_s);
  EXPECT_NE(run1.flaps.front().start_s, other_seed.flaps.front().start_s);
}

TEST(FaultTimeline, TheFirstFailureBeforeAHorizonIsTheEarliest) {
  const ResolvedScenario sc =
      with_faults("faults { node_failures { node: 4 time_s: 30 } node_failures { node: 7 time_s: 20 } }");
  const FaultTimeline t = build_timeline(sc, *make_topology(sc.machine), 0, kHorizon_s);
  ASSERT_TRUE(t.first_failure_before(25.0).has_value());
  EXPECT_EQ(t.first_failure_before(25.0)->node, 7);
  EXPECT_FALSE(t.first_failure_before(20.0).has_value()); // at the horizon is after the run
}

} // namespace
} // namespace hplsim::sim
