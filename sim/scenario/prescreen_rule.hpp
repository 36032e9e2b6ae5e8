#pragma once
// Pre-screening wired into a run (faults.prescreen; docs/faults.md,
// "Pre-screening"): before the run the machine's slowest nodes, ranked by
// their variability rate factors (models/prescreen.hpp), and the nodes named
// in a file are left out, and the run takes workload.nodes of the rest, the
// lowest node ids first. When fewer remain, the run is re-derived from what is
// left by the rule of sim/scenario/grid_rule.hpp (the one `hplsim plan` and
// `hplsim run --nodes` use): the nodes left (a few idle where their ranks
// factor badly), P' x Q' the factorization of their ranks closest to the
// scenario's P:Q, N' the same matrix memory per rank, lowered to fit.
#include <string>

#include "sim/scenario/scenario_config.hpp"

namespace hplsim::sim {

/// Applies faults.prescreen to `scenario` (sets workload.node_map, and
/// re-derives nodes, P, Q and N when too few nodes remain); a no-op without it.
/// Returns one line saying what it did (empty without pre-screening).
std::string apply_prescreen(ResolvedScenario& scenario);

} // namespace hplsim::sim
