#pragma once
// Two-level fat tree (leaf/spine folded Clos): C. E. Leiserson, "Fat-Trees:
// Universal Networks for Hardware-Efficient Supercomputing", IEEE Trans.
// Computers 34(10), 1985; two-level form as in SimGrid's FatTreeZone
// (Zahavi's D-mod-k routing, "Optimized InfiniBand fat-tree routing for shift
// all-to-all communication patterns", CCPE 2010).
//
// Numbering. Switches: leaves [0, L), spines [L, L + S). Vertices: switches,
// then node n = L + S + n. links() is laid out as [NIC links][leaf-spine links]:
//   - NIC link of (node n, NIC i) = n * nics_per_node + i (a = leaf, b = node vertex);
//   - leaf-spine link (leaf l, spine s, parallel p) =
//     base + (l * S + s) * links_per_leaf_spine + p, kind Leaf, a = leaf, b = spine.
// Node placement: all NICs of a node on one leaf, nodes fill leaf 0's ports
// first, then leaf 1, ... (floor(endpoint_ports_per_leaf / nics_per_node) nodes per leaf).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "topologies/network_graph.hpp"
#include "topologies/topology.hpp"

namespace hplsim::topo {

struct FatTreeParams {
  int leaf_switches = 0;                   // >= 1
  int spine_switches = 0;                  // >= 1
  int endpoint_ports_per_leaf = 0;         // >= 1; NIC ports per leaf
  int links_per_leaf_spine = 1;            // >= 1; parallel cables between each leaf and each spine
  int nics_per_node = 0;                   // >= 1, <= endpoint_ports_per_leaf (a node's NICs share one leaf)
  int nodes = 0;                           // 0 = as many as the leaf ports allow
  double link_bandwidth_bytes_per_s = 0.0; // > 0, per direction, leaf-spine links
  double nic_bandwidth_bytes_per_s = 0.0;  // > 0, per direction, node-leaf links
  double link_latency_s = 0.0;             // >= 0, every link
  double switch_latency_s = 0.0;           // >= 0, per switch traversal

  /// Throws std::invalid_argument naming the field, e.g.
  /// "fat_tree.spine_switches must be >= 1, got 0".
  void check() const;
};

class FatTreeTopology final : public Topology {
public:
  /// Calls params.check() first.
  explicit FatTreeTopology(const FatTreeParams& params);

  std::string describe() const override;
  int node_count() const override { return nodes_; }
  int nics_per_node() const override { return p_.nics_per_node; }
  int switch_count() const override { return p_.leaf_switches + p_.spine_switches; }
  const std::vector<LinkInfo>& links() const override { return links_; }
  double switch_latency_s() const override { return p_.switch_latency_s; }
  int nic_link(int node, int nic) const override;
  int nic_switch(int node, int nic) const override;
  /// D-mod-k with the salt as key: leaf -> leaf goes up to spine (salt mod S)
  /// over parallel cable ((salt / S) mod links_per_leaf_spine) and down the
  /// same-index cable; pass the destination node or NIC id as salt for classic
  /// D-mod-k. Leaf <-> spine: one hop, cable (salt mod links_per_leaf_spine).
  /// Spine -> spine: down to leaf (salt mod L) and up, cable picked like
  /// leaf -> leaf. Every such path is minimal, so Valiant and Adaptive give
  /// the same path as Minimal.
  void route(int src_switch, int dst_switch, Routing routing, std::uint64_t salt,
             std::vector<Hop>& out) const override;
  /// Every (middle switch, parallel cable) pair in order middle-major (leaf ->
  /// leaf: S x links_per_leaf_spine paths); one per cable between a leaf and a
  /// spine; an empty path when equal.
  void minimal_candidates(int src_switch, int dst_switch, std::vector<std::vector<Hop>>& out) const override;
  /// Appends nothing: a two-level fat tree has no non-minimal path worth taking.
  void valiant_candidates(int src_switch, int dst_switch, int count, std::uint64_t salt,
                          std::vector<std::vector<Hop>>& out) const override;
  /// Bisection: floor(L/2) leaves' uplinks (S x links_per_leaf_spine each) x
  /// link bandwidth x 2 directions. Diameter: 2 (1 with one leaf and one spine).
  Metrics metrics() const override;
  std::string to_dot() const override;

  const FatTreeParams& params() const { return p_; }
  const NetworkGraph& graph() const { return graph_; }
  /// Cable `parallel` between leaf `leaf` (switch id) and spine switch `spine` (switch id, >= L).
  int leaf_spine_link(int leaf, int spine, int parallel) const;

private:
  void check_switch(int switch_id, const char* what) const;
  bool is_leaf(int switch_id) const { return switch_id < p_.leaf_switches; }
  // One cable between a leaf and a spine, in either order, traversed from `from`.
  void append_hop(int from, int to, int parallel, std::vector<Hop>& out) const;
  void append_path(int src, int dst, int middle, int parallel, std::vector<Hop>& out) const;

  FatTreeParams p_;
  int nodes_ = 0;
  int nodes_per_leaf_ = 0;
  int uplink_base_ = 0;
  std::vector<LinkInfo> links_;
  NetworkGraph graph_;
  int diameter_ = 0;
};

/// Checks `params` (std::invalid_argument on a bad field) and builds the fat tree.
std::unique_ptr<Topology> make_fat_tree(const FatTreeParams& params);

} // namespace hplsim::topo
