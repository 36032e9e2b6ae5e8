#pragma once
// Resilience strategies compared on common random numbers (hplsim run
// --trials K --strategies P2P,HYBRID,COLLECTIVE; docs/faults.md, "Comparing
// strategies"): trial i of every strategy draws the same fault events
// (RandomStreams(seed, i)), so their difference is measured pair by pair and
// its interval is that of a paired difference, much narrower than the
// difference of two independent estimates.
#include <string>
#include <vector>

#include "sim/result/trial_row.hpp"

namespace hplsim::sim {

/// A paired difference a - b and its 95% interval.
struct PairedDifference {
  int pairs = 0; ///< pairs it is taken over
  double mean = 0.0, low = 0.0, high = 0.0;
};

struct StrategyComparison {
  std::string a, b;
  /// Over the trials completed under both: run time and Rmax, each pair's
  /// difference, with Student's t interval of their mean.
  PairedDifference time_s, rmax_flops_per_s;
  /// Over all trials: P(complete | a) - P(complete | b) with the Wald
  /// interval of a difference of paired proportions (its variance from the
  /// discordant pairs: (n10 + n01 - (n10 - n01)^2 / n) / n^2).
  PairedDifference p_complete;
};

/// The 97.5% quantile of Student's t with `dof` degrees of freedom (1.96 as
/// dof grows): exact for 1 and 2, the tables' values for 3 and 4, else the
/// Cornish-Fisher expansion of Abramowitz & Stegun 26.7.5 (within 0.001 of
/// the tables from 5 on).
double student_t_975(int dof);

/// The mean of `values` and Student's t 95% interval of it (infinite bounds
/// below two values; `pairs` the count).
PairedDifference mean_interval(const std::vector<double>& values);

/// a's rows against b's, trial by trial (the rows of each in trial order,
/// the same trials).
StrategyComparison compare_paired(const std::string& a, const std::vector<TrialRow>& rows_a,
                                  const std::string& b, const std::vector<TrialRow>& rows_b);

} // namespace hplsim::sim
