// PhaseAccounts::add_outside (Recv.timer_outside_gemm): an interval counted
// only where none of the step's GEMM intervals runs, settled when the step closes.
#include <cstddef>
#include <limits>

#include <gtest/gtest.h>

#include "sim/engine/phase_accounts.hpp"

namespace hplsim::sim {
namespace {

RankPhases close_all(PhaseAccounts& a) {
  RankPhases out{};
  a.close(
      std::numeric_limits<std::size_t>::max(), [](std::size_t) { return false; },
      [&](std::size_t, const RankPhases& p) { out = p; });
  return out;
}

constexpr auto kSwap = static_cast<std::size_t>(PhaseId::Swap);
constexpr auto kGemm = static_cast<std::size_t>(PhaseId::Gemm);

TEST(PhaseAccounts, OutsideGemmCountsOnlyWhereNoGemmRuns) {
  PhaseAccounts a;
  a.open(0);
  // A wait for the panel over [1, 10]; GEMMs over [0, 4] and [6, 7], one added after the wait.
  a.add(0, static_cast<int>(kGemm), 0.0, 4.0);
  a.add(0, PhaseAccounts::outside_gemm(static_cast<int>(kSwap)), 1.0, 10.0);
  a.add(0, static_cast<int>(kGemm), 6.0, 7.0);
  a.add(0, static_cast<int>(kSwap), 9.5, 11.0); // the swap itself, overlapping the wait's tail
  const RankPhases p = close_all(a);
  // Outside the GEMMs: [4, 6] and [7, 10] = 5 s, joined with the swap [9.5, 11] = 6 s in all.
  EXPECT_NEAR(p[kSwap], 6.0, 1e-12);
  EXPECT_NEAR(p[kGemm], 5.0, 1e-12);
}

TEST(PhaseAccounts, OutsideGemmIsWholeWithoutGemmAndNothingUnderIt) {
  PhaseAccounts a;
  a.open(0);
  a.add(0, PhaseAccounts::outside_gemm(static_cast<int>(kSwap)), 2.0, 3.0);
  EXPECT_NEAR(close_all(a)[kSwap], 1.0, 1e-12);
  a.open(1);
  a.add(1, static_cast<int>(kGemm), 0.0, 5.0);
  a.add(1, PhaseAccounts::outside_gemm(static_cast<int>(kSwap)), 2.0, 3.0);
  EXPECT_EQ(close_all(a)[kSwap], 0.0);
}

} // namespace
} // namespace hplsim::sim
