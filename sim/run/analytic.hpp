#pragma once
// The classic HPL per-step model, kept as an instant cross-check (never the
// answer the simulator gives in reference or fast mode).
#include <vector>

#include "sim/result/run_result.hpp"
#include "sim/scenario/scenario_defaults.hpp"

namespace hplsim::sim {

/// Per-step records from closed-form phase times (docs/architecture.md).
std::vector<StepRecord> analytic_steps(const ResolvedScenario& scenario);

} // namespace hplsim::sim
