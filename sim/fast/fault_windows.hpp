#pragma once
// Link flaps in fast mode (docs/faults.md, "In fast mode"): each flap the run
// reaches is simulated in a window of the steps it touches, against the same
// window without it (its baseline), and the difference, step by step, is
// added to the fault-free run's steps. Flaps are taken in time order and each
// is placed on the run's steps as the earlier flaps left them: the step whose
// span holds the flap's time and the offset into it, computed from the steps,
// and in the window the flap starts that offset after the same step's start
// (the end of the step before it), however long the window took to get there.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "sim/engine/faults_runtime.hpp"
#include "sim/fast/window.hpp"
#include "sim/faults/timeline.hpp"
#include "sim/result/run_result.hpp"

namespace hplsim::sim {

/// Where a fault at run time `t_s` falls in the contiguous steps `records`.
struct FaultPlacement {
  bool reached = false;  ///< false: at or after the run's end
  std::int64_t step = 0; ///< the panel step whose [start, end) holds it (the last one for the final solve)
  double offset_s = 0.0; ///< t_s - that step's start
};
FaultPlacement place_fault(const std::vector<StepRecord>& records, double t_s);

/// A fault window against its baseline: what each of its steps took more.
struct StepDelta {
  std::int64_t step = 0;
  double step_s = 0.0;
  std::array<double, kPhaseCount> phase_s{}, mean_phase_s{};
};
/// The deltas between a fault window and its baseline over the steps both
/// kept (the same steps): d_fault(k) - d_base(k), from their step ends; the
/// last one also takes what the windows' ends moved beyond them.
std::vector<StepDelta> step_deltas(const WindowOutcome& fault, const WindowOutcome& baseline);
/// Adds `deltas` to `records`: each step's duration and phase times grow by
/// its delta, the steps after it start later by the sum.
void add_step_deltas(std::vector<StepRecord>& records, const std::vector<StepDelta>& deltas);

/// The timeline of a fault window (`job.flap` >= 0: that flap of `run`'s
/// timeline, started `job.flap_offset_s` after the end of the step before
/// `job.flap_step`) or of its baseline (no flap), with `run`'s retry handler.
/// A flap of a node's NIC cable (`job.fault_nodes`) counts from when that
/// node's ranks (`ranks_per_node` each) are done with the step, a fabric flap
/// from when the window's last active rank is (docs/faults.md, "Flaps in fast
/// mode").
FaultTimeline window_timeline(const WindowJob& job, const FaultTimeline& run, int ranks_per_node);
/// What a window's faults did (its one flap), times relative to `origin_s`.
WindowFaults window_faults(const FaultLog& log, int flap, double origin_s);

/// What the fault windows need of the fast run.
struct FaultWindowPlan {
  std::int64_t steps = 0; ///< panel steps (the final solve is step `steps`)
  int warmup_steps = 0, measured_steps = 0, cooldown_steps = 0;
  int max_span_steps = 8; ///< most steps one flap's window measures
  /// The run node a flap stalls (a NIC cable's node), or -1 (a fabric link, or
  /// a node the run does not use).
  std::function<int(const FlapEvent&)> flap_node;
  /// Whether the flap can meet traffic in the window of steps [first, last]
  /// (empty: always). A flap that cannot costs 0 without a window.
  std::function<bool(const FlapEvent&, std::int64_t first, std::int64_t last)> can_fail;
  /// Runs window jobs, each in a process of its own, as they become ready
  /// (WindowPool::run_as_ready): next() gives the job to start now (none:
  /// none is ready), done(id, outcome) each outcome as its window ends (ids in
  /// next()'s order, from 0) and may make more jobs ready. Returns once none
  /// runs and none is ready. next() is asked only for a worker that is free.
  std::function<void(const std::function<std::optional<WindowJob>()>& next,
                     const std::function<void(std::size_t, WindowOutcome&&)>& done)>
      run;
  /// Counts a window whose outcome the flaps used (empty: none counted), by
  /// timeline and in each timeline's order once all are done.
  std::function<void(const WindowJob&, const WindowOutcome&)> account;
};

/// Simulates the flaps of `timeline` that the run reaches, adds their delays
/// to `records` and returns what they did (FaultLog: per event, with its
/// delay, and the abort when a flap outlasts the retry handler).
///
/// Each flap's fault window runs first; only when the flap failed a message
/// is its baseline needed (a flap that failed none left the window as its
/// baseline would have run it, up to the routes adaptive routing chose around
/// the link while it was down: it costs 0). The fault window's process
/// simulates it from the flap on in a copy of itself forked as the flap was
/// due (WindowOutcome::baseline); a baseline that did not come that way runs
/// as a window of its own once the fault window has ended.
FaultLog simulate_flaps(const FaultWindowPlan& plan, const FaultTimeline& timeline,
                        std::vector<StepRecord>& records);
/// The same for several timelines on their own steps (trials), sharing the
/// window processes: each timeline's flaps go one after the other (a flap's
/// delay moves the next one's place), the timelines side by side, each window
/// started as soon as a worker is free. Outcomes do not depend on the order
/// the windows end in.
std::vector<FaultLog> simulate_flaps(const FaultWindowPlan& plan,
                                     const std::vector<const FaultTimeline*>& timelines,
                                     const std::vector<std::vector<StepRecord>*>& records);

} // namespace hplsim::sim
