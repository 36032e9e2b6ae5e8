// The wall time to a first result with restarts (sim/report/result_time.hpp)
// against the geometric sum worked by hand.
#include "sim/report/result_time.hpp"

#include <gtest/gtest.h>

namespace hplsim::sim {
namespace {

// P(a result by t) at the grid point nearest t.
double at(const std::vector<std::pair<double, double>>& cdf, double t) {
  std::size_t best = 0;
  for (std::size_t i = 0; i < cdf.size(); ++i)
    if (std::abs(cdf[i].first - t) < std::abs(cdf[best].first - t)) best = i;
  return cdf[best].second;
}

TEST(ResultTime, HalfTheRunsFailingGivesTheGeometricSteps) {
  // Half the trials complete at 10 s, half fail at 5 s and restart after 5 s:
  // a result at 10 s with probability 1/2, at 20 s with 1/4, at 30 s with 1/8, ...
  // A grid of 700 steps over 70 s: 0.1 s, on which every attempt's time falls.
  const auto cdf = result_time_cdf({10.0, 10.0}, {5.0, 5.0}, 5.0, 700);
  ASSERT_EQ(cdf.size(), 701u);
  // 99% of the results are in after ceil(log 0.01 / log 0.5) = 7 attempts: 10 + 6 x 10 s.
  EXPECT_NEAR(cdf.back().first, 70.0, 1e-9);
  EXPECT_NEAR(at(cdf, 9.0), 0.0, 1e-12);
  EXPECT_NEAR(at(cdf, 10.0), 0.5, 1e-12);
  EXPECT_NEAR(at(cdf, 15.0), 0.5, 1e-12);
  EXPECT_NEAR(at(cdf, 20.0), 0.75, 1e-12);
  EXPECT_NEAR(at(cdf, 30.0), 0.875, 1e-12);
  EXPECT_NEAR(at(cdf, 70.0), 1.0 - 1.0 / 128.0, 1e-12); // 7 attempts: 1 - 2^-7
}

TEST(ResultTime, EveryRunCompletingIsTheRunTimesOwnDistribution) {
  const auto cdf = result_time_cdf({4.0, 8.0}, {}, 60.0, 8);
  ASSERT_EQ(cdf.size(), 9u); // 0, 1, ..., 8 s
  EXPECT_NEAR(at(cdf, 3.0), 0.0, 1e-12);
  EXPECT_NEAR(at(cdf, 4.0), 0.5, 1e-12);
  EXPECT_NEAR(at(cdf, 8.0), 1.0, 1e-12);
}

TEST(ResultTime, NoCompletedTrialGivesNoCurve) {
  EXPECT_TRUE(result_time_cdf({}, {5.0}, 60.0).empty());
}

} // namespace
} // namespace hplsim::sim
