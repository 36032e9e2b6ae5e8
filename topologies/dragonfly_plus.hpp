#pragma once
// DragonFly+: A. Shpiner, Z. Haramaty, S. Eliad, V. Zdornov, B. Gafni,
// E. Zahavi, "Dragonfly+: Low Cost Topology for Scaling Datacenters",
// HiPINEB 2017. A dragonfly (topologies/dragonfly.hpp) whose groups are
// two-level fat trees (topologies/fat_tree.hpp): every leaf of a group is
// cabled to every spine of the group (`links_per_leaf_spine` parallel cables),
// nodes attach to the leaves, and the spines carry the global links,
// `global_links_per_group_pair` of them between every pair of groups.
//
// Numbering. A group has n = L + S switches (L leaves, S spines): switch
// g * n + i is leaf i of group g for i < L and spine i - L of g for i >= L.
// Vertices: switches [0, G n), node k is vertex G n + k. links() is laid out as
//   [NIC links][leaf-spine links][global links]:
//   - NIC link of (node k, NIC i) = k * nics_per_node + i (a = leaf, b = node vertex);
//   - leaf-spine link (group g, leaf l, spine j, parallel c) =
//     base + ((g * L + l) * S + j) * links_per_leaf_spine + c, kind Leaf, a = leaf, b = spine;
//   - global links: one block of h = global_links_per_group_pair links per
//     group pair g1 < g2, pairs in lexicographic order, kind Global (a = the
//     spine of g1, b = the spine of g2).
// Node placement (as the fat tree): all NICs of a node on one leaf,
// floor(endpoint_ports_per_leaf / nics_per_node) nodes per leaf; nodes fill
// leaf 0 of group 0 first, then leaf 1, ..., then the leaves of group 1, ...
// Global-link placement (the dragonfly's round-robin, over the spines). Group g
// lists its global link ends by peer group (ascending, g itself skipped; peer
// rank r = peer if peer < g, else peer - 1) and then by parallel index p; end
// e = r * h + p sits on spine (e mod S) of g, global port (e div S) of that
// spine. Link p of the pair (a, b) thus joins spine ((r_a(b) h + p) mod S) of a
// to spine ((r_b(a) h + p) mod S) of b. Every spine owns floor or
// ceil((G - 1) h / S) global ports (check() holds the ceiling to
// global_ports_per_spine), and parallel links to one peer sit on distinct
// spines while h <= S. Within a group, the path to or from end e uses cable
// ((e div S) mod links_per_leaf_spine) of each leaf-spine pair it crosses, and
// a spine that must reach another spine's end e goes down to leaf (e mod L).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "topologies/network_graph.hpp"
#include "topologies/topology.hpp"

namespace hplsim::topo {

class SaltHash;

struct DragonflyPlusParams {
  int groups = 0;                      // >= 1
  int leaves_per_group = 0;            // >= 1
  int spines_per_group = 0;            // >= 1; every leaf is cabled to every spine of its group
  int links_per_leaf_spine = 1;        // >= 1; parallel cables between each leaf and each spine
  int endpoint_ports_per_leaf = 0;     // >= 1; NIC ports per leaf
  int global_links_per_group_pair = 0; // >= 1 when groups > 1 (>= 0 otherwise)
  /// Global ports of one spine: >= ceil((groups - 1) x global_links_per_group_pair / spines_per_group).
  int global_ports_per_spine = 0;
  int nics_per_node = 0;                              // >= 1, <= endpoint_ports_per_leaf (one leaf per node)
  int nodes = 0;                                      // 0 = as many as the leaf ports allow
  double nic_bandwidth_bytes_per_s = 0.0;             // > 0, per direction (node <-> leaf link)
  double leaf_spine_link_bandwidth_bytes_per_s = 0.0; // > 0, per direction
  double global_link_bandwidth_bytes_per_s = 0.0;     // > 0, per direction (spine <-> spine)
  double link_latency_s = 0.0;                        // >= 0, every link
  double switch_latency_s = 0.0;                      // >= 0, per switch traversal

  /// Throws std::invalid_argument naming the field, e.g.
  /// "dragonfly_plus.spines_per_group must be >= 1, got 0".
  void check() const;
  /// Global ports the busiest spine needs: ceil((groups - 1) h / spines_per_group).
  /// Requires check()'s per-field conditions.
  std::int64_t global_ports_needed() const;
};

class DragonflyPlusTopology final : public Topology {
public:
  /// Calls params.check() first.
  explicit DragonflyPlusTopology(const DragonflyPlusParams& params);

  std::string describe() const override;
  int node_count() const override { return nodes_; }
  int nics_per_node() const override { return p_.nics_per_node; }
  int switch_count() const override { return switches_; }
  const std::vector<LinkInfo>& links() const override { return links_; }
  double switch_latency_s() const override { return p_.switch_latency_s; }
  int nic_link(int node, int nic) const override;
  int nic_switch(int node, int nic) const override;
  /// Minimal (and Adaptive). Inside a group, as the fat tree: leaf -> spine ->
  /// leaf, spine -> leaf -> spine, or one leaf-spine hop; the middle switch and
  /// the cable drawn from the hash of (salt, src, dst). Between groups, over one
  /// global link p of the group pair drawn from the hash: leaf -> the spine
  /// owning p's end -> global -> the remote spine -> leaf, exactly 3 hops from
  /// leaf to leaf (the fewest: a leaf touches only its group's spines). A spine
  /// endpoint that does not own p's end reaches it through a leaf (2 hops); the
  /// draw is among the links giving the fewest hops, so a spine uses its own
  /// global links to the peer group when it has some: at most 5 hops with
  /// spine endpoints. Valiant between groups (groups >= 3): minimal to an
  /// intermediate group drawn from the hash (neither source nor destination
  /// group), arriving on the spine that owns the chosen link's end, then
  /// minimal to the destination: that spine forwards on a global link of its
  /// own to the destination group when it has one (the paper's intermediate
  /// spine route), else through a leaf of its group (intermediate leaf route).
  /// Leaf to leaf: 4 or 6 hops, exactly 2 global. Inside a group, and with
  /// groups <= 2, Valiant is Minimal: a group's fat tree has only minimal paths.
  void route(int src_switch, int dst_switch, Routing routing, std::uint64_t salt,
             std::vector<Hop>& out) const override;
  /// Between groups: one path per global link of the pair giving the fewest
  /// hops (every link, p = 0 .. h-1 in order, between leaves). Inside a group,
  /// as the fat tree: one per (middle switch, cable), middle-major; one per
  /// cable between a leaf and a spine; an empty path when equal.
  void minimal_candidates(int src_switch, int dst_switch, std::vector<std::vector<Hop>>& out) const override;
  /// Up to `count` Valiant paths through distinct intermediate groups,
  /// consecutive from the one route(..., Valiant, salt) uses. Appends nothing
  /// where Valiant is Minimal (inside a group, groups <= 2).
  void valiant_candidates(int src_switch, int dst_switch, int count, std::uint64_t salt,
                          std::vector<std::vector<Hop>>& out) const override;
  /// Bisection: groups split in halves floor(G/2) | ceil(G/2); the global links
  /// crossing the cut (half x other x h) x global bandwidth x 2 directions, the
  /// dragonfly's group-level cut. With one group, the fat tree's cut: floor(L/2)
  /// leaves' uplinks x leaf-spine bandwidth x 2 directions. Diameter: breadth-
  /// first search up to 256 switches, structural_diameter() above.
  Metrics metrics() const override;
  std::string to_dot() const override;

  const DragonflyPlusParams& params() const { return p_; }
  const NetworkGraph& graph() const { return graph_; }
  int group_of(int switch_id) const { return switch_id / per_group_; }
  bool is_leaf(int switch_id) const { return switch_id % per_group_ < p_.leaves_per_group; }
  /// Cable `parallel` between leaf switch `leaf` and spine switch `spine` of one group.
  int leaf_spine_link(int leaf, int spine, int parallel) const;
  /// Parallel global link `parallel` between two distinct groups.
  int global_link(int group_a, int group_b, int parallel) const;
  /// The spine (switch id) of group `group` that owns its end of global link `parallel` to `peer`.
  int global_link_spine(int group, int peer, int parallel) const;
  /// Diameter from the structure: one search per spine over the spines (a
  /// spine -> leaf -> spine move inside a group counting 2 hops); leaves
  /// derived from their group's spines. Tests check it equals switch_diameter_bfs().
  int structural_diameter() const;

private:
  void check_switch(int switch_id, const char* what) const;
  // Index of group `group`'s end of link `parallel` to `peer` (e in the header).
  int end_index(int group, int peer, int parallel) const;
  int end_cable(int end) const;
  // One leaf-spine cable, either way, traversed from `from`.
  void append_hop(int from, int to, int cable, std::vector<Hop>& out) const;
  // Inside one group from `from` to `to`: nothing, one hop, or two through `middle`.
  void append_intra(int from, int to, int middle, int cable, std::vector<Hop>& out) const;
  // Hops from `sw` to its group's end of link `parallel` to `peer` (0, 1 or 2).
  int hops_to_end(int sw, int peer, int parallel) const;
  // Hops over link `parallel` from src to dst (dst < 0: to the peer group's end), global hop excluded.
  int link_hops(int src, int peer, int dst, int parallel) const;
  // Links of the pair (group of src, peer) with the fewest hops from src to dst
  // (dst < 0: to the peer group): their count, and the `rank`-th of them.
  int shortest_link_count(int src, int peer, int dst) const;
  int shortest_link(int src, int peer, int dst, int rank) const;
  // src -> its end of link `parallel` -> global; returns the spine reached in `to_group`.
  int append_to_group(int src, int to_group, int parallel, std::vector<Hop>& out) const;
  void append_minimal_across(int src, int dst, int parallel, std::vector<Hop>& out) const;
  void append_valiant(int src, int dst, int intermediate_rank, SaltHash& hash, std::vector<Hop>& out) const;
  void build_links();

  DragonflyPlusParams p_;
  int per_group_ = 0;
  int nodes_ = 0;
  int nodes_per_leaf_ = 0;
  int switches_ = 0;
  int leaf_base_ = 0;
  int global_base_ = 0;
  std::vector<LinkInfo> links_;
  NetworkGraph graph_;
};

/// Checks `params` (std::invalid_argument on a bad field) and builds the DragonFly+.
std::unique_ptr<Topology> make_dragonfly_plus(const DragonflyPlusParams& params);

} // namespace hplsim::topo
