// The outcome statistics of the trials (sim/study/outcome.hpp), by hand.
#include "sim/study/outcome.hpp"

#include <gtest/gtest.h>

namespace hplsim::sim {
namespace {

TEST(Outcome, PercentilesInterpolateBetweenOrderStatistics) {
  // 1..5: p50 = 3; p5 at rank 0.2 = 1.2; p95 at rank 3.8 = 4.8 (numpy's default).
  const Spread s = spread_of({5, 1, 4, 2, 3});
  EXPECT_EQ(s.count, 5);
  EXPECT_DOUBLE_EQ(s.mean, 3.0);
  EXPECT_DOUBLE_EQ(s.p50, 3.0);
  EXPECT_NEAR(s.p5, 1.2, 1e-12);
  EXPECT_NEAR(s.p95, 4.8, 1e-12);
  EXPECT_EQ(spread_of({}).count, 0);
}

TEST(Outcome, WilsonIntervalMatchesItsFormula) {
  // 8 of 10 at z = 1.96: center (0.8 + 0.192) / 1.384 = 0.71676, half
  // 1.96 sqrt(0.016 + 0.009604) / 1.384 = 0.22663 (by hand, Wilson 1927).
  const Interval i = wilson_interval(8, 10, 1.96);
  EXPECT_NEAR(i.low, 0.71676 - 0.22663, 1e-4);
  EXPECT_NEAR(i.high, 0.71676 + 0.22663, 1e-4);
  // 0 of 10 keeps a non-empty interval from 0.
  EXPECT_DOUBLE_EQ(wilson_interval(0, 10).low, 0.0);
  EXPECT_GT(wilson_interval(0, 10).high, 0.2);
}

TEST(Outcome, ExpectedTimeToResultCountsTheFailedAttemptsAndTheirRestarts) {
  // Two completed runs of 100 s, two failed after 30 and 50 s, restart 10 s:
  // p = 0.5, E[F] = 1 failed attempt of 40 s + 10 s, then 100 s: 150 s.
  std::vector<TrialRow> rows(4);
  for (int i = 0; i < 4; ++i) {
    rows[i].trial = i;
    rows[i].restart_setup_s = 10.0;
  }
  rows[0].completed = rows[1].completed = true;
  rows[0].time_s = rows[1].time_s = 100.0;
  rows[2].time_s = 30.0;
  rows[3].time_s = 50.0;
  const Outcome o = outcome_of(rows, std::nullopt, 100.0);
  EXPECT_DOUBLE_EQ(o.p_complete, 0.5);
  ASSERT_TRUE(o.expected_time_to_result_s);
  EXPECT_DOUBLE_EQ(*o.expected_time_to_result_s, 150.0);
  EXPECT_FALSE(o.closed_form_p_complete);
  // None completed: no finite expectation.
  rows[0].completed = rows[1].completed = false;
  EXPECT_FALSE(outcome_of(rows, std::nullopt, 100.0).expected_time_to_result_s);
}

} // namespace
} // namespace hplsim::sim
