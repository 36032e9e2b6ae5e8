#pragma once
// The flap process's sensitivity study (hplsim sensitivity; docs/faults.md,
// "Sensitivity to the flap process"): the scenario's trials at a grid of flap
// rate and duration scales, for one or several panel exchange strategies, all
// on common random numbers (the same trial draws at every scale and for every
// strategy: sim/run/trials.hpp, FlapScale). Per strategy and scale: P(complete)
// with its interval, the time the flaps added to the completed runs with its
// interval, Rmax, the expected time to a result; per scale, every pair of
// strategies' paired differences. With a recovery axis
// (faults.retry.collective_recovery_s at several values, "When HYBRID pays"),
// every cell again at each value on the same draws, and per scale and pair of
// strategies the value from which the recovery parts them.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sim/result/trial_row.hpp"
#include "sim/run/trials.hpp"
#include "sim/study/outcome.hpp"
#include "sim/study/strategies.hpp"

namespace hplsim::sim {

/// One strategy's trials: its fault-free run and its rows, scale after scale
/// (TrialsResult::trials's order), `trials` rows a scale.
struct SensitivityInput {
  std::string strategy; ///< workload.hpl.panel_exchange ("" when the study has one)
  double fault_free_time_s = 0.0, fault_free_rmax_flops_per_s = 0.0;
  std::vector<TrialRow> rows;
  double collective_recovery_s = 0.0; ///< faults.retry.collective_recovery_s of its runs
};

/// One strategy at one scale.
struct SensitivityCell {
  std::string strategy;
  double collective_recovery_s = 0.0;
  FlapScale scale;
  Outcome outcome;
  double flaps_reached_mean = 0.0, messages_failed_mean = 0.0;
  /// Time the flaps added to the completed runs (their time minus the
  /// fault-free run's), its mean and 95% interval; `pairs` counts the runs.
  PairedDifference time_added_s;
};

struct SensitivityDifference {
  double collective_recovery_s = 0.0;
  FlapScale scale;
  StrategyComparison comparison;
};

/// Where the recovery axis parts two strategies at one scale. Trial by trial,
/// the gap a - b at a value minus the gap at the axis's smallest value (the
/// same draws, so what the recovery alone moved), over the trials completed by
/// both at both values.
struct RecoveryStep {
  double collective_recovery_s = 0.0;
  PairedDifference gap_change_s; ///< mean and Student's t 95% interval
  int trials_moved = 0;          ///< trials whose a or b run differs from the smallest value's
  int gap_moved = 0;             ///< of the pairs, those whose gap changed
  bool parts = false;            ///< the interval excludes 0
};

struct RecoveryParting {
  FlapScale scale;
  std::string a, b;
  double base_s = 0.0;               ///< the axis's smallest value
  std::vector<RecoveryStep> steps;   ///< the values above it, ascending
  std::optional<double> threshold_s; ///< the smallest value that parts them
};

/// The parting of a and b: `recoveries` ascending, at least two; `a_rows[k]`
/// and `b_rows[k]` the trials at recoveries[k], in trial order, the same trials.
RecoveryParting recovery_parting(const FlapScale& scale, const std::string& a, const std::string& b,
                                 const std::vector<double>& recoveries,
                                 const std::vector<std::vector<TrialRow>>& a_rows,
                                 const std::vector<std::vector<TrialRow>>& b_rows);

struct SensitivityStudy {
  std::vector<FlapScale> scales;
  int trials = 0;
  /// The recovery axis, ascending; empty without one (every input at the
  /// scenario's value, and the outputs without its columns).
  std::vector<double> recoveries;
  std::vector<SensitivityInput> inputs;
  std::vector<SensitivityCell> cells; ///< input-major, then scale
  /// Per recovery value, per scale, every pair of strategies in input order.
  std::vector<SensitivityDifference> differences;
  /// With two recovery values or more: per scale, every pair of strategies.
  std::vector<RecoveryParting> partings;
};

/// The statistics. Throws std::invalid_argument when a strategy's rows are
/// not `trials` per scale or not the same trials as the first strategy's.
/// With `recoveries`, the inputs are strategy-major, then recovery value:
/// every strategy at every value of `recoveries` (ascending) in that order.
SensitivityStudy sensitivity_of(const std::vector<FlapScale>& scales, int trials,
                                std::vector<SensitivityInput> inputs, std::vector<double> recoveries = {});

/// sensitivity.csv: one row per strategy and scale.
void write_sensitivity_csv(const SensitivityStudy& study, const std::string& path);
/// sensitivity-differences.csv: one row per scale and pair of strategies.
void write_sensitivity_differences_csv(const SensitivityStudy& study, const std::string& path);
/// sensitivity-recovery.csv: per scale, pair of strategies and recovery
/// value above the smallest, the gap's change (RecoveryParting).
void write_sensitivity_recovery_csv(const SensitivityStudy& study, const std::string& path);
/// sensitivity-trials.csv: every trial, its strategy and scales first, then trials.csv's columns.
void write_sensitivity_trials_csv(const SensitivityStudy& study, const ResolvedScenario& scenario,
                                  const std::string& path);
/// sensitivity-faults.csv: every event a trial reached, its strategy, scales,
/// trial and stream first, then faults.csv's columns (what each flap cost).
void write_sensitivity_faults_csv(const SensitivityStudy& study, const ResolvedScenario& scenario,
                                  const std::string& path);
/// sensitivity.svg: a panel per duration scale, the time added against the
/// rate scale, a series per strategy with its interval; then, when a run
/// failed anywhere, P(complete) the same way.
void write_sensitivity_svg(const SensitivityStudy& study, const std::string& path);
/// The table on stdout.
void print_sensitivity(const SensitivityStudy& study, std::ostream& out);

} // namespace hplsim::sim
