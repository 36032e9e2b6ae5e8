// The sensitivity study's statistics (sim/study/sensitivity.hpp) on rows made
// here, whose figures are worked out by hand in the comments.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/study/sensitivity.hpp"
#include "tests/sim/cli/cli_runner.hpp"

namespace hplsim::sim {
namespace {

TrialRow row(std::int64_t trial, bool completed, double time_s, int flaps = 0) {
  TrialRow r;
  r.trial = trial;
  r.completed = completed;
  r.time_s = time_s;
  r.rmax_flops_per_s = completed ? 1e15 : 0.0;
  r.flaps_reached = flaps;
  return r;
}

// Two strategies, two scales, three trials; fault-free 100 s (A) and 101 s (B).
SensitivityStudy two_by_two() {
  SensitivityInput a{"p2p", 100.0, 1e15, {}}, b{"hybrid", 101.0, 1e15, {}};
  // Scale x0: no flaps, the fault-free times.
  for (int i = 0; i < 3; ++i) {
    a.rows.push_back(row(i, true, 100.0));
    b.rows.push_back(row(i, true, 101.0));
  }
  // Scale x1: A adds 1, 2, 3 s; B adds 2, 4 s and fails trial 2.
  a.rows.push_back(row(0, true, 101.0, 1));
  a.rows.push_back(row(1, true, 102.0, 2));
  a.rows.push_back(row(2, true, 103.0, 3));
  b.rows.push_back(row(0, true, 103.0, 1));
  b.rows.push_back(row(1, true, 105.0, 2));
  b.rows.push_back(row(2, false, 50.0, 3));
  return sensitivity_of({{0.0, 1.0}, {1.0, 1.0}}, 3, {a, b});
}

TEST(Sensitivity, EachCellHasItsTimeAddedAndPComplete) {
  const SensitivityStudy s = two_by_two();
  ASSERT_EQ(s.cells.size(), 4u); // strategy-major
  const SensitivityCell& a0 = s.cells[0];
  EXPECT_EQ(a0.strategy, "p2p");
  EXPECT_EQ(a0.time_added_s.mean, 0.0);
  EXPECT_EQ(a0.flaps_reached_mean, 0.0);
  const SensitivityCell& a1 = s.cells[1];
  // 1, 2, 3 s: mean 2, sd 1, t(2) 4.3027 / sqrt(3) = 2.4841 (tolerance: the t quantile's 1e-9).
  EXPECT_NEAR(a1.time_added_s.mean, 2.0, 1e-12);
  EXPECT_NEAR(a1.time_added_s.high - 2.0, 4.302652729749464 / std::sqrt(3.0), 1e-9);
  EXPECT_NEAR(a1.flaps_reached_mean, 2.0, 1e-12);
  EXPECT_EQ(a1.outcome.p_complete, 1.0);
  const SensitivityCell& b1 = s.cells[3];
  EXPECT_EQ(b1.strategy, "hybrid");
  // Completed: 103 and 105 s against 101 s -> 2 and 4 s, mean 3.
  EXPECT_NEAR(b1.time_added_s.mean, 3.0, 1e-12);
  EXPECT_EQ(b1.time_added_s.pairs, 2);
  EXPECT_NEAR(b1.outcome.p_complete, 2.0 / 3.0, 1e-12);
}

TEST(Sensitivity, StrategiesArePairedAtEachScale) {
  const SensitivityStudy s = two_by_two();
  ASSERT_EQ(s.differences.size(), 2u);
  // x0: A - B = -1 s in every pair: a zero-width interval.
  EXPECT_NEAR(s.differences[0].comparison.time_s.mean, -1.0, 1e-12);
  EXPECT_NEAR(s.differences[0].comparison.time_s.low, -1.0, 1e-12);
  // x1: the pairs completed under both, trials 0 and 1: 101-103, 102-105 -> -2, -3.
  EXPECT_EQ(s.differences[1].comparison.time_s.pairs, 2);
  EXPECT_NEAR(s.differences[1].comparison.time_s.mean, -2.5, 1e-12);
  // P(complete): 1 - 2/3.
  EXPECT_NEAR(s.differences[1].comparison.p_complete.mean, 1.0 / 3.0, 1e-12);
}

TEST(Sensitivity, RowsThatAreNotTheSameTrialsAreRefused) {
  SensitivityInput a{"p2p", 100.0, 1e15, {row(0, true, 100), row(1, true, 100)}};
  SensitivityInput b{"hybrid", 100.0, 1e15, {row(0, true, 100), row(2, true, 100)}};
  EXPECT_THROW(sensitivity_of({{1.0, 1.0}}, 2, {a, b}), std::invalid_argument);
  EXPECT_THROW(sensitivity_of({{1.0, 1.0}, {2.0, 1.0}}, 2, {a}), std::invalid_argument); // 2 rows, not 4
}

TEST(Sensitivity, TheFilesHaveARowPerCellAndAPanelPerDuration) {
  const SensitivityStudy s = two_by_two();
  testing::TempDir dir;
  write_sensitivity_csv(s, (dir / "s.csv").string());
  write_sensitivity_differences_csv(s, (dir / "d.csv").string());
  write_sensitivity_svg(s, (dir / "s.svg").string());
  const std::string csv = testing::read_text(dir / "s.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5); // header + 4 cells
  EXPECT_NE(csv.find("\nhybrid,1,1,3,2,0,2,"), std::string::npos) << csv;
  const std::string d = testing::read_text(dir / "d.csv");
  EXPECT_EQ(std::count(d.begin(), d.end(), '\n'), 3);
  const std::string svg = testing::read_text(dir / "s.svg");
  // One duration: a time panel, and a P(complete) panel since a run failed.
  EXPECT_NE(svg.find("Time the flaps add to a run, flap durations x1"), std::string::npos);
  EXPECT_NE(svg.find("P(complete), flap durations x1"), std::string::npos);
  EXPECT_NE(svg.find(">hybrid<"), std::string::npos); // the legend
}

} // namespace
} // namespace hplsim::sim
