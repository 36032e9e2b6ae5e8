#pragma once
// The machine graph of a scenario (topologies/), and what a point-to-point
// benchmark sees of its idle paths. No SimGrid: `hplsim topo` uses it.
#include <memory>
#include <vector>

#include "sim/scenario/faults.pb.h"
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

/// The topology's links of a fault class (sim/scenario/faults.proto), in index
/// order: NIC_PORT by (node, nic); SWITCH_LOCAL the dragonfly's intra-group and
/// the fat tree's and DragonFly+'s leaf-spine links, GLOBAL the dragonfly's and
/// DragonFly+'s inter-group links, each in the topology's link order. Empty
/// when the topology has none.
std::vector<int> links_of_class(const topo::Topology& topology, LinkClass link_class);

} // namespace hplsim::sim
