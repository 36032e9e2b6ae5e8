#pragma once
// `hplsim run --trials K` (docs/faults.md, "Trials"): the trials, their
// outcome statistics, trials.csv and outcome.json.
#include <functional>
#include <optional>
#include <ostream>
#include <string>

#include "sim/run/trials.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "sim/study/outcome.hpp"

namespace hplsim::sim {

/// Lambda (per hour) of the closed forms when the scenario's faults are
/// exponential node and domain failures alone (no flaps, nothing listed).
std::optional<double> closed_form_rate_per_hour(const ResolvedScenario& scenario);

/// Writes trials.csv (one row per trial) into `path`.
void write_trials_csv(const ResolvedScenario& scenario, const TrialsResult& trials, const std::string& path);
/// Writes outcome.json: the scenario's identity, the fault-free run, the outcome statistics.
void write_outcome_json(const ResolvedScenario& scenario, const TrialsResult& trials, const Outcome& outcome,
                        const std::string& path);
/// The outcome on stdout.
void print_outcome(const TrialsResult& trials, const Outcome& outcome, std::ostream& out);

} // namespace hplsim::sim
