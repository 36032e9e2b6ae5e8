#pragma once
// K runs of one scenario whose fault draws come from K independent streams
// (hplsim run --trials; docs/faults.md, "Trials"): trial i draws from
// RandomStreams(seed, i), whatever K, the number of jobs or the order in which
// trials finish. What does not depend on the draws is shared: fast mode
// simulates its fault-free windows once and only the flaps' windows per trial;
// a node failure's outcome is computed from the fault-free steps. Reference
// mode simulates each trial whole, `jobs` processes at a time.
#include <functional>
#include <vector>

#include "sim/result/run_result.hpp"
#include "sim/result/trial_row.hpp"
#include "sim/scenario/scenario_defaults.hpp"

namespace hplsim::sim {

struct TrialsOptions {
  int trials = 1; ///< >= 1
  int jobs = 1;   ///< processes at a time (fast mode: window processes)
  std::function<void(double)> progress;
};

struct TrialsResult {
  RunResult fault_free;         ///< the run without faults (identity fields, time, Rmax)
  std::vector<TrialRow> trials; ///< in trial order
};

/// Simulates the trials. One SimGrid engine per process: call at most once.
TrialsResult simulate_trials(const ResolvedScenario& scenario, const TrialsOptions& options);

} // namespace hplsim::sim
