#pragma once
// Fast mode: a full-scale run in seconds (docs/fast-mode.md).
#include <functional>
#include <optional>
#include <vector>

#include "sim/engine/faults_runtime.hpp"

#include "sim/engine/machine.hpp"
#include "sim/result/run_result.hpp"
#include "sim/scenario/scenario_defaults.hpp"

namespace hplsim::sim {

/// One trial's steps (the fault-free run's, with its flaps' delays) and what
/// its flaps did (none: the timeline has no flap).
struct FastTrial {
  std::vector<StepRecord> step_records;
  std::optional<FaultLog> flaps;
};

/// Simulates the scenario in fast mode on its built machine (sim/engine/machine.hpp)
/// and fills `result`'s step records, activities and completion (time and rate
/// are derived by finalize_result()). With link flaps, returns what they did
/// (sim/fast/fault_windows.hpp); their delays are in the step records.
std::optional<FaultLog> run_fast(const ResolvedScenario& scenario, BuiltMachine& machine,
                                 const std::function<void(double)>& progress, RunResult& result);

/// Draws the trials' timelines once the fault-free run's time is known (the
/// horizon of their draws).
using TrialDraws = std::function<std::vector<FaultTimeline>(double fault_free_time_s)>;

/// Fast mode's trials (docs/faults.md, "Trials"): the fault-free windows are
/// simulated once, then each drawn timeline's flaps in windows of their own on
/// the fault-free steps; node failures are left to record_faults (computed).
/// `fault_free` gets the fault-free run: its step records, activities,
/// windows and completion; `timelines` the drawn timelines.
std::vector<FastTrial> run_fast_trials(const ResolvedScenario& scenario, BuiltMachine& machine,
                                       const TrialDraws& draw, const std::function<void(double)>& progress,
                                       RunResult& fault_free, std::vector<FaultTimeline>& timelines);

} // namespace hplsim::sim
