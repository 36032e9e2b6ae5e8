#pragma once
// The run `hplsim plan` simulates at a node count (docs/studies.md, "Capacity
// planning: `hplsim plan`", its first point): the rule of
// sim/scenario/grid_rule.hpp, which `hplsim run --nodes` and pre-screening
// apply too, N lowered to fit the declared memory (sim/scenario/memory_fit.hpp).
#include <cstdint>

#include "sim/scenario/grid_rule.hpp"
#include "sim/scenario/scenario_defaults.hpp"

namespace hplsim::sim {

struct PlanGrid {
  int nodes = 0;        ///< the allocation asked for
  int active_nodes = 0; ///< the nodes whose ranks run HPL
  int idle_ranks = 0;   ///< (nodes - active_nodes) x ranks_per_node
  int p = 0, q = 0;
  std::int64_t n = 0;
  bool memory_capped = false; ///< N was lowered below the grid rule's to fit the memory
};

/// The run at `nodes` nodes of `base` by the rule of sim/scenario/grid_rule.hpp.
PlanGrid plan_grid(const ResolvedScenario& base, int nodes);

} // namespace hplsim::sim
