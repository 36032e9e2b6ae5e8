#pragma once
// The flap process's sensitivity study (hplsim sensitivity; docs/faults.md,
// "Sensitivity to the flap process"): the scenario's trials at a grid of flap
// rate and duration scales, for one or several panel exchange strategies, all
// on common random numbers (the same trial draws at every scale and for every
// strategy: sim/run/trials.hpp, FlapScale). Per strategy and scale: P(complete)
// with its interval, the time the flaps added to the completed runs with its
// interval, Rmax, the expected time to a result; per scale, every pair of
// strategies' paired differences.
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
};

/// One strategy at one scale.
struct SensitivityCell {
  std::string strategy;
  FlapScale scale;
  Outcome outcome;
  double flaps_reached_mean = 0.0, messages_failed_mean = 0.0;
  /// Time the flaps added to the completed runs (their time minus the
  /// fault-free run's), its mean and 95% interval; `pairs` counts the runs.
  PairedDifference time_added_s;
};

struct SensitivityDifference {
  FlapScale scale;
  StrategyComparison comparison;
};

struct SensitivityStudy {
  std::vector<FlapScale> scales;
  int trials = 0;
  std::vector<SensitivityInput> inputs;
  std::vector<SensitivityCell> cells;             ///< strategy-major, then scale
  std::vector<SensitivityDifference> differences; ///< per scale, every pair of strategies in input order
};

/// The statistics. Throws std::invalid_argument when a strategy's rows are
/// not `trials` per scale or not the same trials as the first strategy's.
SensitivityStudy sensitivity_of(const std::vector<FlapScale>& scales, int trials,
                                std::vector<SensitivityInput> inputs);

/// sensitivity.csv: one row per strategy and scale.
void write_sensitivity_csv(const SensitivityStudy& study, const std::string& path);
/// sensitivity-differences.csv: one row per scale and pair of strategies.
void write_sensitivity_differences_csv(const SensitivityStudy& study, const std::string& path);
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
