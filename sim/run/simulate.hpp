#pragma once
// One simulation of a resolved scenario, in the requested mode: the entry
// point the CLI, the studies and the integration tests use.
#include <functional>

#include "sim/result/run_result.hpp"
#include "sim/scenario/scenario_defaults.hpp"

namespace hplsim::sim {

struct SimulateOptions {
  /// Called with the fraction done, from inside the simulation (progress bar).
  std::function<void(double)> progress;
};

/// The mode AUTO resolves to for this scenario.
Mode effective_mode(const ResolvedScenario& scenario);

/// Activities a reference-mode replay of the scenario would simulate (estimate).
double estimated_reference_activities(const ResolvedScenario& scenario);

/// The result's fields that come from the scenario (before any simulation).
RunResult initial_result(const ResolvedScenario& scenario, const char* mode);

/// Runs the scenario. One SimGrid engine per process: call at most once per
/// process for the reference and fast modes (the analytic mode needs no engine).
RunResult simulate(const ResolvedScenario& scenario, const SimulateOptions& options = {});

} // namespace hplsim::sim
