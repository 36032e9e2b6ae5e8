#pragma once
// 1-D Dragonfly: J. Kim, W. J. Dally, S. Scott, D. Abts, "Technology-Driven,
// Highly-Scalable Dragonfly Topology", ISCA 2008. Groups of switches joined
// all-to-all inside a group (one local link per switch pair) and
// `global_links_per_group_pair` parallel global links between every pair of
// groups (the "1-D" all-to-all group arrangement of HPE Slingshot machines
// such as Aurora and Frontier).
//
// Numbering. Switch s = group * switches_per_group + local index. Vertices:
// switches [0, S), node n is vertex S + n. links() is laid out as
//   [NIC links][local links][global links]:
//   - NIC link of (node n, NIC i) = n * nics_per_node + i (a = switch, b = node vertex);
//   - local links of group g: one per switch pair i < j of the group, in
//     (i, j) lexicographic order (a = switch i, b = switch j);
//   - global links: one block of `global_links_per_group_pair` links per group
//     pair g1 < g2, pairs in lexicographic order (a = the switch of g1, b = the
//     switch of g2).
// Node placement. A group's switches form blocks of `switches_per_node`
// consecutive switches; each node of a block puts NIC i on switch
// (block's first switch) + (i mod switches_per_node), ports filled in order.
// Nodes fill block 0 of group 0 first, then the next block, then group 1, ...
// Global-link arrangement (round-robin, balanced). Group g lists its global
// link ends by peer group (ascending, g itself skipped; peer rank r = peer if
// peer < g, else peer - 1) and then by parallel index p; end k = r * h + p
// (h = global_links_per_group_pair) sits on switch (k mod switches_per_group)
// of g. Every switch thus owns floor or ceil((groups - 1) * h / switches_per_group)
// global ports, and parallel links to one peer sit on distinct switches while
// h <= switches_per_group.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "topologies/network_graph.hpp"
#include "topologies/topology.hpp"

namespace hplsim::topo {

class SaltHash;

struct DragonflyParams {
  int groups = 0;                      // >= 1
  int switches_per_group = 0;          // >= 1; all-to-all inside the group
  int endpoint_ports_per_switch = 0;   // >= 1; NIC ports per switch
  int global_links_per_group_pair = 0; // >= 1 when groups > 1 (>= 0 otherwise)
  /// A node's NICs spread round-robin over this many consecutive switches of its
  /// group (Aurora: 8 NICs over 4 switches). Divides switches_per_group and nics_per_node.
  int switches_per_node = 1;
  int nics_per_node = 0;                          // >= 1
  int nodes = 0;                                  // 0 = as many as the endpoint ports allow
  double local_link_bandwidth_bytes_per_s = 0.0;  // > 0, per direction
  double global_link_bandwidth_bytes_per_s = 0.0; // > 0, per direction
  double nic_bandwidth_bytes_per_s = 0.0;         // > 0, per direction (node <-> switch link)
  double link_latency_s = 0.0;                    // >= 0, every link
  double switch_latency_s = 0.0;                  // >= 0, per switch traversal

  /// Throws std::invalid_argument naming the field, e.g.
  /// "dragonfly.groups must be >= 1, got 0".
  void check() const;
  /// Nodes one group holds: (switches_per_group / switches_per_node) blocks of
  /// floor(endpoint_ports_per_switch / (nics_per_node / switches_per_node)) nodes.
  /// Requires check()'s per-field conditions.
  std::int64_t nodes_per_group() const;
};

class DragonflyTopology final : public Topology {
public:
  /// Calls params.check() first.
  explicit DragonflyTopology(const DragonflyParams& params);

  std::string describe() const override;
  int node_count() const override { return nodes_; }
  int nics_per_node() const override { return p_.nics_per_node; }
  int switch_count() const override { return switches_; }
  const std::vector<LinkInfo>& links() const override { return links_; }
  double switch_latency_s() const override { return p_.switch_latency_s; }
  int nic_link(int node, int nic) const override;
  int nic_switch(int node, int nic) const override;
  /// Minimal (and Adaptive): [local] global [local] between groups, one local
  /// hop inside a group; the parallel global link is picked by hashing
  /// (salt, src, dst). Valiant between groups (groups >= 3): minimal to an
  /// intermediate group picked from the hash (neither source nor destination
  /// group), arriving on the switch that owns the chosen global link, then
  /// minimal to the destination: [local] global [local] global [local], exactly
  /// 2 global and at most 3 local hops, at most 5 in all. Valiant inside a group
  /// (switches_per_group >= 3): via an intermediate switch of the group
  /// (neither source nor destination), exactly 2 local hops. Where no
  /// intermediate exists (groups == 2 across groups, switches_per_group <= 2
  /// inside one), Valiant falls back to Minimal.
  void route(int src_switch, int dst_switch, Routing routing, std::uint64_t salt,
             std::vector<Hop>& out) const override;
  /// One path per parallel global link p = 0 .. h-1 (in that order) between
  /// groups; the single local hop inside a group; an empty path when equal.
  void minimal_candidates(int src_switch, int dst_switch, std::vector<std::vector<Hop>>& out) const override;
  /// Up to `count` Valiant paths through distinct intermediate groups (or
  /// switches, inside a group): consecutive intermediates starting from the
  /// one route(..., Valiant, salt) uses. Appends nothing where Valiant falls back to Minimal.
  void valiant_candidates(int src_switch, int dst_switch, int count, std::uint64_t salt,
                          std::vector<std::vector<Hop>>& out) const override;
  /// Bisection: groups split in halves floor(G/2) | ceil(G/2); crossing global
  /// links x global bandwidth x 2 directions. With one group, its switches are
  /// split in halves instead and local links are counted.
  Metrics metrics() const override;
  std::string to_dot() const override;

  const DragonflyParams& params() const { return p_; }
  const NetworkGraph& graph() const { return graph_; }
  int group_of(int switch_id) const { return switch_id / p_.switches_per_group; }
  /// Local link between two distinct switches of one group.
  int local_link(int switch_a, int switch_b) const;
  /// Parallel global link `parallel` between two distinct groups.
  int global_link(int group_a, int group_b, int parallel) const;
  /// The switch of group `group` that owns its end of global link `parallel` to `peer`.
  int global_link_switch(int group, int peer, int parallel) const;
  /// Diameter computed from the structure, no graph search (what metrics()
  /// reports for instances over 256 switches; tests check it equals
  /// switch_diameter_bfs() on small ones).
  int structural_diameter() const;

private:
  void check_switch(int switch_id, const char* what) const;
  void append_local(int from, int to, std::vector<Hop>& out) const;
  // [local] global [local] from `from` into group `to_group` over parallel link
  // `parallel`; returns the switch reached in `to_group`.
  int append_to_group(int from, int to_group, int parallel, std::vector<Hop>& out) const;
  void append_minimal(int src, int dst, int parallel, std::vector<Hop>& out) const;
  // Valiant through the intermediate of rank `intermediate_rank` (groups, or
  // switches of the group, other than the source's and destination's);
  // parallel global links drawn from `hash`.
  void append_valiant(int src, int dst, int intermediate_rank, SaltHash& hash, std::vector<Hop>& out) const;
  void build_links();

  DragonflyParams p_;
  int nodes_ = 0;
  int switches_ = 0;
  int local_links_per_group_ = 0;
  int local_base_ = 0;
  int global_base_ = 0;
  std::vector<LinkInfo> links_;
  NetworkGraph graph_;
  int diameter_ = 0;
};

/// Checks `params` (std::invalid_argument on a bad field) and builds the dragonfly.
std::unique_ptr<Topology> make_dragonfly(const DragonflyParams& params);

} // namespace hplsim::topo
