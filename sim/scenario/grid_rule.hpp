#pragma once
// The run re-derived for another node count: the one rule `hplsim run --nodes`,
// pre-screening (sim/scenario/prescreen_rule.hpp) and `hplsim plan`
// (sim/study/plan_grid.hpp) share, so that a run, a pre-screened run and a
// plan's point of the same size are the same run (docs/studies.md, "Capacity
// planning: `hplsim plan`", its first point):
//   active nodes: the most nodes, from `nodes` down to at most kMaxIdleFraction
//     of them (at least one node, from 2 nodes up) left idle, whose ranks factor
//     within a factor kMaxAspect of the scenario's P:Q, or of the closest a
//     P' <= Q' grid can come to it (P' = Q' for a scenario with P > Q); none
//     within: the one closest to it. Real runs leave a few ranks idle for a squarer grid (HPL
//     runs on P x Q of its processes, the rest idle); the simulator places ranks
//     node by node, so the ranks left idle here are whole nodes'. A count whose
//     ranks factor badly (5,884 JUPITER nodes: 23,536 ranks = 16 x 1,471, 1,471
//     prime) would otherwise get a grid no real run would use;
//   P' x Q' = the active nodes' ranks, the factorization with P' <= Q' whose
//     ratio P'/Q' is closest (in log) to the scenario's P/Q (ties: the smaller P');
//   N' = the largest multiple of NB with N'^2 / ranks' <= N^2 / ranks (the
//     same matrix memory per rank, so the same fraction of each GPU's memory
//     the scenario's own N fills), lowered to fit the declared memory where the
//     panels of a narrower grid would not (fit_n_to_memory, sim/scenario/memory_fit.hpp).
#include <cstdint>
#include <string>

#include "sim/scenario/scenario_config.hpp"

namespace hplsim::sim {

/// At most this fraction of the nodes is left idle (one node at any count from 2 up).
inline constexpr double kMaxIdleFraction = 0.01;
/// A grid within this factor of the scenario's P:Q is taken as it comes.
inline constexpr double kMaxAspect = 2.0;

struct Rederived {
  int nodes = 0;        ///< the nodes asked for
  int active_nodes = 0; ///< the nodes whose ranks run HPL (the others idle)
  int p = 0, q = 0;
  std::int64_t n = 0;
};

/// `workload` re-derived for `nodes` nodes by the rule above, N before any
/// memory cap (at least NB).
Rederived rederive_for_nodes(const WorkloadConfig& workload, int nodes);

/// The N of the rule alone: the largest multiple of `nb` (at least `nb`) whose
/// matrix memory per rank over `ranks` is not above `workload`'s.
std::int64_t same_memory_per_rank_n(const WorkloadConfig& workload, int ranks, std::int64_t nb);

/// The P x Q of the rule alone: the factorization of `ranks` with P <= Q
/// closest in log to `p_over_q`.
void closest_grid(int ranks, double p_over_q, int& p, int& q);

/// The rule in one line, for the outputs that apply it.
inline constexpr const char* kRederiveRule =
    "P x Q: the factorization of the ranks with P <= Q closest (in log) to the scenario's P:Q, on the most "
    "nodes (at most 1% idle, or one node) whose ranks factor within 2x of it (of square, where P > Q); "
    "N: the scenario's matrix memory per rank (N^2 / ranks), a multiple of NB, lowered where needed to "
    "fit the declared memory with the panels";

} // namespace hplsim::sim
