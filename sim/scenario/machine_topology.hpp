#pragma once
// The machine graph of a scenario (topologies/), and what a point-to-point
// benchmark sees of its idle paths. No SimGrid: `hplsim topo` uses it.
#include <memory>

#include "sim/scenario/scenario_defaults.hpp"
#include "topologies/topology.hpp"

namespace hplsim::sim {

/// Builds the machine graph of a scenario. The topology's own checks throw
/// std::invalid_argument; a validated scenario never triggers them.
std::unique_ptr<topo::Topology> make_topology(const MachineConfig& machine);

/// Latency and bottleneck bandwidth of the idle path between NIC0 of two
/// nodes (what a point-to-point benchmark between them sees before protocol costs).
struct PathFigures {
  double latency_s = 0.0;
  double bandwidth_bytes_per_s = 0.0;
  int switch_hops = 0;
};
PathFigures nominal_path(const ResolvedScenario& scenario, int node_a, int node_b);

} // namespace hplsim::sim
