#pragma once
// Reference mode: every rank, every message, every step, on the scenario's
// whole machine. The ground truth fast mode is measured against.
#include <cstdint>
#include <functional>

#include "sim/engine/machine.hpp"
#include "sim/result/run_result.hpp"
#include "sim/scenario/scenario_defaults.hpp"

namespace hplsim::sim {

/// Simulates the whole run in this process's SimGrid engine (call once per
/// process) and fills `result`: step records, activities, completion, the
/// whole-run figures (finalize_result) and what its faults did.
void run_reference(const ResolvedScenario& scenario, const std::function<void(double)>& progress,
                   RunResult& result, std::uint64_t run = 0, double fault_horizon_s = kFaultHorizon_s);

} // namespace hplsim::sim
