// The flap process's scales (sim/run/trials.hpp, FlapScale): a trial drawn
// at rate x r and duration x d has the draws of the unscaled trial, its flap
// times divided by r and its durations multiplied by d (common random
// numbers across the scales of `hplsim sensitivity`); everything else of the
// timeline is unchanged.
#include <string>

#include <gtest/gtest.h>

#include "sim/faults/timeline.hpp"
#include "sim/run/trials.hpp"
#include "sim/scenario/machine_topology.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "tests/sim/run/with_faults.hpp"

namespace hplsim::sim {
namespace {

// 384 NIC cables at 0.2 flaps per hour (~150 over 2 h), 92 global links at
// 0.5 per hour with exponential durations, and a node failure process.
const char* kProcesses =
    "faults { failure_process { law: EXPONENTIAL rate_per_node_per_hour: 0.05 } "
    "flap_process { classes { link_class: NIC_PORT rate_per_link_per_hour: 0.2 "
    "duration { law: LOGNORMAL mean_s: 2 cv: 0.5 } } "
    "classes { link_class: GLOBAL rate_per_link_per_hour: 0.5 duration { law: EXPONENTIAL mean_s: 3 } } } }";

TEST(FlapScale, AScaledTrialIsTheSameDrawsRescaled) {
  const ResolvedScenario sc = small_dragonfly_with_faults(kProcesses);
  const auto topology = make_topology(sc.machine);
  constexpr double kRate = 2.0, kDuration = 3.0, kHorizon_s = 3600.0;
  // The unscaled draws over r times the horizon are the scaled draws' preimage.
  const FaultTimeline base = build_timeline(sc, *topology, 5, kRate * kHorizon_s);
  const FaultTimeline scaled =
      build_timeline(with_flap_scale(sc, {kRate, kDuration}), *topology, 5, kHorizon_s);
  ASSERT_GT(base.flaps.size(), 100u);
  ASSERT_EQ(scaled.flaps.size(), base.flaps.size());
  for (std::size_t i = 0; i < base.flaps.size(); ++i) {
    EXPECT_EQ(scaled.flaps[i].link, base.flaps[i].link) << i;
    // Relative 1e-12: the gaps are summed at the scaled mean instead of scaled after summing.
    EXPECT_NEAR(scaled.flaps[i].start_s, base.flaps[i].start_s / kRate, 1e-12 * base.flaps[i].start_s) << i;
    EXPECT_NEAR(scaled.flaps[i].duration_s, base.flaps[i].duration_s * kDuration,
                1e-12 * base.flaps[i].duration_s)
        << i;
  }
  // The node failures are not the flap process's: the same draws over the shorter horizon.
  const FaultTimeline same_horizon = build_timeline(sc, *topology, 5, kHorizon_s);
  ASSERT_EQ(scaled.node_failures.size(), same_horizon.node_failures.size());
  for (std::size_t i = 0; i < scaled.node_failures.size(); ++i)
    EXPECT_EQ(scaled.node_failures[i].time_s, same_horizon.node_failures[i].time_s);
}

TEST(FlapScale, RateZeroDrawsNoFlapAndListedFlapsStay) {
  const ResolvedScenario sc = small_dragonfly_with_faults(
      "faults { link_flaps { link { link_class: GLOBAL index: 2 } start_s: 5 duration_s: 1 } "
      "flap_process { classes { link_class: NIC_PORT rate_per_link_per_hour: 10 "
      "duration { law: FIXED mean_s: 1 } } } }");
  const auto topology = make_topology(sc.machine);
  ASSERT_GT(build_timeline(sc, *topology, 0, 3600.0).flaps.size(), 1000u);
  const FaultTimeline off = build_timeline(with_flap_scale(sc, {0.0, 4.0}), *topology, 0, 3600.0);
  ASSERT_EQ(off.flaps.size(), 1u);
  EXPECT_EQ(off.flaps[0].source, "listed");
  EXPECT_DOUBLE_EQ(off.flaps[0].duration_s, 1.0); // listed flaps are not scaled
}

TEST(FlapScale, NegativeOrInfiniteScalesAreRefused) {
  const ResolvedScenario sc = small_dragonfly_with_faults(kProcesses);
  EXPECT_THROW(with_flap_scale(sc, {-1.0, 1.0}), std::invalid_argument);
  EXPECT_THROW(with_flap_scale(sc, {1.0, std::numeric_limits<double>::infinity()}), std::invalid_argument);
}

} // namespace
} // namespace hplsim::sim
