#include "sim/study/plan_grid.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/scenario/grid_rule.hpp"
#include "sim/scenario/memory_fit.hpp"

namespace hplsim::sim {

PlanGrid plan_grid(const ResolvedScenario& base, int nodes) {
  const WorkloadConfig& w = base.workload;
  const double target = std::log(double(w.p) / double(w.q));
  const int max_idle = std::max(1, static_cast<int>(std::floor(kMaxIdleFraction * nodes)));
  PlanGrid g;
  g.nodes = nodes;
  double best_off = std::numeric_limits<double>::infinity();
  for (int idle = 0; idle <= std::min(max_idle, nodes - 1); ++idle) {
    int p = 0, q = 0;
    closest_grid((nodes - idle) * w.ranks_per_node, double(w.p) / double(w.q), p, q);
    const double off = std::abs(std::log(double(p) / double(q)) - target);
    if (off < best_off - 1e-12) {
      best_off = off;
      g.active_nodes = nodes - idle;
      g.p = p;
      g.q = q;
    }
    if (off <= std::log(kMaxAspect) + 1e-12) break; // the fewest idle within the bound
  }
  g.idle_ranks = (nodes - g.active_nodes) * w.ranks_per_node;
  g.n = same_memory_per_rank_n(w, g.p * g.q, w.nb);
  ResolvedScenario sc = base;
  sc.workload.nodes = g.active_nodes;
  sc.workload.p = g.p;
  sc.workload.q = g.q;
  sc.workload.n = g.n;
  if (memory_refusal(sc)) {
    if (const auto fits = largest_fitting_n(sc); fits && *fits >= w.nb && *fits < g.n) {
      g.n = *fits;
      g.memory_capped = true;
    }
  }
  return g;
}

} // namespace hplsim::sim
