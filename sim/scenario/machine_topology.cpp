#include "sim/scenario/machine_topology.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "topologies/dragonfly.hpp"
#include "topologies/dragonfly_plus.hpp"
#include "topologies/fat_tree.hpp"

namespace hplsim::sim {

std::unique_ptr<topo::Topology> make_topology(const MachineConfig& machine) {
  const auto& t = machine.topology;
  const auto& node = machine.node;
  if (t.kind == TopologyKind::Dragonfly) {
    topo::DragonflyParams p;
    p.groups = t.dragonfly.groups;
    p.switches_per_group = t.dragonfly.switches_per_group;
    p.endpoint_ports_per_switch = t.dragonfly.endpoint_ports_per_switch;
    p.global_links_per_group_pair = t.dragonfly.global_links_per_group_pair;
    p.switches_per_node = t.dragonfly.switches_per_node;
    p.nics_per_node = node.nics_per_node();
    p.nodes = t.nodes;
    p.local_link_bandwidth_bytes_per_s = t.dragonfly.local_link_bandwidth_bytes_per_s;
    p.global_link_bandwidth_bytes_per_s = t.dragonfly.global_link_bandwidth_bytes_per_s;
    p.nic_bandwidth_bytes_per_s = node.nic_bandwidth_bytes_per_s;
    p.link_latency_s = t.dragonfly.link_latency_s;
    p.switch_latency_s = t.dragonfly.switch_latency_s;
    return std::make_unique<topo::DragonflyTopology>(p);
  }
  if (t.kind == TopologyKind::DragonflyPlus) {
    const DragonflyPlusConfig& d = t.dragonfly_plus;
    topo::DragonflyPlusParams p;
    p.groups = d.groups;
    p.leaves_per_group = d.leaves_per_group;
    p.spines_per_group = d.spines_per_group;
    p.links_per_leaf_spine = d.links_per_leaf_spine;
    p.endpoint_ports_per_leaf = d.endpoint_ports_per_leaf;
    p.global_links_per_group_pair = d.global_links_per_group_pair;
    p.global_ports_per_spine = d.global_ports_per_spine;
    p.nics_per_node = node.nics_per_node();
    p.nodes = t.nodes;
    p.nic_bandwidth_bytes_per_s = node.nic_bandwidth_bytes_per_s;
    p.leaf_spine_link_bandwidth_bytes_per_s = d.leaf_spine_link_bandwidth_bytes_per_s;
    p.global_link_bandwidth_bytes_per_s = d.global_link_bandwidth_bytes_per_s;
    p.link_latency_s = d.link_latency_s;
    p.switch_latency_s = d.switch_latency_s;
    return std::make_unique<topo::DragonflyPlusTopology>(p);
  }
  topo::FatTreeParams p;
  p.leaf_switches = t.fat_tree.leaf_switches;
  p.spine_switches = t.fat_tree.spine_switches;
  p.endpoint_ports_per_leaf = t.fat_tree.endpoint_ports_per_leaf;
  p.links_per_leaf_spine = t.fat_tree.links_per_leaf_spine;
  p.nics_per_node = node.nics_per_node();
  p.nodes = t.nodes;
  p.link_bandwidth_bytes_per_s = t.fat_tree.link_bandwidth_bytes_per_s;
  p.nic_bandwidth_bytes_per_s = node.nic_bandwidth_bytes_per_s;
  p.link_latency_s = t.fat_tree.link_latency_s;
  p.switch_latency_s = t.fat_tree.switch_latency_s;
  return std::make_unique<topo::FatTreeTopology>(p);
}

PathFigures nominal_path(const ResolvedScenario& sc, int node_a, int node_b) {
  const auto topology = make_topology(sc.machine);
  const auto& links = topology->links();
  std::vector<topo::Hop> hops;
  topology->route(topology->nic_switch(node_a, 0), topology->nic_switch(node_b, 0),
                  sc.machine.topology.routing, 0, hops);
  std::vector<int> ids = {topology->nic_link(node_a, 0)};
  for (const auto& h : hops)
    ids.push_back(h.link);
  ids.push_back(topology->nic_link(node_b, 0));
  PathFigures f;
  f.bandwidth_bytes_per_s = std::numeric_limits<double>::infinity();
  f.latency_s = 2.0 * sc.machine.node.nic_latency_s;
  for (int id : ids) {
    f.latency_s += links[static_cast<std::size_t>(id)].latency_s;
    f.bandwidth_bytes_per_s =
        std::min(f.bandwidth_bytes_per_s, links[static_cast<std::size_t>(id)].bandwidth_bytes_per_s);
  }
  f.switch_hops = static_cast<int>(hops.size());
  f.latency_s += (static_cast<double>(hops.size()) + 1.0) * topology->switch_latency_s();
  return f;
}

std::vector<int> links_of_class(const topo::Topology& topology, LinkClass link_class) {
  std::vector<int> ids;
  if (link_class == NIC_PORT) {
    for (int node = 0; node < topology.node_count(); ++node)
      for (int nic = 0; nic < topology.nics_per_node(); ++nic)
        ids.push_back(topology.nic_link(node, nic));
    return ids;
  }
  const auto& links = topology.links();
  for (std::size_t i = 0; i < links.size(); ++i) {
    const topo::LinkKind k = links[i].kind;
    // Leaf: the fat tree's and the DragonFly+'s leaf-spine links (inside a group).
    const bool local = k == topo::LinkKind::Local || k == topo::LinkKind::Leaf;
    if ((link_class == SWITCH_LOCAL && local) || (link_class == GLOBAL && k == topo::LinkKind::Global))
      ids.push_back(static_cast<int>(i));
  }
  return ids;
}

} // namespace hplsim::sim
