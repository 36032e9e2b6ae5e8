#include "sim/fast/fast_plan.hpp"

#include "sim/support/child_process.hpp"

namespace hplsim::sim {

FastPlan fast_plan_with(const ResolvedScenario& sc, bool fold, bool roll_collective) {
  FastPlan plan;
  plan.config = sc.options.fast;
  const FastConfig& c = plan.config;
  const int ranks = sc.workload.ranks();
  plan.fold = fold;
  // The final solve (HPL_pdtrsv, or HPL-MxP's refinement) is folded above
  // fold_above_ranks even when the steps are not, in a window of its own: its schedule is thousands of
  // operations per rank (~4,000 per GMRES iteration at Aurora's MxP grid:
  // 19,000 ranks would need ~6 GB of it) for under 1% of the run time
  // (docs/fast-mode.md, "the final solve"). In folded runs it gets a window of
  // its own too, keeping only the last panel's owner row and column: in the
  // tail window it also runs along the owner rows and columns of the window's
  // steps. HPL's solve there was 1.8 M of a full-scale tail window's 2.0 M
  // activities for ~1e-5 of the run time; HPL-MxP's refinement 17.8 M
  // activities, 127 s and 2.9 GiB, against 7.2 M, 47 s and 1.3 GiB on its own,
  // for a refinement of 1,860.5 s instead of 1,863.4 s (-0.16%) and an Rmax
  // +0.12% (docs/fast-mode.md, point 6).
  plan.final_window = plan.fold || ranks > c.fold_above_ranks;
  const auto when_folded = [&plan](Fold f) { return f == Fold::On || (f == Fold::Auto && plan.fold); };
  plan.shortcuts.pivot_group = c.pivot_group;
  plan.shortcuts.pivot_collective = when_folded(c.pivot_collective);
  // Auto: with the collective pivot exchange, where the panel's core is free
  // (the updates run on the GPUs), or the panel is on the GPU
  // (traces::HplConfig::panel_collective).
  plan.shortcuts.panel_collective =
      c.panel_collective == Fold::On ||
      (c.panel_collective == Fold::Auto && plan.shortcuts.pivot_collective && updates_on_gpus(sc));
  plan.shortcuts.roll_collective = roll_collective;
  plan.shortcuts.swap_roll_group = c.swap_roll_group;
  plan.shortcuts.ring_aggregated = c.ring_aggregate;
  plan.workers = window_workers(c.workers);
  return plan;
}

} // namespace hplsim::sim
