// Capacity planning's figures (sim/study/plan.hpp), against closed forms.
#include "sim/study/plan.hpp"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "sim/report/interval_plot_svg.hpp"

namespace hplsim::sim {
namespace {

TrialRow row(bool completed, double time_s, double rmax = 1e18) {
  TrialRow r;
  r.completed = completed;
  r.time_s = time_s;
  r.rmax_flops_per_s = completed ? rmax : 0.0;
  r.lost_work_s = completed ? 0.0 : time_s;
  r.restart_setup_s = 1000.0;
  return r;
}

// Every completed run takes T = 3,000 s, every failed one ends at X = 2,000 s,
// R = 1,000 s. A result by H needs k failures then a success with
// k (X + R) + T <= H, so P = sum_{k=0}^{m} p (1 - p)^k = 1 - (1 - p)^{m+1},
// m = floor((H - T) / (X + R)). The times fall on the grid, so the grid's
// rounding costs nothing here.
TEST(Plan, PResultWithinTheWindowIsTheGeometricSum) {
  std::vector<TrialRow> rows;
  for (int i = 0; i < 6; ++i)
    rows.push_back(row(true, 3000));
  for (int i = 0; i < 4; ++i)
    rows.push_back(row(false, 2000));
  const double p = 0.6;
  for (const double hours : {0.5, 1.0, 2.0, 5.0}) {
    const double h_s = hours * 3600;
    const int m = h_s < 3000 ? -1 : static_cast<int>(std::floor((h_s - 3000) / 3000));
    const double expected = 1.0 - std::pow(1.0 - p, m + 1);
    EXPECT_NEAR(p_result_within(rows, p, 1000, h_s, 3600), expected, 1e-9) << hours;
  }
  // Weighted at another p, the same sum at that p (the interval's bounds).
  EXPECT_NEAR(p_result_within(rows, 0.3, 1000, 2 * 3600.0, 3600), 1 - std::pow(0.7, 1 + 1), 1e-9); // m = 1
  // Nothing completed: no result, whatever the window.
  EXPECT_EQ(p_result_within({row(false, 10)}, 0.0, 0, 1e6), 0.0);
}

TEST(Plan, ExpectedTimeToResultIsTheRenewalFormula) {
  // (1 - p) / p (X + R) + T = 0.25 / 0.75 x 3000 + 3000 = 4000 s (by hand).
  EXPECT_NEAR(expected_time_to_result_at(0.75, 2000, 1000, 3000), 4000.0, 1e-9);
  EXPECT_TRUE(std::isinf(expected_time_to_result_at(0.0, 2000, 1000, 3000)));
}

TrialsResult trials_at(int nodes, int completed, int failed, double time_s, double rmax) {
  TrialsResult t;
  t.fault_free.nodes = nodes;
  t.fault_free.time_s = time_s;
  t.fault_free.rmax_flops_per_s = rmax;
  t.fault_free.completed = true;
  for (int i = 0; i < completed; ++i)
    t.trials.push_back(row(true, time_s, rmax));
  for (int i = 0; i < failed; ++i)
    t.trials.push_back(row(false, time_s / 2));
  return t;
}

TEST(Plan, APointsIntervalsComeFromPCompletesWilsonBounds) {
  const PlanPoint p = plan_point(trials_at(100, 30, 10, 3600, 2e18), 24 * 3600.0);
  EXPECT_EQ(p.trials, 40);
  EXPECT_EQ(p.completed, 30);
  EXPECT_DOUBLE_EQ(p.p_complete, 0.75);
  const Interval w = wilson_interval(30, 40);
  EXPECT_DOUBLE_EQ(p.p_complete_low, w.low);
  EXPECT_DOUBLE_EQ(p.p_complete_high, w.high);
  // X = 1,800 s, R = 1,000 s, T = 3,600 s.
  EXPECT_NEAR(p.time_to_result_s, expected_time_to_result_at(0.75, 1800, 1000, 3600), 1e-6);
  EXPECT_NEAR(p.time_to_result_low_s, expected_time_to_result_at(w.high, 1800, 1000, 3600), 1e-6);
  EXPECT_NEAR(p.time_to_result_high_s, expected_time_to_result_at(w.low, 1800, 1000, 3600), 1e-6);
  // In 24 h nearly every attempt sequence succeeds: the three agree to rounding.
  EXPECT_LE(p.rmax_in_window_low, p.rmax_in_window_flops_per_s * (1 + 1e-12));
  EXPECT_LE(p.rmax_in_window_flops_per_s, p.rmax_in_window_high * (1 + 1e-12));
  EXPECT_LE(p.rmax_in_window_high, 2e18 * (1 + 1e-12));
}

TEST(Plan, FastModesSamplingErrorWidensTheIntervalsByTwiceIt) {
  TrialsResult t = trials_at(100, 40, 0, 3600, 2e18);
  t.fault_free.rmax_sampling_error_fraction = 0.01;
  const PlanPoint p = plan_point(t, 24 * 3600.0);
  // Every trial completed: P(result in 24 h) = 1 at every p, so the Rmax
  // bounds are the sampling error's alone: +-2 x 1%. The time to a result at
  // Wilson's bounds (no failed attempt: X = 0, R = 1,000 s), then +-2%.
  const Interval w = wilson_interval(40, 40);
  EXPECT_NEAR(p.rmax_in_window_low, 2e18 * 0.98, 1e6);
  EXPECT_NEAR(p.rmax_in_window_high, 2e18 * 1.02, 1e6);
  EXPECT_NEAR(p.time_to_result_low_s, expected_time_to_result_at(w.high, 0, 1000, 3600) * 0.98, 1e-9);
  EXPECT_NEAR(p.time_to_result_high_s, expected_time_to_result_at(w.low, 0, 1000, 3600) * 1.02, 1e-9);
}

TEST(Plan, TheBestPointIsNamedAndSaidToBeClearOnlyWhenItsIntervalIs) {
  std::vector<PlanPoint> points(3);
  for (int i = 0; i < 3; ++i) {
    points[i].nodes = 100 * (i + 1);
    points[i].simulated = true;
    points[i].completed = 10;
  }
  // time-to-result: 10 h [9, 11], 8 h [7, 9.5], 12 h [11, 13].
  const double h = 3600;
  const double ttr[3][3] = {{10, 9, 11}, {8, 7, 9.5}, {12, 11, 13}};
  for (int i = 0; i < 3; ++i) {
    points[i].time_to_result_s = ttr[i][0] * h;
    points[i].time_to_result_low_s = ttr[i][1] * h;
    points[i].time_to_result_high_s = ttr[i][2] * h;
  }
  Best b = best_point(points, Objective::TimeToResult);
  ASSERT_TRUE(b.index);
  EXPECT_EQ(*b.index, 1u);
  EXPECT_FALSE(b.separated); // 9.5 h overlaps the first point's 9 h
  points[1].time_to_result_high_s = 8.5 * h;
  EXPECT_TRUE(best_point(points, Objective::TimeToResult).separated);
  // A point with no completed trial never wins.
  points[1].completed = 0;
  EXPECT_EQ(*best_point(points, Objective::TimeToResult).index, 0u);
}

TEST(Plan, TheFigureMarksTheBestPointAndIsDeterministic) {
  IntervalPanel panel;
  panel.title = "t";
  panel.y_label = "EF/s";
  panel.x = {7000, 8000, 9234};
  panel.y = {1.1, 1.3, std::nan("")};
  panel.low = {1.0, 1.2, std::nan("")};
  panel.high = {1.2, 1.4, std::nan("")};
  panel.best = 1;
  const std::string svg = interval_plot_svg("nodes", {panel});
  EXPECT_EQ(svg, interval_plot_svg("nodes", {panel}));
  EXPECT_NE(svg.find("class=\"best\""), std::string::npos);
  EXPECT_NE(svg.find(">none<"), std::string::npos); // the point with no value says so
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
}

} // namespace
} // namespace hplsim::sim
