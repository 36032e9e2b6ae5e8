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

FastPlan settle_fast_plan(const ResolvedScenario& scenario);

} // namespace hplsim::sim
