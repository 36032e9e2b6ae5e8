// Sweeps (sim/study/sweep.hpp): the points a --vary and --grids make, the
// stated rule for N and P x Q, and the ranking against the sampling error.
#include "sim/study/sweep.hpp"

#include <gtest/gtest.h>

#include "sim/scenario/scenario_defaults.hpp"
#include "sim/support/errors.hpp"

namespace hplsim::sim {
namespace {

ResolvedScenario small_dragonfly() {
  return resolve(load_scenario(std::string(HPLSIM_SOURCE_DIR) + "/scenarios/small-dragonfly.textproto"));
}

TEST(Sweep, HplNamesAndCodesBecomeTheScenariosFields) {
  const Vary v = parse_vary("bcast=0,1rM,longm");
  EXPECT_EQ(v.name, "bcast");
  const auto points = sweep_points(small_dragonfly(), {}, {v}, std::nullopt);
  ASSERT_EQ(points.size(), 3u);
  // HPL.dat's BCAST codes (0=1rg, 1=1rM, ..., 5=LnM).
  EXPECT_EQ(points[0].overrides.set.back(), "workload.hpl.bcast=ONE_RING");
  EXPECT_EQ(points[1].overrides.set.back(), "workload.hpl.bcast=ONE_RING_M");
  EXPECT_EQ(points[2].overrides.set.back(), "workload.hpl.bcast=BLONG_M");
  EXPECT_EQ(parse_vary("nb=64").name, "NB");
  EXPECT_EQ(parse_vary("workload.hpl.swap_threshold=32,64").name, "workload.hpl.swap_threshold");
}

TEST(Sweep, TheCrossProductRunsTheLastVaryFastest) {
  const auto points =
      sweep_points(small_dragonfly(), {}, {parse_vary("depth=0,1"), parse_vary("swap=0,2")}, std::nullopt);
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(points[1].values[0].second, "0");
  EXPECT_EQ(points[1].values[1].second, "2");
  EXPECT_EQ(points[2].values[0].second, "1");
}

TEST(Sweep, GridsAutoEnumeratesTheFactorizationsInTheRatioRange) {
  // 288 ranks, P <= Q, 0.25 <= P/Q <= 1: 9 x 32 (0.28), 12 x 24, 16 x 18 (by hand; 8 x 36 is 0.22).
  const auto points = sweep_points(small_dragonfly(), {}, {}, parse_grids("auto:0.25-1"));
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[0].values.back().second, "9x32");
  EXPECT_EQ(points[2].values.back().second, "16x18");
  EXPECT_EQ(*points[1].overrides.p, 12);
  EXPECT_FALSE(points[1].overrides.n); // neither nodes, ppn nor NB varied: N is the scenario's
}

TEST(Sweep, NIsReDerivedWhenNbOrTheNodesChange) {
  const ResolvedScenario base = small_dragonfly(); // N 12,288, NB 256, 48 nodes x 6, 12 x 24
  const auto nb = sweep_points(base, {}, {parse_vary("NB=200")}, std::nullopt);
  // The same ranks: the largest multiple of 200 not above 12,288.
  EXPECT_EQ(*nb[0].overrides.n, 12200);
  const auto nodes = sweep_points(base, {}, {parse_vary("nodes=24")}, std::nullopt);
  // 144 ranks: N^2 / 144 <= 12,288^2 / 288 gives N <= 8,688.9, so 8,448 (33 x 256); P x Q 8 x 18 or
  // 9 x 16, whichever is closer in log to 12/24 (both 0.118 off: the smaller P).
  EXPECT_EQ(*nodes[0].overrides.n, 8448);
  EXPECT_EQ(*nodes[0].overrides.p * *nodes[0].overrides.q, 144);
}

// A node count whose ranks factor badly gets the run `hplsim run --nodes` gives
// it (sim/scenario/grid_rule.hpp): JUPITER at 5,884 nodes, 16 x 1,471 with 1,471
// prime, runs 148 x 159 on 5,883 (tests/sim/scenario/nodes_flag_test.cpp).
TEST(Sweep, ANodeCountThatFactorsBadlyRunsAsRunNodesRunsIt) {
  const ResolvedScenario base =
      resolve(load_scenario(std::string(HPLSIM_SOURCE_DIR) + "/scenarios/jupiter-hpl.textproto"));
  const auto points = sweep_points(base, {}, {parse_vary("nodes=5884")}, std::nullopt);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(*points[0].overrides.nodes, 5883);
  EXPECT_EQ(*points[0].overrides.p, 148);
  EXPECT_EQ(*points[0].overrides.q, 159);
  ScenarioOverrides run;
  run.nodes = 5884;
  const ResolvedScenario by_run =
      resolve(load_scenario(std::string(HPLSIM_SOURCE_DIR) + "/scenarios/jupiter-hpl.textproto", run));
  EXPECT_EQ(*points[0].overrides.n, by_run.workload.n);
}

// --fixed-N holds the scenario's N at every node count: the point gives it,
// so loading the point (whose --nodes alone would re-derive N) keeps it.
TEST(Sweep, FixedNHoldsTheScenariosNAtOtherNodeCounts) {
  const ResolvedScenario base = small_dragonfly(); // N 12,288
  const auto points = sweep_points(base, {}, {parse_vary("nodes=24")}, std::nullopt, true);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_EQ(*points[0].overrides.n, 12288);
  EXPECT_FALSE(points[0].n_rederived);
  const ResolvedScenario point = resolve(load_scenario(
      std::string(HPLSIM_SOURCE_DIR) + "/scenarios/small-dragonfly.textproto", points[0].overrides));
  EXPECT_EQ(point.workload.n, 12288);
  EXPECT_TRUE(point.rederive_note.empty()) << point.rederive_note;
}

TEST(Sweep, BadVariesAndGridsNameTheirFlag) {
  EXPECT_THROW(parse_vary("NB"), InputError);
  EXPECT_THROW(parse_vary("colour=red"), InputError);
  EXPECT_THROW(parse_vary("NB=128,,256"), InputError);
  EXPECT_THROW(parse_grids("auto:1-0.5"), InputError);
  EXPECT_THROW(parse_grids("manual"), InputError);
  try {
    sweep_points(small_dragonfly(), {}, {parse_vary("bcast=7")}, std::nullopt);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--vary bcast=7"), std::string::npos) << e.what();
  }
  EXPECT_THROW(sweep_points(small_dragonfly(), {}, {parse_vary("PxQ=12x24")}, parse_grids("auto")),
               InputError);
  // 0.9-1 of 288 ranks: none (16 x 18 is 0.89).
  EXPECT_THROW(sweep_points(small_dragonfly(), {}, {}, parse_grids("auto:0.9-1")), InputError);
}

SweepResult result(double rmax, double error) {
  SweepResult r;
  r.summary_json =
      "{\"completed\": true, \"rmax_flops_per_s\": " + std::to_string(rmax) +
      ", \"rmax_sampling_error_fraction\": " + (error < 0 ? std::string("null") : std::to_string(error)) +
      "}";
  return r;
}

TEST(Sweep, TheRankingSaysWhichDifferencesExceedTheSamplingError) {
  // Best 100 +- 1%; 97 +- 1%: gap 3 > 2 sqrt(1 + 0.94) = 2.79, real; 98.5: gap 1.5, noise.
  const auto ranking = rank_points({result(97, 0.01), result(100, 0.01), result(98.5, 0.01)});
  ASSERT_EQ(ranking.size(), 3u);
  EXPECT_EQ(ranking[0].index, 1u);
  EXPECT_EQ(ranking[1].index, 2u);
  EXPECT_FALSE(ranking[1].beyond_noise);
  EXPECT_TRUE(ranking[2].beyond_noise);
  EXPECT_NEAR(ranking[2].below_best_fraction, 0.03, 1e-12);
}

} // namespace
} // namespace hplsim::sim
