#pragma once
// Where an HPL run turns from compute-bound to communication-bound
// (docs/replay.md, "Crossover and dominant phases"). The Aurora paper
// (arXiv 2604.09517) places its crossover where "the per-step performance
// starts to drop"; a user reads it as where the trailing update stops setting
// the step time. Both are measured here on the step records, against the
// run's own early level rather than an absolute one: the update's share of a
// step is 1.0 on a perfectly balanced GEMM-bound step, but 0.74 on one Aurora
// node, whose 2 x 3 grid waits on the panel chain from the first step.
#include <cstdint>
#include <optional>

#include "sim/result/run_result.hpp"

namespace hplsim::sim {

/// The fall below the early level that counts: 2%, as the paper's "drop".
inline constexpr double kCrossoverFall = 0.02;

/// The crossover: the first panel step k from which, to the last panel step,
/// the trailing update's share of the step, (TRSM + GEMM) / step time on the
/// slowest-rank view, stays more than kCrossoverFall below its early level
/// (the median over the first quarter of the panel steps). "Stays" is decided
/// by majority over about 1% of the steps around each step (at least 5), so
/// that a single step's dip, or one sampled window of fast mode, does not
/// count. nullopt when the update still sets the last steps, or there are no
/// panel steps with a positive time.
std::optional<std::int64_t> crossover_step(const RunResult& result);

/// Where the sustained per-step rate drops: the same rule on the step's rate
/// (its useful flops over its time) against its plateau, the median rate
/// over the first quarter of the panel steps.
std::optional<std::int64_t> rate_drop_step(const RunResult& result);

/// The older, looser measure (summary.json's gemm_below_comm): the first panel
/// step from which GEMM < max(SWAP, PFACT + BCAST) on the slowest-rank view,
/// to the end. The communication path (waits included) outgrows the update
/// there, and look-ahead is what still hides it: on Aurora's flagship it comes
/// at 0.12 of N, while the step time follows GEMM to 0.29.
std::optional<std::int64_t> gemm_below_comm_step(const RunResult& result);

/// The phase crossover as the Aurora paper's Fig. 5 describes it (arXiv
/// 2604.09517: the run turns communication-bound where GEMM falls below
/// SWAP): the first panel step from which GEMM stays below the largest other
/// phase (PFACT, BCAST, SWAP, TRSM) on the slowest-rank view to the end
/// ("stays" as in crossover_step), and which phase that is (the largest
/// summed over those steps). It depends on the timer rule, which moves a
/// wait for a panel between BCAST and SWAP (docs/replay.md, "The timer
/// rule"); crossover_step and rate_drop_step do not.
struct GemmBelowPhase {
  std::int64_t step = 0;
  PhaseId phase = PhaseId::Swap;
};
std::optional<GemmBelowPhase> gemm_below_phase(const RunResult& result);

/// step * NB / N; nullopt for no step (or N is 0).
std::optional<double> step_fraction(const RunResult& result, std::optional<std::int64_t> step);

/// crossover_step's fraction of N.
inline std::optional<double> crossover_fraction(const RunResult& result) {
  return step_fraction(result, crossover_step(result));
}

} // namespace hplsim::sim
