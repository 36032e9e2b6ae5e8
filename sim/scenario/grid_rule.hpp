#pragma once
// The run re-derived for another node count: the one rule pre-screening
// (sim/scenario/prescreen_rule.hpp) and `hplsim plan` (sim/study/plan.hpp)
// share, so that a plan's point and a pre-screened run of the same size are
// the same run:
//   ranks' = nodes' x ranks_per_node;
//   P' x Q' = ranks', the factorization with P' <= Q' whose ratio P'/Q' is
//     closest (in log) to the scenario's P/Q (ties: the smaller P');
//   N' = the largest multiple of NB with N'^2 / ranks' <= N^2 / ranks (the
//     same matrix memory per rank, so the same fraction of each GPU's memory
//     the scenario's own N fills).
#include <cstdint>
#include <string>

#include "sim/scenario/scenario_config.hpp"

namespace hplsim::sim {

struct Rederived {
  int nodes = 0, p = 0, q = 0;
  std::int64_t n = 0;
};

/// `workload` re-derived for `nodes` nodes by the rule above (N at least NB).
Rederived rederive_for_nodes(const WorkloadConfig& workload, int nodes);

/// The N of the rule alone: the largest multiple of `nb` (at least `nb`) whose
/// matrix memory per rank over `ranks` is not above `workload`'s.
std::int64_t same_memory_per_rank_n(const WorkloadConfig& workload, int ranks, std::int64_t nb);

/// The P x Q of the rule alone: the factorization of `ranks` with P <= Q
/// closest in log to `p_over_q`.
void closest_grid(int ranks, double p_over_q, int& p, int& q);

/// The rule in one line, for the outputs that apply it.
inline constexpr const char* kRederiveRule =
    "P x Q: the factorization of nodes x ranks_per_node with P <= Q closest (in log) to the scenario's P:Q; "
    "N: the largest multiple of NB with the scenario's matrix memory per rank (N^2 / ranks)";

} // namespace hplsim::sim
