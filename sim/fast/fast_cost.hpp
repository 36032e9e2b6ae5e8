#pragma once
// What a fast-mode run will cost, estimated before it runs (docs/fast-mode.md,
// "What a run costs"): the windows its plan simulates, the ops of their steps
// read off the schedule generator for the ranks each window keeps, each kind
// of op weighted by what it was measured to cost (docs/bench/fast-cost.csv).
// settle_fast_plan (below) chooses folding and the collective swap roll by what this
// estimate says they save; `hplsim run --dry-run` prints it.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/fast/fast_plan.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "sim/workload/schedule_source.hpp"

namespace hplsim::sim {

/// Ops of one step's schedule by kind, summed over the ranks it lists.
struct StepOps {
  double messages = 0.0;   // Send and Recv ops (each end of a message)
  double kernels = 0.0;    // Compute and Copy ops (priced on the rank's own resources or by SimGrid)
  double exchanges = 0.0;  // collective ops (pivot exchange, panel, roll), one per member
  double panel_work = 0.0; // collective panel factorizations: members x panel columns
  double roll_work = 0.0;  // collective swap rolls: members x ring steps
  StepOps& operator+=(const StepOps& o);
  StepOps scaled(double f) const;
};

/// Step k's ops for the flagged ranks (all when null).
StepOps step_ops(const ScheduleSource& source, std::int64_t k, const std::vector<bool>* only);

/// The estimate of one configuration of fast mode.
struct FastCost {
  double windows = 0.0;      // windows the plan runs (max_windows: the bisection's budget)
  double window_steps = 0.0; // steps simulated in all windows
  double activities = 0.0;   // ops simulated in all windows
  StepOps ops;               // the same by kind
  double window_s = 0.0;     // CPU time of all windows
  double build_s = 0.0;      // the main process: building the machine, integrating, writing
  double wall_s = 0.0;       // build_s + window_s over the workers
  double main_bytes = 0.0;   // the main process's peak
  double window_private_bytes =
      0.0;                         // the largest window process's private peak (what no other process holds)
  double memory_bound_bytes = 0.0; // main + `workers` largest private peaks (stats.json's bound)
};

/// The cost of running `sc` with fold / roll collective as given (the rest as
/// settle_fast_plan settles it) on `workers` window processes.
FastCost estimate_fast_cost(const ResolvedScenario& sc, bool fold, bool roll_collective, int workers);

} // namespace hplsim::sim

namespace hplsim::sim {

/// The plan: folding and the collective swap roll, where options.fast leaves
/// them to AUTO, on where the cost estimate (sim/fast/fast_cost.hpp) says they
/// save at least options.fast.min_saving_s of wall time.
/// `estimates` (may be null) receives the estimated wall times the choice
/// read: every rank, folded, folded with the collective roll (-1: not read).
FastPlan settle_fast_plan(const ResolvedScenario& scenario, std::array<double, 3>* estimates = nullptr);

/// `--dry-run`'s lines on fast mode: the plan settle_fast_plan chooses, what
/// folding and the collective roll save by the estimate, and the run's
/// estimated windows, ops, wall time and memory bound.
std::string fast_cost_report(const ResolvedScenario& sc);

} // namespace hplsim::sim
