#pragma once
// The rank-mean phase times of a step (StepRecord::mean_phase_s) from the
// ranks a run simulated: every rank when nothing is folded away, a band of
// whole process columns and rows in a folded fast-mode window (docs/replay.md,
// "Phase accounting").
#include <array>
#include <cstddef>
#include <vector>

#include "sim/result/run_result.hpp"

namespace hplsim::sim {

using RankPhases = std::array<double, kPhaseCount>;

/// A step's rank-mean phase times, from the simulated ranks added one by one:
/// with every rank simulated, the plain mean; otherwise by two strata: the
/// ranks with panel-factorization time (PFACT) counted as they are (a fold
/// keeps the factoring process column whole) and the others' mean over the
/// simulated ones standing for every other rank. The fold's simulated ranks
/// sit near the panel owners, so this is an estimate with a bias docs/replay.md
/// measures, with the two-way additive estimate that was tried and dropped
/// ("Phase accounting").
class RankMean {
public:
  void add(const RankPhases& rank);
  /// Ranks added so far.
  int simulated() const { return factoring_ranks_ + other_ranks_; }
  /// The mean over the run's `ranks` ranks.
  RankPhases mean(int ranks) const;

private:
  RankPhases factoring_sum_{}, other_sum_{};
  int factoring_ranks_ = 0, other_ranks_ = 0;
};

/// RankMean over `simulated` (each rank at most once).
RankPhases estimate_rank_mean(const std::vector<RankPhases>& simulated, int ranks);

} // namespace hplsim::sim
