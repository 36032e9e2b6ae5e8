#include "sim/scenario/grid_rule.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hplsim::sim {

void closest_grid(int ranks, double p_over_q, int& p, int& q) {
  const double ratio = std::log(p_over_q);
  int best_p = 1;
  double best = std::numeric_limits<double>::infinity();
  for (std::int64_t pp = 1; pp * pp <= ranks; ++pp) { // 64-bit: pp * pp passes INT_MAX near sqrt(INT_MAX)
    if (ranks % pp != 0) continue;
    const double off = std::abs(std::log(double(pp) / double(ranks / pp)) - ratio);
    if (off < best) {
      best = off;
      best_p = static_cast<int>(pp);
    }
  }
  p = best_p;
  q = ranks / best_p;
}

std::int64_t same_memory_per_rank_n(const WorkloadConfig& w, int ranks, std::int64_t nb) {
  const double n_scaled = double(w.n) * std::sqrt(double(ranks) / double(w.ranks()));
  return std::max<std::int64_t>(nb, std::int64_t(std::floor(n_scaled / double(nb))) * nb);
}

Rederived rederive_for_nodes(const WorkloadConfig& w, int nodes) {
  Rederived r;
  r.nodes = nodes;
  const double ratio = double(w.p) / double(w.q);
  const double target = std::log(ratio);
  const int max_idle = std::max(1, static_cast<int>(std::floor(kMaxIdleFraction * nodes)));
  double best_off = std::numeric_limits<double>::infinity();
  for (int idle = 0; idle <= std::min(max_idle, nodes - 1); ++idle) {
    const int ranks = (nodes - idle) * w.ranks_per_node;
    int p = 0, q = 0;
    closest_grid(ranks, ratio, p, q);
    const double off = std::abs(std::log(double(p) / double(q)) - target);
    // The closest any P' <= Q' grid of these ranks can come: log(P'/Q') lies
    // in [-log(ranks), 0].
    const double reachable = std::max({0.0, target, -std::log(double(ranks)) - target});
    if (off < best_off - 1e-12) {
      best_off = off;
      r.active_nodes = nodes - idle;
      r.p = p;
      r.q = q;
    }
    if (off <= reachable + std::log(kMaxAspect) + 1e-12) break; // the fewest idle within the bound
  }
  r.n = same_memory_per_rank_n(w, r.p * r.q, w.nb);
  return r;
}

} // namespace hplsim::sim
