// The sensitivity study's statistics (sim/study/sensitivity.hpp) on rows made
// here, whose figures are worked out by hand in the comments.
#include <cmath>
#include <sstream>
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

// The recovery axis: HYBRID and COLLECTIVE at recovery 0, 1 and 4 s, four
// trials each. Trial 0 meets no stalled collective (both runs the same at
// every value); trial 1 stalls a collective both have (each run +D); trials 2
// and 3 stall a first-column exchange, which COLLECTIVE pays and HYBRID does
// not (COLLECTIVE +D, and trial 3 another +D/2 elsewhere, paid by both).
struct Axis {
  std::vector<std::vector<TrialRow>> hybrid, collective;
};
Axis axis(const std::vector<double>& recoveries) {
  Axis x;
  for (const double d : recoveries) {
    x.hybrid.push_back(
        {row(0, true, 10.0), row(1, true, 10.0 + d), row(2, true, 11.0), row(3, true, 12.0 + d / 2)});
    x.collective.push_back(
        {row(0, true, 10.0), row(1, true, 10.0 + d), row(2, true, 11.0 + d), row(3, true, 12.0 + 1.5 * d)});
  }
  return x;
}

TEST(RecoveryParting, TheThresholdIsTheSmallestValueWhoseGapChangeIsClearOfZero) {
  const Axis x = axis({0.0, 1.0, 4.0});
  const RecoveryParting p =
      recovery_parting({1.0, 1.0}, "hybrid", "collective", {0.0, 1.0, 4.0}, x.hybrid, x.collective);
  ASSERT_EQ(p.steps.size(), 2u);
  EXPECT_EQ(p.base_s, 0.0);
  // At D = 1: gap changes 0, 0, -1, -1: mean -0.5, sd 0.57735, t(3) 3.18245 x 0.57735 / 2 = 0.91869:
  // [-1.419, 0.419] holds 0. At D = 4: 0, 0, -4, -4, the same interval x 4: holds 0 too.
  EXPECT_NEAR(p.steps[0].gap_change_s.mean, -0.5, 1e-12);
  EXPECT_NEAR(p.steps[0].gap_change_s.high, -0.5 + 3.182446305284263 * std::sqrt(1.0 / 3.0) / 2.0, 1e-9);
  EXPECT_EQ(p.steps[0].trials_moved, 3); // trials 1, 2, 3
  EXPECT_EQ(p.steps[0].gap_moved, 2);    // trials 2, 3
  EXPECT_FALSE(p.steps[0].parts);
  EXPECT_FALSE(p.threshold_s);
  // With trials 0 and 1 stalling first columns too (every trial's gap moves by -D), D = 1 parts them.
  Axis y = x;
  for (std::size_t k = 0; k < 3; ++k)
    for (std::size_t i = 0; i < 2; ++i)
      y.collective[k][i].time_s += std::vector<double>{0.0, 1.0, 4.0}[k];
  const RecoveryParting q =
      recovery_parting({1.0, 1.0}, "hybrid", "collective", {0.0, 1.0, 4.0}, y.hybrid, y.collective);
  // Gap changes -1 in every trial at D = 1: a zero-width interval at -1.
  EXPECT_NEAR(q.steps[0].gap_change_s.mean, -1.0, 1e-12);
  EXPECT_NEAR(q.steps[0].gap_change_s.high, -1.0, 1e-12);
  EXPECT_TRUE(q.steps[0].parts);
  ASSERT_TRUE(q.threshold_s);
  EXPECT_EQ(*q.threshold_s, 1.0);
}

TEST(RecoveryParting, NoStallNoParting) {
  // Every run the same at every value: the gap's change is exactly 0.
  std::vector<std::vector<TrialRow>> a(2, {row(0, true, 10.0), row(1, true, 11.0), row(2, false, 3.0)});
  std::vector<std::vector<TrialRow>> b(2, {row(0, true, 10.5), row(1, true, 11.2), row(2, true, 12.0)});
  const RecoveryParting p = recovery_parting({1.0, 1.0}, "hybrid", "collective", {0.0, 8.0}, a, b);
  ASSERT_EQ(p.steps.size(), 1u);
  EXPECT_EQ(p.steps[0].gap_change_s.pairs, 2); // trial 2 failed under hybrid
  EXPECT_EQ(p.steps[0].gap_change_s.mean, 0.0);
  EXPECT_EQ(p.steps[0].trials_moved, 0);
  EXPECT_FALSE(p.threshold_s);
  // Unsorted values, or rows of other trials, are refused.
  EXPECT_THROW(recovery_parting({1.0, 1.0}, "a", "b", {8.0, 0.0}, a, b), std::invalid_argument);
  b[1][0].trial = 5;
  EXPECT_THROW(recovery_parting({1.0, 1.0}, "a", "b", {0.0, 8.0}, a, b), std::invalid_argument);
}

TEST(Sensitivity, TheRecoveryAxisPairsStrategiesAtEachValueAndPartsThem) {
  const std::vector<double> values{0.0, 1.0, 4.0};
  const Axis x = axis(values);
  std::vector<SensitivityInput> inputs;
  for (const auto* rows : {&x.hybrid, &x.collective})
    for (std::size_t k = 0; k < values.size(); ++k)
      inputs.push_back({rows == &x.hybrid ? "hybrid" : "collective", 10.0, 1e15, (*rows)[k], values[k]});
  const SensitivityStudy s = sensitivity_of({{1.0, 1.0}}, 4, inputs, values);
  ASSERT_EQ(s.cells.size(), 6u);
  EXPECT_EQ(s.cells[2].strategy, "hybrid");
  EXPECT_EQ(s.cells[2].collective_recovery_s, 4.0);
  ASSERT_EQ(s.differences.size(), 3u); // one pair at each value
  EXPECT_EQ(s.differences[2].collective_recovery_s, 4.0);
  // At 4 s hybrid - collective per trial: 0, 0, -4, -4: mean -2.
  EXPECT_NEAR(s.differences[2].comparison.time_s.mean, -2.0, 1e-12);
  ASSERT_EQ(s.partings.size(), 1u);
  EXPECT_EQ(s.partings[0].steps.size(), 2u);
  // An input out of its place (collective's values in another order) is refused.
  std::swap(inputs[3], inputs[4]);
  EXPECT_THROW(sensitivity_of({{1.0, 1.0}}, 4, inputs, values), std::invalid_argument);
  // The files carry the recovery column; the parting file a row per value above the smallest.
  const SensitivityStudy ok = sensitivity_of(
      {{1.0, 1.0}}, 4,
      [&] {
        std::swap(inputs[3], inputs[4]);
        return inputs;
      }(),
      values);
  testing::TempDir dir;
  write_sensitivity_csv(ok, (dir / "s.csv").string());
  write_sensitivity_recovery_csv(ok, (dir / "r.csv").string());
  const std::string csv = testing::read_text(dir / "s.csv");
  EXPECT_EQ(csv.rfind("panel_exchange,collective_recovery_s,rate_scale,", 0), 0u) << csv;
  EXPECT_NE(csv.find("\ncollective,4,1,1,4,"), std::string::npos) << csv;
  const std::string r = testing::read_text(dir / "r.csv");
  EXPECT_EQ(std::count(r.begin(), r.end(), '\n'), 3) << r;
  EXPECT_NE(r.find("\n1,1,hybrid,collective,0,4,4,-2,"), std::string::npos) << r;
  std::ostringstream out;
  print_sensitivity(ok, out);
  EXPECT_NE(out.str().find("threshold: none of the values parts them: the gap moved in 2 of 4 pairs"),
            std::string::npos)
      << out.str();
}

} // namespace
} // namespace hplsim::sim
