#pragma once
// The wall time to a first completed run when a failed run is restarted
// (docs/studies.md, "The report"): attempts follow each other, each drawn from
// the trials (a completed one with its run time, a failed one with the time it
// ended plus the restart set-up), until one completes. Its distribution
// function, on a grid, from the trials alone (no fitted law).
#include <utility>
#include <vector>

namespace hplsim::sim {

/// (t, P(a result by t)) at `grid` + 1 points from 0 to the time by which 99%
/// of the results are in. Each attempt's time is rounded up to the grid (so the
/// curve is a lower bound, within one grid step per attempt). Empty when no
/// trial completed.
std::vector<std::pair<double, double>> result_time_cdf(const std::vector<double>& completed_s,
                                                       const std::vector<double>& failed_s, double restart_s,
                                                       int grid = 400);

} // namespace hplsim::sim
