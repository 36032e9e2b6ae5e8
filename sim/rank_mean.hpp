#pragma once
// The rank-mean phase times of a step (StepRecord::mean_phase_s) from the
// ranks a run simulated: every rank when nothing is folded away, a band of
// whole process columns and rows in a folded fast-mode window (README,
// "Replay: phase accounting").
#include <array>
#include <cstddef>
#include <vector>

#include "sim/run_result.hpp"

namespace hplsim::sim {

using RankPhases = std::array<double, kPhaseCount>;

/// Mean over the `ranks` ranks of a run of each phase time, given the ranks
/// simulated in the step (each at most once): with every rank simulated, the
/// plain mean; otherwise by two strata: the ranks with panel-factorization
/// time (PFACT) counted as they are (a fold keeps the factoring process column
/// whole) and the others' mean over the simulated ones standing for every
/// other rank. The fold's simulated ranks sit near the panel owners, so this
/// is an estimate with a bias the README measures ("Replay: phase
/// accounting"). A two-way additive estimate (row means of the full columns
/// plus column means of the full rows, minus their common mean) was tried on
/// CROSS_BAND and came out further from the unfolded run (BCAST -36%, SWAP
/// +51% at 1,020 ranks, against -8% and +23% by the strata).
std::array<double, kPhaseCount> estimate_rank_mean(const std::vector<RankPhases>& simulated, int ranks);

} // namespace hplsim::sim
