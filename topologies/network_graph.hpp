#pragma once
// The Boost.Graph view of a topology: one vertex per switch and per node (the
// numbering of LinkInfo: switches [0, S), nodes [S, S + N)), one edge per
// cable whose property is its index into Topology::links(). Used to check
// connectivity, to compute the diameter by breadth-first search, and to dump
// Graphviz; routing never searches it.
#include <boost/graph/adjacency_list.hpp>

#include <string>
#include <vector>

#include "topologies/topology.hpp"

namespace hplsim::topo {

struct LinkEdge {
  int link = -1; // index into the links vector the graph was built from
};

using NetworkGraph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property, LinkEdge>;

/// One edge per entry of `links`, in order; throws std::invalid_argument when
/// an endpoint is outside [0, vertex_count).
NetworkGraph build_network_graph(int vertex_count, const std::vector<LinkInfo>& links);
NetworkGraph build_network_graph(const Topology& topology);

/// True when every vertex (switches and nodes) is reachable from vertex 0.
bool is_connected(const NetworkGraph& graph);

/// Diameter of the switch-to-switch subgraph (NIC edges removed, so a path
/// can never cut through a multi-NIC node) by one breadth-first search per
/// switch: O(S * (S + E)). Returns -1 when some switch cannot reach another.
int switch_diameter_bfs(const NetworkGraph& graph, const std::vector<LinkInfo>& links, int switch_count);

/// Graphviz (undirected): switches "sN", nodes "nN", each edge labelled with
/// its link index and kind.
std::string network_graph_dot(const NetworkGraph& graph, const std::vector<LinkInfo>& links,
                              int switch_count);

} // namespace hplsim::topo
