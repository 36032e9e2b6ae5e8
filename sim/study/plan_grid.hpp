#pragma once
// The run `hplsim plan` simulates at a node count (docs/studies.md, "Capacity
// planning: node counts whose ranks factor badly"). The grid rule
// (sim/scenario/grid_rule.hpp) factors nodes x ranks_per_node as it comes; a
// count whose ranks factor badly (5,884 JUPITER nodes: 23,536 ranks = 16 x
// 1,471, 1,471 prime) gets a grid no real run would use and an N whose
// block-cyclic rounding and panels overflow a GPU. Real runs leave a few
// ranks idle for a squarer grid (HPL runs on P x Q of its processes, the
// rest idle); the simulator places ranks node by node, so the ranks left idle
// here are whole nodes':
//   active nodes: the most nodes, from `nodes` down to at most kMaxIdleFraction
//     of them (at least one node, from 2 nodes up) left idle, whose ranks factor (by the grid rule) within a
//     factor kMaxAspect of the scenario's P:Q; none within: the one closest to it;
//   N: the grid rule's (the scenario's matrix memory per rank), capped by the
//     largest N whose worst rank fits the declared memory with its panels and
//     work buffers (sim/scenario/memory_fit.hpp), a multiple of NB.
#include <cstdint>

#include "sim/scenario/scenario_defaults.hpp"

namespace hplsim::sim {

/// At most this fraction of the nodes is left idle (one node at any count from 2 up).
inline constexpr double kMaxIdleFraction = 0.01;
/// A grid within this factor of the scenario's P:Q is taken as it comes.
inline constexpr double kMaxAspect = 2.0;

struct PlanGrid {
  int nodes = 0;        ///< the allocation asked for
  int active_nodes = 0; ///< the nodes whose ranks run HPL
  int idle_ranks = 0;   ///< (nodes - active_nodes) x ranks_per_node
  int p = 0, q = 0;
  std::int64_t n = 0;
  bool memory_capped = false; ///< N was lowered below the grid rule's to fit the memory
};

/// The run at `nodes` nodes of `base` by the rule above.
PlanGrid plan_grid(const ResolvedScenario& base, int nodes);

/// The rule in one line, for the outputs that apply it.
inline constexpr const char* kPlanGridRule =
    "P x Q: the grid rule on the most nodes (at most 1% idle, or one node) whose ranks factor within 2x of "
    "the scenario's "
    "P:Q; N: the scenario's matrix memory per rank, capped to fit the declared memory with the panels";

} // namespace hplsim::sim
