// The runs of an HPL.dat on a scenario's machine (sim/study/hpl_dat_points.hpp):
// HPL's loop order, the placement rule, and the fields each run sets.
#include "sim/study/hpl_dat_points.hpp"

#include <algorithm>

#include <gtest/gtest.h>

#include "sim/support/errors.hpp"

namespace hplsim::sim {
namespace {

std::string source(const std::string& relative) {
  return std::string(HPLSIM_SOURCE_DIR) + "/" + relative;
}

ResolvedScenario small_dragonfly() { // 48 nodes, 6 ranks per node
  return resolve(load_scenario(source("scenarios/small-dragonfly.textproto")));
}

bool sets(const SweepPoint& p, const std::string& assignment) {
  return std::find(p.overrides.set.begin(), p.overrides.set.end(), assignment) != p.overrides.set.end();
}

TEST(HplDatPoints, TheSampleFileMakesHplsRunsInHplsOrder) {
  const HplDat dat = read_hpl_dat(source("scenarios/hpl-dat/netlib-hpl-2.3-sample.dat"));
  const auto points = hpl_dat_points(dat, small_dragonfly(), {});
  // 3 grids x 4 N x 4 NB x 1 depth x 1 bcast x 3 RFACT x 2 NBMIN x 1 NDIV (PFACT does not multiply them).
  ASSERT_EQ(points.size(), 288u);
  // HPL_pddriver.c's loops: grid outermost, NBMIN innermost here.
  const SweepPoint& first = points[0];
  EXPECT_EQ(first.values, (std::vector<std::pair<std::string, std::string>>{
                              {"PxQ", "2x2"}, {"N", "29"}, {"NB", "1"}, {"rfact", "left"}, {"nbmin", "2"}}));
  EXPECT_EQ(points[1].values.back().second, "4");
  EXPECT_EQ(points[2].values[3].second, "Crout");
  EXPECT_EQ(points[6].values[2].second, "2"); // NB advances after 3 RFACT x 2 NBMIN
  EXPECT_EQ(points[96].values[0].second, "1x4");
  // Every line's value is set: RFACT 0 = left-looking, BCAST 0 = 1ring, SWAP 2 = mix.
  EXPECT_TRUE(sets(first, "workload.hpl.pfact=LEFT"));
  EXPECT_TRUE(sets(first, "workload.hpl.bcast=ONE_RING"));
  EXPECT_TRUE(sets(first, "workload.hpl.swap=MIX"));
  EXPECT_TRUE(sets(first, "workload.hpl.swap_threshold=64"));
  EXPECT_TRUE(sets(first, "workload.column_major=false"));
  EXPECT_EQ(first.overrides.n, 29);
  EXPECT_EQ(first.overrides.nb, 1);
  EXPECT_EQ(first.overrides.depth, 0);
  // 4 ranks on nodes of 6 slots: one node of 4 ranks.
  EXPECT_EQ(first.overrides.nodes, 1);
  EXPECT_EQ(first.overrides.ppn, 4);
}

TEST(HplDatPoints, GridsFillTheNodesSlotsInTurn) {
  HplDat dat = read_hpl_dat(source("scenarios/hpl-dat/netlib-hpl-2.3-sample.dat"));
  dat.ps = {12, 5, 1};
  dat.qs = {24, 7, 1};
  const auto points = hpl_dat_points(dat, small_dragonfly(), {});
  // 288 ranks: 6 per node on 48 nodes; 35 ranks: 5 per node (the largest divisor <= 6) on 7; 1 rank: 1 node.
  EXPECT_EQ(points.front().overrides.nodes, 48);
  EXPECT_EQ(points.front().overrides.ppn, 6);
  EXPECT_EQ(points[96].overrides.nodes, 7);
  EXPECT_EQ(points[96].overrides.ppn, 5);
  EXPECT_EQ(points.back().overrides.nodes, 1);
  EXPECT_EQ(points.back().overrides.ppn, 1);
  // The placement differs between grids, so it is a column of the sweep.
  EXPECT_EQ(points.front().values[1], (std::pair<std::string, std::string>{"nodes", "48"}));
}

TEST(HplDatPoints, TheUsersOwnSetAppliesAfterTheHplDat) {
  const HplDat dat = read_hpl_dat(source("scenarios/hpl-dat/workstation-n12000.dat"));
  ScenarioOverrides user;
  user.set = {"workload.hpl.swap_threshold=32"};
  const auto points = hpl_dat_points(dat, small_dragonfly(), user);
  ASSERT_EQ(points.size(), 8u); // 2 grids x 4 NBs
  EXPECT_EQ(points[0].overrides.set.back(), "workload.hpl.swap_threshold=32");
  EXPECT_TRUE(sets(points[0], "workload.hpl.bcast=ONE_RING_M"));
}

TEST(HplDatPoints, AGridLargerThanTheMachineNamesThePsLine) {
  HplDat dat = read_hpl_dat(source("scenarios/hpl-dat/netlib-hpl-2.3-sample.dat"));
  dat.ps = {2, 17};
  dat.qs = {2, 17};
  try {
    hpl_dat_points(dat, small_dragonfly(), {});
    FAIL() << "17 x 17 = 289 ranks on 48 x 6 slots";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("netlib-hpl-2.3-sample.dat:11: Ps: grid 17 x 17 needs 289 ranks"),
              std::string::npos)
        << e.what();
  }
}

TEST(HplDatPoints, AnHplMxpMachineIsRefused) {
  const HplDat dat = read_hpl_dat(source("scenarios/hpl-dat/workstation-n12000.dat"));
  ScenarioOverrides mxp;
  mxp.set = {"workload.benchmark=HPL_MXP"};
  EXPECT_THROW(
      hpl_dat_points(dat, resolve(load_scenario(source("scenarios/small-dragonfly.textproto"), mxp)), {}),
      InputError);
}

} // namespace
} // namespace hplsim::sim
