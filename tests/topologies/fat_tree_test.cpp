#include "topologies/fat_tree.hpp"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "route_walk.hpp"
#include "topologies/network_graph.hpp"

namespace hplsim::topo {
namespace {

using testing::rejects;
using testing::walks_from_to;

// 4 leaves x 2 spines, 2 cables per leaf-spine pair, 8 endpoint ports per
// leaf, nodes of 2 NICs: 4 nodes per leaf.
FatTreeParams small_params() {
  FatTreeParams p;
  p.leaf_switches = 4;
  p.spine_switches = 2;
  p.endpoint_ports_per_leaf = 8;
  p.links_per_leaf_spine = 2;
  p.nics_per_node = 2;
  p.link_bandwidth_bytes_per_s = 12.5e9;
  p.nic_bandwidth_bytes_per_s = 10e9;
  p.link_latency_s = 1e-7;
  p.switch_latency_s = 1e-7;
  return p;
}

// A small cluster: one leaf switch (and its one spine) holds 4 nodes of 2
// NICs. No cable crosses a cut between two halves of the nodes but their own
// NIC links: 2 nodes x 2 NICs x 10e9 x 2 directions = 80e9 (by hand).
TEST(FatTreeTopology, OneLeafBisectsThroughTheNodesLinks) {
  FatTreeParams p = small_params();
  p.leaf_switches = 1;
  p.spine_switches = 1;
  p.nodes = 4;
  const Metrics m = FatTreeTopology(p).metrics();
  EXPECT_NEAR(m.bisection_bandwidth_bytes_per_s, 80e9, 1.0);
  // With few nodes on many leaves, the nodes' links are the narrower cut:
  // 3 nodes on 4 leaves: 1 node x 2 NICs x 10e9 x 2 = 40e9 < the uplinks' 200e9.
  p = small_params();
  p.nodes = 3;
  EXPECT_NEAR(FatTreeTopology(p).metrics().bisection_bandwidth_bytes_per_s, 40e9, 1.0);
}

TEST(FatTreeTopology, SmallInstanceCountsMatchHandComputation) {
  const FatTreeTopology t(small_params());
  const Metrics m = t.metrics();
  EXPECT_EQ(m.nodes, 16);   // 4 leaves x floor(8 / 2)
  EXPECT_EQ(m.nics, 32);    // 16 x 2
  EXPECT_EQ(m.switches, 6); // 4 + 2
  EXPECT_EQ(m.links, 48);   // 32 NIC + 4 x 2 x 2 leaf-spine
  // 32 NIC links x 10e9.
  EXPECT_NEAR(m.injection_bandwidth_bytes_per_s, 320e9, 1.0);
  // Half the leaves (2) x 2 spines x 2 cables x 12.5e9 x 2 directions = 200e9.
  EXPECT_NEAR(m.bisection_bandwidth_bytes_per_s, 200e9, 1.0);
  EXPECT_EQ(m.diameter_switch_hops, 2);
  // Node 5 is the second node of leaf 1; its NIC 1 is link 5 x 2 + 1.
  EXPECT_EQ(t.nic_switch(5, 1), 1);
  EXPECT_EQ(t.nic_link(5, 1), 11);
  const LinkInfo& up = t.links()[static_cast<std::size_t>(t.leaf_spine_link(3, 5, 1))];
  EXPECT_EQ(up.kind, LinkKind::Leaf);
  EXPECT_EQ(up.a, 3);
  EXPECT_EQ(up.b, 5);
  EXPECT_EQ(t.leaf_spine_link(3, 5, 1), 32 + (3 * 2 + 1) * 2 + 1);
  EXPECT_THROW((void)t.nic_switch(16, 0), std::out_of_range);
}

TEST(FatTreeTopology, EveryRouteIsAValidMinimalPath) {
  const FatTreeTopology t(small_params());
  std::vector<Hop> hops;
  for (std::uint64_t salt = 0; salt < 5; ++salt)
    for (int s = 0; s < t.switch_count(); ++s)
      for (int d = 0; d < t.switch_count(); ++d)
        for (Routing r : {Routing::Minimal, Routing::Valiant, Routing::Adaptive}) {
          hops.clear();
          t.route(s, d, r, salt, hops);
          ASSERT_TRUE(walks_from_to(t, s, d, hops)) << s << " -> " << d;
          const bool s_leaf = s < 4;
          const bool d_leaf = d < 4;
          const std::size_t expected = s == d ? 0u : s_leaf != d_leaf ? 1u : 2u;
          EXPECT_EQ(hops.size(), expected);
        }
}

TEST(FatTreeTopology, SaltPicksSpineDModKStyle) {
  const FatTreeTopology t(small_params());
  std::set<int> spines;
  for (std::uint64_t salt = 0; salt < 4; ++salt) {
    std::vector<Hop> hops;
    t.route(0, 3, Routing::Minimal, salt, hops);
    const int spine = t.links()[static_cast<std::size_t>(hops[0].link)].b;
    // Spine = L + salt mod S; cable = (salt / S) mod links_per_leaf_spine.
    EXPECT_EQ(spine, 4 + static_cast<int>(salt % 2));
    EXPECT_EQ(hops[0].link, t.leaf_spine_link(0, spine, static_cast<int>((salt / 2) % 2)));
    spines.insert(spine);
    std::vector<Hop> again;
    t.route(0, 3, Routing::Minimal, salt, again);
    EXPECT_EQ(hops, again);
  }
  EXPECT_EQ(spines.size(), 2u);
}

TEST(FatTreeTopology, CandidatesCoverEverySpineAndCable) {
  const FatTreeTopology t(small_params());
  std::vector<std::vector<Hop>> c;
  t.minimal_candidates(1, 2, c);
  ASSERT_EQ(c.size(), 4u); // 2 spines x 2 cables
  std::set<int> first_links;
  for (const auto& path : c) {
    ASSERT_TRUE(walks_from_to(t, 1, 2, path));
    first_links.insert(path[0].link);
  }
  EXPECT_EQ(first_links.size(), 4u);
  c.clear();
  t.minimal_candidates(1, 4, c);
  EXPECT_EQ(c.size(), 2u); // leaf -> spine: one per cable
  c.clear();
  t.minimal_candidates(2, 2, c);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_TRUE(c[0].empty());
  c.clear();
  t.valiant_candidates(1, 2, 3, 0, c);
  EXPECT_TRUE(c.empty());
}

TEST(FatTreeTopology, DiameterEqualsBfs) {
  for (int leaves = 1; leaves <= 3; ++leaves)
    for (int spines = 1; spines <= 3; ++spines) {
      FatTreeParams p = small_params();
      p.leaf_switches = leaves;
      p.spine_switches = spines;
      p.links_per_leaf_spine = 1;
      const FatTreeTopology t(p);
      EXPECT_EQ(t.metrics().diameter_switch_hops, switch_diameter_bfs(t.graph(), t.links(), t.switch_count()))
          << leaves << " leaves x " << spines << " spines";
      EXPECT_TRUE(is_connected(t.graph()));
    }
}

TEST(FatTreeTopology, DumpsToDot) {
  const FatTreeTopology t(small_params());
  const std::string dot = t.to_dot();
  EXPECT_NE(dot.find("leaf"), std::string::npos);
  EXPECT_NE(dot.find("\"s5\""), std::string::npos);
  EXPECT_NE(t.describe().find("4 leaves x 2 spines"), std::string::npos);
}

template <class Edit>::testing::AssertionResult rejects_edit(Edit edit, const std::string& field) {
  FatTreeParams p = small_params();
  edit(p);
  auto first = rejects([&] { p.check(); }, field);
  if (!first) return first;
  return rejects([&] { (void)make_fat_tree(p); }, field);
}

TEST(FatTreeTopology, RejectsZeroLeaves) {
  EXPECT_TRUE(rejects_edit([](FatTreeParams& p) { p.leaf_switches = 0; },
                           "fat_tree.leaf_switches must be >= 1, got 0"));
}

TEST(FatTreeTopology, RejectsZeroSpines) {
  EXPECT_TRUE(rejects_edit([](FatTreeParams& p) { p.spine_switches = 0; }, "fat_tree.spine_switches"));
}

TEST(FatTreeTopology, RejectsZeroEndpointPorts) {
  EXPECT_TRUE(rejects_edit([](FatTreeParams& p) { p.endpoint_ports_per_leaf = 0; },
                           "fat_tree.endpoint_ports_per_leaf"));
}

TEST(FatTreeTopology, RejectsZeroLinksPerLeafSpine) {
  EXPECT_TRUE(
      rejects_edit([](FatTreeParams& p) { p.links_per_leaf_spine = 0; }, "fat_tree.links_per_leaf_spine"));
}

TEST(FatTreeTopology, RejectsZeroNicsPerNode) {
  EXPECT_TRUE(rejects_edit([](FatTreeParams& p) { p.nics_per_node = 0; }, "fat_tree.nics_per_node"));
}

TEST(FatTreeTopology, RejectsNicsThatDoNotFitOneLeaf) {
  EXPECT_TRUE(
      rejects_edit([](FatTreeParams& p) { p.nics_per_node = 9; }, "fat_tree.nics_per_node must be <= 8"));
}

TEST(FatTreeTopology, RejectsNegativeNodes) {
  EXPECT_TRUE(rejects_edit([](FatTreeParams& p) { p.nodes = -3; }, "fat_tree.nodes"));
}

TEST(FatTreeTopology, RejectsTooManyNodesForPorts) {
  // 4 x 8 = 32 ports: 16 nodes of 2 NICs fit, 17 do not.
  EXPECT_TRUE(
      rejects_edit([](FatTreeParams& p) { p.nodes = 17; }, "fat_tree.nodes x fat_tree.nics_per_node"));
}

TEST(FatTreeTopology, RejectsNodesThatDoNotFitWholeLeaves) {
  // 3 NICs per node: floor(8 / 3) = 2 nodes per leaf, 8 in all, though 32 ports take 10 nodes' NICs.
  EXPECT_TRUE(rejects_edit(
      [](FatTreeParams& p) {
        p.nics_per_node = 3;
        p.nodes = 9;
      },
      "fat_tree.nodes must be <= 8"));
}

TEST(FatTreeTopology, RejectsNegativeBandwidth) {
  EXPECT_TRUE(rejects_edit([](FatTreeParams& p) { p.link_bandwidth_bytes_per_s = -1; },
                           "fat_tree.link_bandwidth_bytes_per_s"));
  EXPECT_TRUE(rejects_edit([](FatTreeParams& p) { p.nic_bandwidth_bytes_per_s = -1; },
                           "fat_tree.nic_bandwidth_bytes_per_s"));
}

TEST(FatTreeTopology, RejectsNegativeLatency) {
  EXPECT_TRUE(rejects_edit([](FatTreeParams& p) { p.link_latency_s = -1; }, "fat_tree.link_latency_s"));
  EXPECT_TRUE(rejects_edit([](FatTreeParams& p) { p.switch_latency_s = -1; }, "fat_tree.switch_latency_s"));
}

} // namespace
} // namespace hplsim::topo
