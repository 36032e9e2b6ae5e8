// Pre-screening: the slowest nodes are dropped, deterministically.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "models/prescreen.hpp"

namespace hm = hplsim::models;

TEST(Prescreen, DropsExactlyTheDegradedNodes) {
  hm::VariabilityParams p;
  p.set_degraded_fraction(0.1);
  p.set_degraded_rate_factor(0.6);
  const hm::Variability v(p, 200, 6, 99, "");
  const std::vector<int> kept = hm::prescreen(v, 200, 0.1);
  EXPECT_EQ(kept.size(), 180u); // round(0.1 * 200) = 20 dropped
  EXPECT_TRUE(std::is_sorted(kept.begin(), kept.end()));
  for (int n : kept)
    EXPECT_FALSE(v.is_degraded(n)) << n;
}

TEST(Prescreen, RanksNodesByTheirSlowestGpu) {
  hm::VariabilityParams p;
  p.set_gpu_rate_cv(0.2);
  const hm::Variability v(p, 50, 6, 4, "");
  const std::vector<int> kept = hm::prescreen(v, 50, 0.2);
  ASSERT_EQ(kept.size(), 40u);
  double slowest_kept = 1e9, fastest_dropped = 0.0;
  for (int n = 0; n < 50; ++n) {
    const bool is_kept = std::binary_search(kept.begin(), kept.end(), n);
    const double s = hm::node_speed(v, n);
    if (is_kept)
      slowest_kept = std::min(slowest_kept, s);
    else
      fastest_dropped = std::max(fastest_dropped, s);
  }
  EXPECT_LE(fastest_dropped, slowest_kept);
}

TEST(Prescreen, TiesDropLowerIdsFirst) {
  const hm::Variability v(hm::VariabilityParams{}, 10, 0, 1, "");
  EXPECT_EQ(hm::prescreen(v, 10, 0.3), (std::vector<int>{3, 4, 5, 6, 7, 8, 9}));
}

TEST(Prescreen, ConsidersOnlyTheFirstNodes) {
  const hm::Variability v(hm::VariabilityParams{}, 10, 0, 1, "");
  EXPECT_EQ(hm::prescreen(v, 4, 0.0), (std::vector<int>{0, 1, 2, 3}));
}

TEST(Prescreen, RejectsFractionAboveOne) {
  const hm::Variability v(hm::VariabilityParams{}, 10, 0, 1, "");
  EXPECT_THROW(hm::prescreen(v, 10, 1.5), std::invalid_argument);
}

TEST(Prescreen, RejectsMoreNodesThanDrawn) {
  const hm::Variability v(hm::VariabilityParams{}, 10, 0, 1, "");
  EXPECT_THROW(hm::prescreen(v, 11, 0.1), std::invalid_argument);
}
