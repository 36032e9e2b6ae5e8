#pragma once
// Fast mode: a full-scale run in seconds (docs/fast-mode.md).
#include <functional>
#include <optional>

#include "sim/engine/faults_runtime.hpp"

#include "sim/engine/machine.hpp"
#include "sim/result/run_result.hpp"
#include "sim/scenario/scenario_defaults.hpp"

namespace hplsim::sim {

/// Simulates the scenario in fast mode on its built machine (sim/engine/machine.hpp)
/// and fills `result`'s step records, activities and completion (time and rate
/// are derived by finalize_result()). With link flaps, returns what they did
/// (sim/fast/fault_windows.hpp); their delays are in the step records.
std::optional<FaultLog> run_fast(const ResolvedScenario& scenario, BuiltMachine& machine,
                                 const std::function<void(double)>& progress, RunResult& result);

} // namespace hplsim::sim
