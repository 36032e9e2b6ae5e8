#include "topologies/topology.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "topologies/network_graph.hpp"

namespace hplsim::topo {
namespace {

TEST(LinkKind, NamesEveryKind) {
  EXPECT_STREQ(to_string(LinkKind::Nic), "nic");
  EXPECT_STREQ(to_string(LinkKind::Local), "local");
  EXPECT_STREQ(to_string(LinkKind::Global), "global");
  EXPECT_STREQ(to_string(LinkKind::Leaf), "leaf");
  EXPECT_STREQ(to_string(LinkKind::Spine), "spine");
}

TEST(MetricsText, PrintsCountsAndBandwidthsInPetaAndTeraBytes) {
  Metrics m{};
  m.nodes = 10624;
  m.nics = 84992;
  m.switches = 5312;
  m.links = 194718;
  m.injection_bandwidth_bytes_per_s = 2.1248e15;
  m.bisection_bandwidth_bytes_per_s = 0.6889e15;
  m.diameter_switch_hops = 3;
  const std::string text = metrics_text(m);
  EXPECT_NE(text.find("nodes:     10624"), std::string::npos) << text;
  EXPECT_NE(text.find("2.125 PB/s (2124.8 TB/s)"), std::string::npos) << text;
  EXPECT_NE(text.find("0.689 PB/s (688.9 TB/s)"), std::string::npos) << text;
  EXPECT_NE(text.find("diameter:  3"), std::string::npos) << text;
}

// Two switches joined by a local link, one node on switch 0, one isolated switch 2.
std::vector<LinkInfo> two_islands() {
  return {{LinkKind::Local, 0, 1, 1e9, 0.0}, {LinkKind::Nic, 0, 3, 1e9, 0.0}};
}

TEST(NetworkGraph, DetectsDisconnectedSwitches) {
  const NetworkGraph g = build_network_graph(4, two_islands());
  EXPECT_FALSE(is_connected(g));
  EXPECT_EQ(switch_diameter_bfs(g, two_islands(), 3), -1);
  EXPECT_EQ(switch_diameter_bfs(g, two_islands(), 2), 1);
  EXPECT_EQ(g[*boost::edges(g).first].link, 0);
}

TEST(NetworkGraph, BfsIgnoresPathsThroughNodes) {
  // Switches 0 and 1 only share node vertex 2 (two NICs): no switch path.
  const std::vector<LinkInfo> links = {{LinkKind::Nic, 0, 2, 1e9, 0.0}, {LinkKind::Nic, 1, 2, 1e9, 0.0}};
  const NetworkGraph g = build_network_graph(3, links);
  EXPECT_TRUE(is_connected(g));
  EXPECT_EQ(switch_diameter_bfs(g, links, 2), -1);
}

TEST(NetworkGraph, RejectsLinkOutsideTheVertices) {
  EXPECT_THROW((void)build_network_graph(2, two_islands()), std::invalid_argument);
}

} // namespace
} // namespace hplsim::topo
