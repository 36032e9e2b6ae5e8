#pragma once
// The outcome statistics of a Monte Carlo study (hplsim run --trials;
// docs/faults.md, "Trials"): the probability that a run completes, with its
// 95% interval, the run time and Rmax of the completed runs, and the expected
// wall time to a first result, failed attempts and their restarts included.
#include <optional>
#include <vector>

#include "sim/result/trial_row.hpp"

namespace hplsim::sim {

struct Spread {
  int count = 0;
  double mean = 0.0, p5 = 0.0, p50 = 0.0, p95 = 0.0;
};
/// Mean and percentiles of `values` (linear interpolation between order
/// statistics: the percentile q is at rank q (n - 1), as numpy's default).
Spread spread_of(std::vector<double> values);

/// Wilson's score interval for a proportion of `successes` in `trials`, at z
/// (1.96: 95%). E. B. Wilson, "Probable inference, the law of succession, and
/// statistical inference", JASA 22 (1927) 209-212.
struct Interval {
  double low = 0.0, high = 0.0;
};
Interval wilson_interval(int successes, int trials, double z = 1.959963984540054);

struct Outcome {
  int trials = 0, completed = 0;
  double p_complete = 0.0;
  Interval p_complete_95;
  Spread time_s, rmax_flops_per_s; ///< over the completed trials
  Spread lost_work_s;              ///< over the failed trials
  /// Expected wall time to the first completed run: E[F] (E[X] + R) + E[T],
  /// E[F] = (1 - p) / p failed attempts, X a failed attempt's time, R the
  /// restart set-up, T a completed run's time (models/failure_model.hpp's
  /// renewal argument with the trials' estimates); empty when none completed.
  std::optional<double> expected_time_to_result_s;
  double restart_setup_s = 0.0;
  /// The closed forms for exponential node and domain failures alone (no
  /// flaps, nothing listed), at the fault-free run's time: P(complete) =
  /// exp(-Lambda T) and E = (e^{Lambda T} - 1)(1/Lambda + R).
  std::optional<double> closed_form_p_complete, closed_form_time_to_result_s;
};

/// The statistics of `rows`. `closed_form_rate_per_hour` (Lambda) and
/// `fault_free_time_s`: for the closed forms, when they apply.
Outcome outcome_of(const std::vector<TrialRow>& rows, std::optional<double> closed_form_rate_per_hour,
                   double fault_free_time_s);

} // namespace hplsim::sim
