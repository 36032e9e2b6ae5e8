#pragma once
// Fast mode's choices for one scenario, settled once from options.fast (the
// "Auto" values included) so that every part of fast mode reads the same
// answer (docs/fast-mode.md explains each).
#include "sim/scenario/scenario_defaults.hpp"
#include "sim/workload/schedule_source.hpp"

namespace hplsim::sim {

struct FastPlan {
  FastConfig config;           // options.fast as resolved
  bool fold = false;           // windows simulate a fold of the ranks (phantom peers)
  bool final_window = false;   // the final solve folded in a window of its own
  ScheduleShortcuts shortcuts; // collective pivot exchange / panel, grouped roll, aggregated ring
  int workers = 1;             // window processes at once
};

/// The plan with folding and the collective swap roll as given, the rest
/// settled from options.fast (what estimate_fast_cost prices).
FastPlan fast_plan_with(const ResolvedScenario& scenario, bool fold, bool roll_collective);

} // namespace hplsim::sim
