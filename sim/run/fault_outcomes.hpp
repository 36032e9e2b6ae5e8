#pragma once
// What a run's faults did, in its result (docs/faults.md): the events with
// the steps they touched and the delays they caused (faults.csv), and the
// outcome of a run a node failure aborted: HPL and HPL-MxP have no
// checkpoint, so the run ends at the failure with completed: false and the
// allocation time up to it lost.
#include "sim/engine/faults_runtime.hpp"
#include "sim/faults/timeline.hpp"
#include "sim/result/run_result.hpp"
#include "sim/scenario/scenario_defaults.hpp"

namespace hplsim::sim {

/// Throws ScenarioError when the mode cannot simulate the scenario's faults
/// (fast mode: link flaps and degradations that start late; analytic mode:
/// link flaps and degradations), naming the field.
void check_faults_supported(const ResolvedScenario& scenario, Mode mode);

/// Fills `result`'s fault outcomes from the timeline and, for a simulated run,
/// the log of what the faults did (`log`; nullptr when the outcome is computed
/// from the fault-free steps: a node failure in fast or analytic mode).
/// Call after finalize_result(): an aborted run's time becomes the failure's,
/// its Rmax 0 (it produced no result).
void record_faults(const FaultTimeline& timeline, const FaultLog* log, RunResult& result);

} // namespace hplsim::sim
