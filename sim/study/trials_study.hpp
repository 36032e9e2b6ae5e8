#pragma once
// `hplsim run --trials K` (docs/faults.md, "Trials"): the trials, their
// outcome statistics, trials.csv and outcome.json.
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sim/run/trials.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "sim/study/outcome.hpp"
#include "sim/study/strategies.hpp"

namespace hplsim::sim {

/// Lambda (per hour) of the closed forms when the scenario's faults are
/// exponential node and domain failures alone (no flaps, nothing listed).
std::optional<double> closed_form_rate_per_hour(const ResolvedScenario& scenario);

/// trials.csv's header line (with its newline) and one trial's row: trial,
/// stream (seed:trial), whether it completed, its time and Rmax, what ended
/// it, what its faults did.
extern const char* const kTrialColumns;
void write_trial_row(std::ostream& out, const ResolvedScenario& scenario, const TrialRow& row);

/// Writes trials.csv (one row per trial) into `path`.
void write_trials_csv(const ResolvedScenario& scenario, const TrialsResult& trials, const std::string& path);
/// Writes outcome.json: the scenario's identity, the fault-free run, the outcome statistics.
void write_outcome_json(const ResolvedScenario& scenario, const TrialsResult& trials, const Outcome& outcome,
                        const std::string& path);
/// One strategy's trials (--strategies), its name as panel_exchange says it.
struct StrategyTrials {
  std::string name;
  TrialsResult trials;
  Outcome outcome;
};
/// trials.csv of several strategies: a leading panel_exchange column, each
/// strategy's rows in trial order.
void write_strategies_trials_csv(const ResolvedScenario& scenario,
                                 const std::vector<StrategyTrials>& strategies, const std::string& path);
/// trial-faults.csv: one row per event a trial reached, "trial,stream," then
/// faults.csv's columns (sim/report/faults_report.hpp; panel_exchange names
/// the strategy), the studies one after the other, each in trial order.
/// Events drawn past a trial's end are left out (they are artefacts of the
/// draws' horizon, 2 T + 1 h).
void write_trial_faults_csv(const ResolvedScenario& scenario, const std::vector<const TrialsResult*>& studies,
                            const std::string& path);
/// outcome.json of several strategies: each one's outcome and every pair's
/// paired differences (sim/study/strategies.hpp).
void write_strategies_outcome_json(const ResolvedScenario& scenario,
                                   const std::vector<StrategyTrials>& strategies,
                                   const std::vector<StrategyComparison>& differences,
                                   const std::string& path);
/// The differences on stdout, each said to be clear of zero or not.
void print_differences(const std::vector<StrategyComparison>& differences, std::ostream& out);

/// The outcome on stdout.
void print_outcome(const TrialsResult& trials, const Outcome& outcome, std::ostream& out);

} // namespace hplsim::sim
