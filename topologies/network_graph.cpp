#include "topologies/network_graph.hpp"

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <boost/graph/graphviz.hpp>

#include <algorithm>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace hplsim::topo {

NetworkGraph build_network_graph(int vertex_count, const std::vector<LinkInfo>& links) {
  NetworkGraph graph(static_cast<std::size_t>(vertex_count));
  for (std::size_t i = 0; i < links.size(); ++i) {
    const LinkInfo& link = links[i];
    if (link.a < 0 || link.a >= vertex_count || link.b < 0 || link.b >= vertex_count)
      throw std::invalid_argument("link " + std::to_string(i) + " joins vertices " + std::to_string(link.a) +
                                  " and " + std::to_string(link.b) + ", outside [0, " +
                                  std::to_string(vertex_count) + ")");
    boost::add_edge(static_cast<std::size_t>(link.a), static_cast<std::size_t>(link.b),
                    LinkEdge{static_cast<int>(i)}, graph);
  }
  return graph;
}

NetworkGraph build_network_graph(const Topology& topology) {
  return build_network_graph(topology.switch_count() + topology.node_count(), topology.links());
}

bool is_connected(const NetworkGraph& graph) {
  const std::size_t n = boost::num_vertices(graph);
  if (n == 0) return true;
  std::vector<int> component(n);
  return boost::connected_components(graph, component.data()) == 1;
}

namespace {

// Keeps the edges between two switches (drops NIC edges).
struct SwitchEdgesOnly {
  const NetworkGraph* graph = nullptr;
  const std::vector<LinkInfo>* links = nullptr;
  bool operator()(NetworkGraph::edge_descriptor e) const {
    return (*links)[static_cast<std::size_t>((*graph)[e].link)].kind != LinkKind::Nic;
  }
};

} // namespace

int switch_diameter_bfs(const NetworkGraph& graph, const std::vector<LinkInfo>& links, int switch_count) {
  const SwitchEdgesOnly keep{&graph, &links};
  const boost::filtered_graph<NetworkGraph, SwitchEdgesOnly> switches(graph, keep);
  const std::size_t n = boost::num_vertices(graph);
  constexpr int unreached = std::numeric_limits<int>::max();
  std::vector<int> distance(n);
  int diameter = 0;
  for (int source = 0; source < switch_count; ++source) {
    std::fill(distance.begin(), distance.end(), unreached);
    distance[static_cast<std::size_t>(source)] = 0;
    boost::breadth_first_search(switches, static_cast<std::size_t>(source),
                                boost::visitor(boost::make_bfs_visitor(
                                    boost::record_distances(distance.data(), boost::on_tree_edge()))));
    for (int target = 0; target < switch_count; ++target) {
      const int d = distance[static_cast<std::size_t>(target)];
      if (d == unreached) return -1;
      diameter = std::max(diameter, d);
    }
  }
  return diameter;
}

std::string network_graph_dot(const NetworkGraph& graph, const std::vector<LinkInfo>& links,
                              int switch_count) {
  std::ostringstream os;
  auto vertex_label = [switch_count](std::ostream& out, std::size_t v) {
    const int id = static_cast<int>(v);
    if (id < switch_count)
      out << "[label=\"s" << id << "\",shape=box]";
    else
      out << "[label=\"n" << id - switch_count << "\",shape=ellipse]";
  };
  auto edge_label = [&graph, &links](std::ostream& out, NetworkGraph::edge_descriptor e) {
    const int link = graph[e].link;
    out << "[label=\"" << link << " " << to_string(links[static_cast<std::size_t>(link)].kind) << "\"]";
  };
  boost::write_graphviz(os, graph, vertex_label, edge_label);
  return os.str();
}

} // namespace hplsim::topo
