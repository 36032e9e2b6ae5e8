// How far a run's seeded fault processes are drawn (sim/run/fault_horizon.hpp):
// 2 T' + 1 h past the start, T' the fault-free time over the slowest rate
// factor, at most 7 days; and a run draws what it reaches and nothing after
// the horizon.
#include <string>

#include <gtest/gtest.h>

#include "sim/engine/machine.hpp"
#include "sim/faults/timeline.hpp"
#include "sim/run/analytic.hpp"
#include "sim/run/fault_horizon.hpp"
#include "sim/run/simulate.hpp"
#include "sim/scenario/machine_topology.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "tests/sim/run/with_faults.hpp"

namespace hplsim::sim {
namespace {

constexpr const char* kFailures = "faults { failure_process { law: EXPONENTIAL rate_per_node_per_hour: 2 } ";

double analytic_time_s(const ResolvedScenario& sc) {
  RunResult r = initial_result(sc, "analytic");
  r.step_records = analytic_steps(sc);
  finalize_result(r);
  return r.time_s;
}

TEST(FaultHorizon, TwiceTheRunOverTheSlowestRateFactorPlusAnHour) {
  const ResolvedScenario sc = small_dragonfly_with_faults(std::string(kFailures) + "}");
  const double t_s = analytic_time_s(sc);
  ASSERT_GT(t_s, 0.0);
  EXPECT_DOUBLE_EQ(fault_horizon_s(sc, 10.0), 2 * 10.0 + 3600.0);
  EXPECT_DOUBLE_EQ(fault_horizon_s(sc), 2 * t_s + 3600.0);
  EXPECT_DOUBLE_EQ(fault_horizon_s(sc, 1e9), kFaultHorizon_s); // at most 7 days
  // A node at a quarter of its rate can hold the run back four times.
  const ResolvedScenario slow =
      small_dragonfly_with_faults(std::string(kFailures) + "degradations { node: 3 rate_factor: 0.25 } }");
  EXPECT_DOUBLE_EQ(fault_horizon_s(slow, 10.0), 2 * 40.0 + 3600.0);
}

TEST(FaultHorizon, ListedEventsAloneDrawNothing) {
  const ResolvedScenario sc = small_dragonfly_with_faults("faults { node_failures { node: 2 time_s: 1e6 } }");
  EXPECT_EQ(fault_horizon_s(sc), 0.0);
  const FaultTimeline t = build_timeline(sc, *make_topology(sc.machine), 0, fault_horizon_s(sc));
  ASSERT_EQ(t.node_failures.size(), 1u); // listed past any horizon, kept
  EXPECT_EQ(t.horizon_s, 0.0);
}

// The analytic mode's run (no engine) records the horizon it drew over; every
// drawn event lies before it, and the draws are the 7-day draws' first events.
TEST(FaultHorizon, ARunDrawsUpToItsHorizonTheEventsOfALongerOne) {
  ResolvedScenario sc = small_dragonfly_with_faults(std::string(kFailures) + "}");
  sc.options.mode = Mode::Analytic;
  const RunResult r = simulate(sc);
  ASSERT_TRUE(r.faults_drawn_through_s.has_value());
  EXPECT_DOUBLE_EQ(*r.faults_drawn_through_s, 2 * r.time_s + 3600.0);
  const auto topology = make_topology(sc.machine);
  const FaultTimeline week = build_timeline(sc, *topology, 0, kFaultHorizon_s);
  const FaultTimeline run = build_timeline(sc, *topology, 0, *r.faults_drawn_through_s);
  // 48 nodes at 2 per node-hour: ~97 failures in the hour, ~16,000 in the week.
  ASSERT_GT(run.node_failures.size(), 20u);
  ASSERT_GT(week.node_failures.size(), 10 * run.node_failures.size());
  for (std::size_t i = 0; i < run.node_failures.size(); ++i) {
    EXPECT_LT(run.node_failures[i].time_s, *r.faults_drawn_through_s);
    EXPECT_EQ(run.node_failures[i].time_s, week.node_failures[i].time_s);
    EXPECT_EQ(run.node_failures[i].node, week.node_failures[i].node);
  }
  EXPECT_EQ(r.faults.size(), run.node_failures.size());
}

} // namespace
} // namespace hplsim::sim
