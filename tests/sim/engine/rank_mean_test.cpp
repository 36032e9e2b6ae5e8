// The rank-mean phase times from the simulated ranks (sim/engine/rank_mean.hpp): the
// plain mean when every rank is simulated, the two strata of a folded window.
#include <gtest/gtest.h>

#include "sim/engine/rank_mean.hpp"

namespace hplsim::sim {
namespace {

constexpr auto kPfact = static_cast<std::size_t>(PhaseId::Pfact);
constexpr auto kBcast = static_cast<std::size_t>(PhaseId::Bcast);
constexpr auto kSwap = static_cast<std::size_t>(PhaseId::Swap);

RankPhases phases(double pfact, double bcast, double swap) {
  RankPhases r{};
  r[kPfact] = pfact;
  r[kBcast] = bcast;
  r[kSwap] = swap;
  return r;
}

TEST(RankMean, EveryRankSimulatedGivesThePlainMean) {
  const std::vector<RankPhases> all = {phases(1, 1, 2), phases(1, 2, 2), phases(0, 3, 4), phases(0, 6, 4)};
  const auto m = estimate_rank_mean(all, 4);
  EXPECT_NEAR(m[kPfact], 0.5, 1e-15); // (1 + 1) / 4
  EXPECT_NEAR(m[kBcast], 3.0, 1e-15); // (1 + 2 + 3 + 6) / 4
  EXPECT_NEAR(m[kSwap], 3.0, 1e-15);  // (2 + 2 + 4 + 4) / 4
}

TEST(RankMean, TheSimulatedNonFactoringRanksStandForTheFoldedOnes) {
  // 12 ranks; simulated: the 2 factoring ranks (their whole column) and 2
  // others, which stand for the 10 non-factoring ranks:
  // bcast (1 + 2 + 10 x (3 + 5) / 2) / 12 = 43 / 12, pfact (1 + 1) / 12.
  const std::vector<RankPhases> band = {phases(1, 1, 2), phases(1, 2, 2), phases(0, 3, 4), phases(0, 5, 6)};
  const auto m = estimate_rank_mean(band, 12);
  EXPECT_NEAR(m[kPfact], 2.0 / 12.0, 1e-15);
  EXPECT_NEAR(m[kBcast], 43.0 / 12.0, 1e-15);
  EXPECT_NEAR(m[kSwap], (4.0 + 10.0 * 5.0) / 12.0, 1e-15);
}

} // namespace
} // namespace hplsim::sim
