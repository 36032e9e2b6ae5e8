#include "topologies/fat_tree.hpp"

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>

#include "topologies/param_check.hpp"

namespace hplsim::topo {

void FatTreeParams::check() const {
  const std::string f = "fat_tree.";
  require_at_least(f + "leaf_switches", leaf_switches, 1);
  require_at_least(f + "spine_switches", spine_switches, 1);
  require_at_least(f + "endpoint_ports_per_leaf", endpoint_ports_per_leaf, 1);
  require_at_least(f + "links_per_leaf_spine", links_per_leaf_spine, 1);
  require_at_least(f + "nics_per_node", nics_per_node, 1);
  require_at_most(f + "nics_per_node", nics_per_node, endpoint_ports_per_leaf,
                  "fat_tree.endpoint_ports_per_leaf: a node's NICs share one leaf");
  require_at_least(f + "nodes", nodes, 0);
  require_positive(f + "link_bandwidth_bytes_per_s", link_bandwidth_bytes_per_s);
  require_positive(f + "nic_bandwidth_bytes_per_s", nic_bandwidth_bytes_per_s);
  require_non_negative(f + "link_latency_s", link_latency_s);
  require_non_negative(f + "switch_latency_s", switch_latency_s);

  const std::int64_t ports = static_cast<std::int64_t>(leaf_switches) * endpoint_ports_per_leaf;
  const std::int64_t nics_wanted = static_cast<std::int64_t>(nodes) * nics_per_node;
  if (nics_wanted > ports)
    throw std::invalid_argument("fat_tree.nodes x fat_tree.nics_per_node must be <= leaf_switches x "
                                "endpoint_ports_per_leaf = " +
                                std::to_string(ports) + " endpoint ports, got " + std::to_string(nodes) +
                                " x " + std::to_string(nics_per_node) + " = " + std::to_string(nics_wanted));
  const std::int64_t capacity =
      static_cast<std::int64_t>(leaf_switches) * (endpoint_ports_per_leaf / nics_per_node);
  require_at_most(f + "nodes", nodes, capacity,
                  "whole nodes that fit: leaf_switches x floor(endpoint_ports_per_leaf / nics_per_node)");
  // Sizes must fit the int ids of Topology (checked in double: no overflow).
  const double nics_total = static_cast<double>(nodes == 0 ? capacity : nodes) * nics_per_node;
  const double uplinks = static_cast<double>(leaf_switches) * spine_switches * links_per_leaf_spine;
  const double switches = static_cast<double>(leaf_switches) + spine_switches;
  if (nics_total + uplinks > INT_MAX || switches + nics_total > INT_MAX)
    throw std::invalid_argument("fat_tree: " + std::to_string(nics_total + uplinks) + " links must be <= " +
                                std::to_string(INT_MAX) + " (int link ids); reduce switches or ports");
}

FatTreeTopology::FatTreeTopology(const FatTreeParams& params) : p_(params) {
  p_.check();
  nodes_per_leaf_ = p_.endpoint_ports_per_leaf / p_.nics_per_node;
  nodes_ = p_.nodes == 0 ? p_.leaf_switches * nodes_per_leaf_ : p_.nodes;
  const int s_count = switch_count();
  uplink_base_ = nodes_ * p_.nics_per_node;
  links_.reserve(static_cast<std::size_t>(uplink_base_) +
                 static_cast<std::size_t>(p_.leaf_switches) * p_.spine_switches * p_.links_per_leaf_spine);
  for (int n = 0; n < nodes_; ++n)
    for (int i = 0; i < p_.nics_per_node; ++i)
      links_.push_back(
          {LinkKind::Nic, nic_switch(n, i), s_count + n, p_.nic_bandwidth_bytes_per_s, p_.link_latency_s});
  for (int l = 0; l < p_.leaf_switches; ++l)
    for (int s = 0; s < p_.spine_switches; ++s)
      for (int k = 0; k < p_.links_per_leaf_spine; ++k)
        links_.push_back(
            {LinkKind::Leaf, l, p_.leaf_switches + s, p_.link_bandwidth_bytes_per_s, p_.link_latency_s});
  graph_ = build_network_graph(s_count + nodes_, links_);
  if (!is_connected(graph_))
    throw std::logic_error("fat_tree: built graph is not connected (" + describe() + ")");
  // Complete bipartite leaf/spine graph: leaf-spine 1 hop, leaf-leaf and
  // spine-spine 2 hops (through any spine / leaf). Tests check it against BFS.
  diameter_ = (p_.leaf_switches == 1 && p_.spine_switches == 1) ? 1 : 2;
}

std::string FatTreeTopology::describe() const {
  return "two-level fat tree: " + std::to_string(p_.leaf_switches) + " leaves x " +
         std::to_string(p_.spine_switches) + " spines, " + std::to_string(p_.links_per_leaf_spine) +
         " links per leaf-spine pair, " + std::to_string(nodes_) + " nodes x " +
         std::to_string(p_.nics_per_node) + " NICs";
}

int FatTreeTopology::nic_link(int node, int nic) const {
  if (node < 0 || node >= nodes_ || nic < 0 || nic >= p_.nics_per_node)
    throw std::out_of_range("fat_tree: no NIC " + std::to_string(nic) + " of node " + std::to_string(node));
  return node * p_.nics_per_node + nic;
}

int FatTreeTopology::nic_switch(int node, int nic) const {
  if (node < 0 || node >= nodes_ || nic < 0 || nic >= p_.nics_per_node)
    throw std::out_of_range("fat_tree: no NIC " + std::to_string(nic) + " of node " + std::to_string(node));
  return node / nodes_per_leaf_;
}

int FatTreeTopology::leaf_spine_link(int leaf, int spine, int parallel) const {
  const int s = spine - p_.leaf_switches;
  return uplink_base_ + (leaf * p_.spine_switches + s) * p_.links_per_leaf_spine + parallel;
}

void FatTreeTopology::check_switch(int switch_id, const char* what) const {
  if (switch_id < 0 || switch_id >= switch_count())
    throw std::out_of_range(std::string("fat_tree: ") + what + " switch " + std::to_string(switch_id) +
                            " outside [0, " + std::to_string(switch_count()) + ")");
}

void FatTreeTopology::append_hop(int from, int to, int parallel, std::vector<Hop>& out) const {
  const bool up = is_leaf(from);
  out.push_back({up ? leaf_spine_link(from, to, parallel) : leaf_spine_link(to, from, parallel), up});
}

void FatTreeTopology::append_path(int src, int dst, int middle, int parallel, std::vector<Hop>& out) const {
  if (src == dst) return;
  if (is_leaf(src) != is_leaf(dst)) {
    append_hop(src, dst, parallel, out);
    return;
  }
  append_hop(src, middle, parallel, out);
  append_hop(middle, dst, parallel, out);
}

void FatTreeTopology::route(int src_switch, int dst_switch, Routing /*routing: all paths minimal*/,
                            std::uint64_t salt, std::vector<Hop>& out) const {
  check_switch(src_switch, "source");
  check_switch(dst_switch, "destination");
  const auto lps = static_cast<std::uint64_t>(p_.links_per_leaf_spine);
  if (is_leaf(src_switch) != is_leaf(dst_switch)) {
    append_path(src_switch, dst_switch, -1, static_cast<int>(salt % lps), out);
    return;
  }
  // Middle tier: spines between leaves, leaves between spines.
  const auto middles = static_cast<std::uint64_t>(is_leaf(src_switch) ? p_.spine_switches : p_.leaf_switches);
  const int first_middle = is_leaf(src_switch) ? p_.leaf_switches : 0;
  const int middle = first_middle + static_cast<int>(salt % middles);
  append_path(src_switch, dst_switch, middle, static_cast<int>((salt / middles) % lps), out);
}

void FatTreeTopology::minimal_candidates(int src_switch, int dst_switch,
                                         std::vector<std::vector<Hop>>& out) const {
  check_switch(src_switch, "source");
  check_switch(dst_switch, "destination");
  if (src_switch == dst_switch) {
    out.emplace_back();
    return;
  }
  if (is_leaf(src_switch) != is_leaf(dst_switch)) {
    for (int k = 0; k < p_.links_per_leaf_spine; ++k) {
      out.emplace_back();
      append_path(src_switch, dst_switch, -1, k, out.back());
    }
    return;
  }
  const int first_middle = is_leaf(src_switch) ? p_.leaf_switches : 0;
  const int middles = is_leaf(src_switch) ? p_.spine_switches : p_.leaf_switches;
  for (int m = first_middle; m < first_middle + middles; ++m)
    for (int k = 0; k < p_.links_per_leaf_spine; ++k) {
      out.emplace_back();
      append_path(src_switch, dst_switch, m, k, out.back());
    }
}

void FatTreeTopology::valiant_candidates(int src_switch, int dst_switch, int /*count*/,
                                         std::uint64_t /*salt*/,
                                         std::vector<std::vector<Hop>>& /*out*/) const {
  check_switch(src_switch, "source");
  check_switch(dst_switch, "destination");
}

Metrics FatTreeTopology::metrics() const {
  Metrics m{};
  m.nodes = nodes_;
  m.nics = static_cast<std::int64_t>(nodes_) * p_.nics_per_node;
  m.switches = switch_count();
  m.links = static_cast<std::int64_t>(links_.size());
  double injection = 0.0;
  for (int i = 0; i < uplink_base_; ++i) // the NIC links, one direction each
    injection += links_[static_cast<std::size_t>(i)].bandwidth_bytes_per_s;
  m.injection_bandwidth_bytes_per_s = injection;
  // Two halves of the nodes: between leaves, the cut is half the leaves'
  // uplinks; the halves' own NIC links bound it too, and are the whole cut
  // when one leaf holds every node (its crossbar joins the halves).
  const double half_leaves = static_cast<double>(p_.leaf_switches / 2);
  const double leaf_cut =
      half_leaves * p_.spine_switches * p_.links_per_leaf_spine * p_.link_bandwidth_bytes_per_s * 2.0;
  const double node_cut =
      static_cast<double>(nodes_ / 2) * p_.nics_per_node * p_.nic_bandwidth_bytes_per_s * 2.0;
  m.bisection_bandwidth_bytes_per_s = p_.leaf_switches == 1 ? node_cut : std::min(leaf_cut, node_cut);
  m.diameter_switch_hops = diameter_;
  return m;
}

std::string FatTreeTopology::to_dot() const {
  return network_graph_dot(graph_, links_, switch_count());
}

std::unique_ptr<Topology> make_fat_tree(const FatTreeParams& params) {
  return std::make_unique<FatTreeTopology>(params);
}

} // namespace hplsim::topo
