// The crossover, the sustained rate drop and the looser GEMM-below-
// communication measure (sim/report/crossover.hpp) on synthetic step records
// whose answers follow from their construction.
#include <cstdint>
#include <optional>

#include <gtest/gtest.h>

#include "sim/report/crossover.hpp"

namespace hplsim::sim {
namespace {

void set(StepRecord& r, PhaseId id, double s) {
  r.phase_s[static_cast<std::size_t>(id)] = s;
}

/// `steps` panel steps of GEMM 1 s (TRSM 0) and 1e12 flops each, N = steps *
/// 100, NB = 100; step k lasts duration(k) s; then a final-solve record.
template <class Duration> RunResult run_of(int steps, Duration duration) {
  RunResult r;
  r.n = steps * 100;
  r.nb = 100;
  r.steps = steps;
  double t = 0.0;
  for (int k = 0; k < steps; ++k) {
    StepRecord s;
    s.step = k;
    set(s, PhaseId::Gemm, 1.0);
    s.start_s = t;
    t += duration(k);
    s.end_s = t;
    s.flops = 1e12;
    r.step_records.push_back(s);
  }
  StepRecord solve;
  solve.step = steps;
  solve.final_solve = true;
  solve.start_s = t;
  solve.end_s = t + 5.0; // a long solve is not a panel step: it must not count
  r.step_records.push_back(solve);
  return r;
}

// Steps of 1 s to step 119, then 1 + 0.01 (k - 119) s: the update's share
// 1 / (1 + 0.01 (k - 119)) is 2% below its early level (1) from k = 122
// (1/1.03 = 0.971; k = 121 gives 1/1.02 = 0.980, not below). 200 steps: the
// majority is taken over the 5 steps k-2..k+2, and step 122's has 122-124.
TEST(Crossover, WhereTheUpdatesShareOfTheStepFalls2Percent) {
  const RunResult r = run_of(200, [](int k) { return k < 120 ? 1.0 : 1.0 + 0.01 * (k - 119); });
  EXPECT_EQ(crossover_step(r), std::optional<std::int64_t>(122));
  ASSERT_TRUE(crossover_fraction(r).has_value());
  EXPECT_NEAR(*crossover_fraction(r), 0.61, 1e-12); // 122 * 100 / 20000
  // The rate (1e12 flops per step) falls with the share: the same step.
  EXPECT_EQ(rate_drop_step(r), std::optional<std::int64_t>(122));
}

// A single slow step, or two, is not a drop: most of the steps around it are
// not below. Three in a row inside the 5-step neighbourhood are.
TEST(Crossover, ASingleSlowStepDoesNotCount) {
  RunResult r = run_of(200, [](int k) { return k == 50 || k == 199 ? 2.0 : 1.0; });
  EXPECT_EQ(crossover_step(r), std::nullopt);
  EXPECT_EQ(rate_drop_step(r), std::nullopt);
  r = run_of(200, [](int k) { return k >= 197 ? 2.0 : 1.0; });
  // 196's neighbourhood 194..198 holds two (197, 198); 197's 195..199 three.
  EXPECT_EQ(crossover_step(r), std::optional<std::int64_t>(197));
}

// The early level is the run's own: a grid that waits on the panel chain from
// the first step (the update's share 0.74, as on one Aurora node) is not
// past its crossover at step 0; it is once the share falls further.
TEST(Crossover, MeasuredAgainstTheRunsOwnEarlyLevel) {
  RunResult r = run_of(100, [](int k) { return k < 60 ? 1.35 : 1.6; });
  EXPECT_EQ(crossover_step(r), std::optional<std::int64_t>(60));
  r = run_of(100, [](int) { return 1.35; });
  EXPECT_EQ(crossover_step(r), std::nullopt);
}

// GEMM getting slower (smaller trailing matrices) drops the rate but not the
// update's share: a rate drop without a crossover.
TEST(Crossover, ASlowerGemmIsARateDropNotACrossover) {
  RunResult r = run_of(100, [](int k) { return k < 50 ? 1.0 : 1.1; });
  for (StepRecord& s : r.step_records)
    if (!s.final_solve && s.step >= 50) set(s, PhaseId::Gemm, 1.1);
  EXPECT_EQ(crossover_step(r), std::nullopt);
  EXPECT_EQ(rate_drop_step(r), std::optional<std::int64_t>(50));
}

TEST(Crossover, NoneWithoutTimedPanelSteps) {
  RunResult r;
  EXPECT_EQ(crossover_step(r), std::nullopt);
  EXPECT_EQ(rate_drop_step(r), std::nullopt);
  EXPECT_EQ(crossover_fraction(r), std::nullopt);
  r = run_of(10, [](int) { return 0.0; });
  EXPECT_EQ(crossover_step(r), std::nullopt);
}

/// 10 panel steps: gemm_k = 10 - k s, swap 4.5 s, pfact + bcast 1 s.
RunResult gemm_against_comm() {
  RunResult r = run_of(10, [](int) { return 1.0; });
  for (StepRecord& s : r.step_records) {
    if (s.final_solve) continue;
    set(s, PhaseId::Gemm, 10.0 - double(s.step));
    set(s, PhaseId::Swap, 4.5);
    set(s, PhaseId::Pfact, 0.5);
    set(s, PhaseId::Bcast, 0.5);
  }
  return r;
}

TEST(GemmBelowPhase, FirstStepFromWhichGemmStaysBelowTheLargestOtherPhaseAndWhichOne) {
  // gemm 10 - k against swap 4.5: below from step 6 (10 - 6 < 4.5), most of
  // the steps within h = 2 of step 6 (6, 7, 8 of 4-8) below, of step 5 not.
  RunResult r = gemm_against_comm();
  auto below = gemm_below_phase(r);
  ASSERT_TRUE(below.has_value());
  EXPECT_EQ(below->step, 6);
  EXPECT_EQ(below->phase, PhaseId::Swap);
  // The same wait charged to BCAST (5.5 s) and no swap: below BCAST from step 5.
  for (StepRecord& s : r.step_records) {
    set(s, PhaseId::Swap, 0.0);
    set(s, PhaseId::Bcast, 5.5);
  }
  below = gemm_below_phase(r);
  ASSERT_TRUE(below.has_value());
  EXPECT_EQ(below->step, 5);
  EXPECT_EQ(below->phase, PhaseId::Bcast);
  // GEMM the largest to the end: none.
  for (StepRecord& s : r.step_records)
    set(s, PhaseId::Gemm, 100.0);
  EXPECT_EQ(gemm_below_phase(r), std::nullopt);
}

TEST(GemmBelowComm, FirstStepOfTheTailWhereGemmIsBelowSwapOrThePanelPath) {
  RunResult r = gemm_against_comm();
  EXPECT_EQ(gemm_below_comm_step(r), std::optional<std::int64_t>(6)); // 10 - k < 4.5
  r.step_records[2].phase_s[static_cast<int>(PhaseId::Gemm)] = 1.0;   // a dip before the tail
  EXPECT_EQ(gemm_below_comm_step(r), std::optional<std::int64_t>(6));
  r.step_records[8].phase_s[static_cast<int>(PhaseId::Gemm)] = 5.0; // above swap again at step 8
  EXPECT_EQ(gemm_below_comm_step(r), std::optional<std::int64_t>(9));
  r = gemm_against_comm();
  for (StepRecord& s : r.step_records) {
    set(s, PhaseId::Swap, 0.0);
    set(s, PhaseId::Pfact, 3.0);
    set(s, PhaseId::Bcast, 2.5); // 5.5 > 10 - k from k = 5
  }
  EXPECT_EQ(gemm_below_comm_step(r), std::optional<std::int64_t>(5));
  r.step_records[9].phase_s[static_cast<int>(PhaseId::Gemm)] = 100.0;
  EXPECT_EQ(gemm_below_comm_step(r), std::nullopt); // the final solve does not count
  EXPECT_EQ(step_fraction(r, std::nullopt), std::nullopt);
  EXPECT_NEAR(*step_fraction(r, 5), 0.5, 1e-15); // 5 * 100 / 1000
}

} // namespace
} // namespace hplsim::sim
