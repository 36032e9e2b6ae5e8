#include "sim/study/plan_grid.hpp"

#include "sim/scenario/grid_rule.hpp"
#include "sim/scenario/memory_fit.hpp"

namespace hplsim::sim {

PlanGrid plan_grid(const ResolvedScenario& base, int nodes) {
  const Rederived r = rederive_for_nodes(base.workload, nodes);
  PlanGrid g;
  g.nodes = nodes;
  g.active_nodes = r.active_nodes;
  g.idle_ranks = (nodes - r.active_nodes) * base.workload.ranks_per_node;
  g.p = r.p;
  g.q = r.q;
  g.n = r.n;
  ResolvedScenario sc = base;
  sc.workload.nodes = g.active_nodes;
  sc.workload.p = g.p;
  sc.workload.q = g.q;
  sc.workload.n = g.n;
  if (const auto fits = fit_n_to_memory(sc)) {
    g.n = *fits;
    g.memory_capped = true;
  }
  return g;
}

} // namespace hplsim::sim
