#pragma once
// Fast mode: a full-scale run in seconds (README, "Fast mode").
#include "sim/run_result.hpp"
#include "sim/scenario_defaults.hpp"
#include "sim/simulation.hpp"

namespace hplsim::sim {

/// Simulates the scenario in fast mode and fills `result`'s step records,
/// activities and completion (time and rate are derived by finalize_result()).
void run_fast(const ResolvedScenario& scenario, const SimulateOptions& options, RunResult& result);

} // namespace hplsim::sim
