#pragma once
// What the replay needs of a scenario besides its machine: the replay options
// the scenario implies, and the check that every kernel its workload calls is
// priced.
#include "models/kernel_model.hpp"
#include "sim/engine/replay.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "sim/workload/schedule_source.hpp"

namespace hplsim::sim {

/// The replay options a scenario implies (steps, copy engines, jitter, panel threads, seed).
ReplayOptions replay_options(const ResolvedScenario& scenario);

/// Where a node's cores go (models/noise.hpp): the OS's, then each rank's
/// block of panel threads, the rest idle.
models::CoreLayout core_layout(const ResolvedScenario& scenario);

/// The scenario's system noise with its traces read and its cores laid out
/// (null when it has no noise source). Throws ScenarioError on an unreadable trace.
std::shared_ptr<const models::NoiseConfig> noise_config(const ResolvedScenario& scenario);

/// Throws ScenarioError (naming the scenario and the calibration) when a kernel
/// the workload calls has no calibration record.
void check_kernel_coverage(const ResolvedScenario& scenario, const ScheduleSource& source,
                           const models::KernelModels& kernels);

} // namespace hplsim::sim
