// Strategies compared on common random numbers (sim/study/strategies.hpp), by hand.
#include "sim/study/strategies.hpp"

#include <cmath>

#include <gtest/gtest.h>

namespace hplsim::sim {
namespace {

TEST(Strategies, StudentsTQuantileMatchesTheTables) {
  // t_{0.975} (e.g. NIST/SEMATECH e-Handbook, table 1.3.6.7.2), to 3 decimals.
  EXPECT_NEAR(student_t_975(1), 12.706, 1e-3);
  EXPECT_NEAR(student_t_975(2), 4.303, 1e-3);
  EXPECT_NEAR(student_t_975(3), 3.182, 1e-3);
  EXPECT_NEAR(student_t_975(4), 2.776, 1e-3);
  EXPECT_NEAR(student_t_975(6), 2.447, 1e-3);
  EXPECT_NEAR(student_t_975(5), 2.571, 1e-3);
  EXPECT_NEAR(student_t_975(10), 2.228, 1e-3);
  EXPECT_NEAR(student_t_975(30), 2.042, 1e-3);
  EXPECT_NEAR(student_t_975(100000), 1.960, 1e-3);
}

TrialRow row(std::int64_t trial, bool completed, double time_s) {
  TrialRow r;
  r.trial = trial;
  r.completed = completed;
  r.time_s = time_s;
  r.rmax_flops_per_s = completed ? 1e18 / time_s : 0.0;
  return r;
}

TEST(Strategies, PairedDifferencesAndTheirIntervals) {
  // Times of the trials completed by both: a - b = 1, 2, 3 (mean 2, sd 1):
  // 2 +- t_{0.975,2} / sqrt(3) = 2 +- 2.484 (by hand).
  const std::vector<TrialRow> a = {row(0, true, 11), row(1, true, 12), row(2, true, 13), row(3, false, 5),
                                   row(4, true, 10)};
  const std::vector<TrialRow> b = {row(0, true, 10), row(1, true, 10), row(2, true, 10), row(3, true, 10),
                                   row(4, false, 4)};
  const StrategyComparison c = compare_paired("a", a, "b", b);
  EXPECT_EQ(c.time_s.pairs, 3);
  EXPECT_NEAR(c.time_s.mean, 2.0, 1e-12);
  EXPECT_NEAR(c.time_s.high - c.time_s.mean, 4.302652729749464 / std::sqrt(3.0), 1e-9);
  // Completion: 4 of 5 each, one discordant pair each way: difference 0,
  // variance (1 + 1 - 0) / 25 = 0.08, half-width 1.96 sqrt(0.08) = 0.554.
  EXPECT_EQ(c.p_complete.pairs, 5);
  EXPECT_NEAR(c.p_complete.mean, 0.0, 1e-12);
  EXPECT_NEAR(c.p_complete.high, 1.959963984540054 * std::sqrt(0.08), 1e-9);
  // The same rows: no difference, and an interval of width 0.
  const StrategyComparison same = compare_paired("a", a, "a", a);
  EXPECT_EQ(same.time_s.mean, 0.0);
  EXPECT_EQ(same.time_s.low, 0.0);
  EXPECT_EQ(same.time_s.high, 0.0);
  // Rows of other trials are refused, not compared.
  EXPECT_THROW(compare_paired("a", a, "b", {row(0, true, 1)}), std::invalid_argument);
}

} // namespace
} // namespace hplsim::sim
