#pragma once
// Pre-screening wired into a run (faults.prescreen; docs/faults.md,
// "Pre-screening"): before the run the machine's slowest nodes, ranked by
// their variability rate factors (models/prescreen.hpp), and the nodes named
// in a file are left out, and the run takes workload.nodes of the rest, the
// lowest node ids first. When fewer remain, the run is re-derived from what is
// left by this rule:
//   nodes' = the nodes left, ranks' = nodes' x ranks_per_node;
//   P' x Q' = ranks', the factorization with P' <= Q' whose ratio P'/Q' is
//     closest (in log) to the scenario's P/Q;
//   N' = the largest multiple of NB with N'^2 / ranks' <= N^2 / ranks (the
//     same matrix memory per rank).
#include <string>

#include "sim/scenario/scenario_config.hpp"

namespace hplsim::sim {

/// Applies faults.prescreen to `scenario` (sets workload.node_map, and
/// re-derives nodes, P, Q and N when too few nodes remain); a no-op without it.
/// Returns one line saying what it did (empty without pre-screening).
std::string apply_prescreen(ResolvedScenario& scenario);

} // namespace hplsim::sim
