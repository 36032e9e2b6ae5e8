#pragma once
// Pre-screening: dropping the slowest nodes before a run (what Aurora's team
// did with MPI-collective and GPCNet screens, arXiv 2604.09517).
#include <vector>

#include "models/variability.hpp"

namespace hplsim::models {

/// Node ids kept, ascending, among [0, nodes), after dropping the
/// round(drop_fraction * nodes) slowest. A node's speed is the minimum of its
/// CPU factor and its GPUs' factors (HPL runs at its slowest device). Nodes
/// are ranked by (speed, id), so among equally slow nodes the lower id is
/// dropped first: the result is deterministic. Throws std::invalid_argument if nodes is not in
/// [0, variability.nodes()] or drop_fraction is not in [0, 1].
std::vector<int> prescreen(const Variability& variability, int nodes, double drop_fraction);

/// The speed prescreen ranks by: min(node_factor, gpu_factor(node, *)).
double node_speed(const Variability& variability, int node);

} // namespace hplsim::models
