#include "topologies/dragonfly.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "route_walk.hpp"
#include "topologies/network_graph.hpp"

namespace hplsim::topo {
namespace {

using testing::count_kind;
using testing::walks_from_to;

// The group other than `from_group` at the end of the path's first global link.
int first_global_peer(const DragonflyTopology& t, const std::vector<Hop>& path, int from_group) {
  for (const Hop& h : path) {
    const LinkInfo& l = t.links()[static_cast<std::size_t>(h.link)];
    if (l.kind == LinkKind::Global) return t.group_of(l.a) == from_group ? t.group_of(l.b) : t.group_of(l.a);
  }
  return -1;
}

// 5 groups x 4 switches, 2 global links per group pair, 2 endpoint ports per
// switch, nodes of 2 NICs over 2 switches (so 2 nodes per block of 2 switches).
DragonflyParams small_params() {
  DragonflyParams p;
  p.groups = 5;
  p.switches_per_group = 4;
  p.endpoint_ports_per_switch = 2;
  p.global_links_per_group_pair = 2;
  p.switches_per_node = 2;
  p.nics_per_node = 2;
  p.nodes = 0;
  p.local_link_bandwidth_bytes_per_s = 10e9;
  p.global_link_bandwidth_bytes_per_s = 20e9;
  p.nic_bandwidth_bytes_per_s = 5e9;
  p.link_latency_s = 1e-7;
  p.switch_latency_s = 3e-7;
  return p;
}

// A few nodes on one switch (1 group of 1 switch, 8 ports, 4 nodes of 2
// NICs): the cut between two halves of the nodes is their NIC links,
// 2 nodes x 2 NICs x 5e9 x 2 directions = 40e9 (by hand), not 0.
TEST(DragonflyTopology, OneSwitchBisectsThroughTheNodesLinks) {
  DragonflyParams p = small_params();
  p.groups = 1;
  p.switches_per_group = 1;
  p.switches_per_node = 1;
  p.endpoint_ports_per_switch = 8;
  p.global_links_per_group_pair = 0;
  p.nodes = 4;
  EXPECT_NEAR(DragonflyTopology(p).metrics().bisection_bandwidth_bytes_per_s, 40e9, 1.0);
}

TEST(DragonflyTopology, SmallInstanceCountsMatchHandComputation) {
  const DragonflyTopology t(small_params());
  const Metrics m = t.metrics();
  // Hand: 2 blocks per group x 2 nodes per block = 4 nodes per group, x 5 groups = 20.
  EXPECT_EQ(m.nodes, 20);
  EXPECT_EQ(m.nics, 40);     // 20 x 2
  EXPECT_EQ(m.switches, 20); // 5 x 4
  // 40 NIC + 5 groups x C(4,2) = 30 local + C(5,2) x 2 = 20 global.
  EXPECT_EQ(m.links, 90);
  EXPECT_EQ(static_cast<int>(t.links().size()), 90);
  // 40 NIC links x 5e9 B/s.
  EXPECT_NEAR(m.injection_bandwidth_bytes_per_s, 40 * 5e9, 1.0);
  // Cut 2 | 3 groups: 2 x 3 pairs x 2 links x 20e9 x 2 directions = 480e9.
  EXPECT_NEAR(m.bisection_bandwidth_bytes_per_s, 480e9, 1.0);
  EXPECT_DOUBLE_EQ(t.switch_latency_s(), 3e-7);
  int kinds[3] = {0, 0, 0};
  for (const LinkInfo& l : t.links())
    ++kinds[l.kind == LinkKind::Nic ? 0 : l.kind == LinkKind::Local ? 1 : 2];
  EXPECT_EQ(kinds[0], 40);
  EXPECT_EQ(kinds[1], 30);
  EXPECT_EQ(kinds[2], 20);
}

TEST(DragonflyTopology, PlacesNicsRoundRobinOverTheNodesBlock) {
  const DragonflyTopology t(small_params());
  // Node 0 and 1 share block {0, 1} of group 0; node 2 is on block {2, 3};
  // node 4 starts group 1 (switches 4..7).
  EXPECT_EQ(t.nic_switch(0, 0), 0);
  EXPECT_EQ(t.nic_switch(0, 1), 1);
  EXPECT_EQ(t.nic_switch(1, 0), 0);
  EXPECT_EQ(t.nic_switch(1, 1), 1);
  EXPECT_EQ(t.nic_switch(2, 0), 2);
  EXPECT_EQ(t.nic_switch(2, 1), 3);
  EXPECT_EQ(t.nic_switch(4, 0), 4);
  EXPECT_EQ(t.nic_switch(19, 1), 19);
  // NIC link n * nics + i joins that switch to node vertex S + n.
  const LinkInfo& l = t.links()[static_cast<std::size_t>(t.nic_link(2, 1))];
  EXPECT_EQ(t.nic_link(2, 1), 5);
  EXPECT_EQ(l.kind, LinkKind::Nic);
  EXPECT_EQ(l.a, 3);
  EXPECT_EQ(l.b, 20 + 2);
  EXPECT_DOUBLE_EQ(l.bandwidth_bytes_per_s, 5e9);
  // Every switch has exactly its 2 endpoint ports used (the instance is full).
  std::vector<int> used(20, 0);
  for (int n = 0; n < t.node_count(); ++n)
    for (int i = 0; i < t.nics_per_node(); ++i)
      ++used[static_cast<std::size_t>(t.nic_switch(n, i))];
  for (int u : used)
    EXPECT_EQ(u, 2);
  EXPECT_THROW((void)t.nic_switch(20, 0), std::out_of_range);
  EXPECT_THROW((void)t.nic_link(0, 2), std::out_of_range);
}

TEST(DragonflyTopology, PartialMachineFillsGroupsInOrder) {
  DragonflyParams p = small_params();
  p.nodes = 5; // group 0 full (4 nodes), node 4 on group 1
  const DragonflyTopology t(p);
  EXPECT_EQ(t.node_count(), 5);
  EXPECT_EQ(t.nic_switch(3, 1), 3);
  EXPECT_EQ(t.nic_switch(4, 0), 4);
  EXPECT_EQ(t.metrics().links, 5 * 2 + 30 + 20);
}

TEST(DragonflyTopology, GlobalLinksFollowTheRoundRobinArrangement) {
  const DragonflyTopology t(small_params());
  // Group 0, peer 3, parallel 1: peer rank 2, end 2 x 2 + 1 = 5, switch 5 mod 4 = 1.
  // Group 3, peer 0, parallel 1: peer rank 0, end 1, switch 3 x 4 + 1 = 13.
  EXPECT_EQ(t.global_link_switch(0, 3, 1), 1);
  EXPECT_EQ(t.global_link_switch(3, 0, 1), 13);
  // Index: 40 NIC + 30 local = 70; pair (0,3) is the 3rd pair (index 2): 70 + 2 x 2 + 1.
  const int link = t.global_link(3, 0, 1);
  EXPECT_EQ(link, 75);
  const LinkInfo& l = t.links()[static_cast<std::size_t>(link)];
  EXPECT_EQ(l.kind, LinkKind::Global);
  EXPECT_EQ(l.a, 1);
  EXPECT_EQ(l.b, 13);
  // Balanced: each group has 4 peers x 2 = 8 global ends over 4 switches: 2 each.
  std::vector<int> ends(20, 0);
  for (const LinkInfo& g : t.links())
    if (g.kind == LinkKind::Global) {
      ++ends[static_cast<std::size_t>(g.a)];
      ++ends[static_cast<std::size_t>(g.b)];
      EXPECT_NE(t.group_of(g.a), t.group_of(g.b));
    }
  for (int e : ends)
    EXPECT_EQ(e, 2);
  // Local link joins the two switches named.
  const LinkInfo& local = t.links()[static_cast<std::size_t>(t.local_link(6, 5))];
  EXPECT_EQ(local.kind, LinkKind::Local);
  EXPECT_EQ(local.a, 5);
  EXPECT_EQ(local.b, 6);
}

TEST(DragonflyTopology, EveryMinimalRouteIsAValidPathOfAtMostThreeHops) {
  const DragonflyTopology t(small_params());
  std::vector<Hop> hops;
  for (std::uint64_t salt : {0ULL, 1ULL, 12345ULL})
    for (int s = 0; s < t.switch_count(); ++s)
      for (int d = 0; d < t.switch_count(); ++d) {
        for (Routing r : {Routing::Minimal, Routing::Adaptive}) {
          hops.clear();
          t.route(s, d, r, salt, hops);
          ASSERT_TRUE(walks_from_to(t, s, d, hops)) << s << " -> " << d;
          ASSERT_LE(hops.size(), 3u);
          if (s == d)
            EXPECT_TRUE(hops.empty());
          else if (t.group_of(s) == t.group_of(d))
            EXPECT_EQ(hops.size(), 1u);
          else
            EXPECT_EQ(count_kind(t, hops, LinkKind::Global), 1);
        }
      }
}

TEST(DragonflyTopology, ValiantRoutesPassThroughAnIntermediateGroup) {
  const DragonflyTopology t(small_params());
  std::vector<Hop> hops;
  for (std::uint64_t salt = 0; salt < 4; ++salt)
    for (int s = 0; s < t.switch_count(); ++s)
      for (int d = 0; d < t.switch_count(); ++d) {
        hops.clear();
        t.route(s, d, Routing::Valiant, salt, hops);
        ASSERT_TRUE(walks_from_to(t, s, d, hops)) << s << " -> " << d;
        if (s == d) {
          EXPECT_TRUE(hops.empty());
          continue;
        }
        std::set<int> visited_groups;
        for (const Hop& h : hops) {
          const LinkInfo& l = t.links()[static_cast<std::size_t>(h.link)];
          visited_groups.insert(t.group_of(l.a));
          visited_groups.insert(t.group_of(l.b));
        }
        if (t.group_of(s) == t.group_of(d)) {
          // Via an intermediate switch of the group: exactly 2 local hops.
          EXPECT_EQ(hops.size(), 2u);
          EXPECT_EQ(count_kind(t, hops, LinkKind::Local), 2);
        } else {
          // [local] global [local] global [local]: exactly 2 global, <= 5 in all,
          // and a third group is visited.
          EXPECT_LE(hops.size(), 5u);
          EXPECT_EQ(count_kind(t, hops, LinkKind::Global), 2);
          EXPECT_EQ(visited_groups.size(), 3u);
        }
      }
}

TEST(DragonflyTopology, ValiantFallsBackToMinimalWithTwoGroups) {
  DragonflyParams p = small_params();
  p.groups = 2;
  const DragonflyTopology t(p);
  std::vector<Hop> valiant;
  std::vector<Hop> minimal;
  t.route(0, 6, Routing::Valiant, 7, valiant);
  t.route(0, 6, Routing::Minimal, 7, minimal);
  EXPECT_EQ(valiant, minimal);
  std::vector<std::vector<Hop>> candidates;
  t.valiant_candidates(0, 6, 3, 7, candidates);
  EXPECT_TRUE(candidates.empty());
}

TEST(DragonflyTopology, SaltChoiceIsDeterministicAndCoversAlternatives) {
  const DragonflyTopology t(small_params());
  const DragonflyTopology again(small_params());
  std::set<int> globals_used;
  std::set<int> intermediates_used;
  for (std::uint64_t salt = 0; salt < 64; ++salt) {
    std::vector<Hop> a;
    std::vector<Hop> b;
    t.route(1, 18, Routing::Minimal, salt, a);
    again.route(1, 18, Routing::Minimal, salt, b);
    ASSERT_EQ(a, b) << "salt " << salt;
    for (const Hop& h : a)
      if (t.links()[static_cast<std::size_t>(h.link)].kind == LinkKind::Global) globals_used.insert(h.link);
    std::vector<Hop> v;
    std::vector<Hop> w;
    t.route(1, 18, Routing::Valiant, salt, v);
    t.route(1, 18, Routing::Valiant, salt, w);
    ASSERT_EQ(v, w);
    intermediates_used.insert(first_global_peer(t, v, /*from_group=*/0));
  }
  // 64 salts reach both parallel links of pair (0, 4) and all 3 intermediate groups {1, 2, 3}.
  EXPECT_EQ(globals_used.size(), 2u);
  EXPECT_EQ(intermediates_used, (std::set<int>{1, 2, 3}));
}

TEST(DragonflyTopology, MinimalCandidatesListEachParallelGlobalLink) {
  const DragonflyTopology t(small_params());
  for (int s = 0; s < t.switch_count(); ++s)
    for (int d = 0; d < t.switch_count(); ++d) {
      std::vector<std::vector<Hop>> c;
      t.minimal_candidates(s, d, c);
      const bool across = t.group_of(s) != t.group_of(d);
      ASSERT_EQ(c.size(), across ? 2u : 1u);
      std::set<int> globals;
      for (const auto& path : c) {
        ASSERT_TRUE(walks_from_to(t, s, d, path));
        EXPECT_LE(path.size(), 3u);
        for (const Hop& h : path)
          if (t.links()[static_cast<std::size_t>(h.link)].kind == LinkKind::Global) globals.insert(h.link);
      }
      EXPECT_EQ(globals.size(), across ? 2u : 0u);
      std::vector<Hop> routed;
      t.route(s, d, Routing::Minimal, 99, routed);
      EXPECT_NE(std::find(c.begin(), c.end(), routed), c.end());
    }
}

TEST(DragonflyTopology, ValiantCandidatesUseDistinctIntermediatesStartingWithTheRoute) {
  const DragonflyTopology t(small_params());
  for (std::uint64_t salt : {3ULL, 4ULL}) {
    std::vector<std::vector<Hop>> c;
    t.valiant_candidates(2, 17, 10, salt, c);
    ASSERT_EQ(c.size(), 3u); // capped at groups - 2 intermediates
    std::vector<Hop> routed;
    t.route(2, 17, Routing::Valiant, salt, routed);
    EXPECT_EQ(c.front(), routed);
    std::set<int> intermediates;
    for (const auto& path : c) {
      ASSERT_TRUE(walks_from_to(t, 2, 17, path));
      EXPECT_EQ(count_kind(t, path, LinkKind::Global), 2);
      intermediates.insert(first_global_peer(t, path, /*from_group=*/0));
    }
    EXPECT_EQ(intermediates.size(), 3u);
  }
  std::vector<std::vector<Hop>> inside;
  t.valiant_candidates(4, 6, 5, 0, inside);
  EXPECT_EQ(inside.size(), 2u); // switches 5 and 7 are the group's other switches
}

TEST(DragonflyTopology, RouteRejectsSwitchOutsideTheMachine) {
  const DragonflyTopology t(small_params());
  std::vector<Hop> hops;
  EXPECT_THROW(t.route(0, 20, Routing::Minimal, 0, hops), std::out_of_range);
  EXPECT_THROW(t.route(-1, 0, Routing::Minimal, 0, hops), std::out_of_range);
}

TEST(DragonflyTopology, StructuralDiameterEqualsBfsOnSmallInstances) {
  std::set<int> seen;
  for (int groups = 1; groups <= 9; ++groups)
    for (int a = 1; a <= 5; ++a)
      for (int h = 1; h <= 3; ++h) {
        DragonflyParams p = small_params();
        p.groups = groups;
        p.switches_per_group = a;
        p.global_links_per_group_pair = h;
        p.switches_per_node = 1;
        p.nics_per_node = 1;
        p.endpoint_ports_per_switch = 1;
        const DragonflyTopology t(p);
        const int bfs = switch_diameter_bfs(t.graph(), t.links(), t.switch_count());
        ASSERT_EQ(t.structural_diameter(), bfs) << groups << " groups x " << a << " switches, h " << h;
        EXPECT_EQ(t.metrics().diameter_switch_hops, bfs);
        seen.insert(bfs);
      }
  // The sweep covers one switch (0), all-to-all (1), dense (2) and Moore-bound (3) cases.
  EXPECT_EQ(seen, (std::set<int>{0, 1, 2, 3}));
}

TEST(DragonflyTopology, GraphIsConnectedAndDumpsToDot) {
  const DragonflyTopology t(small_params());
  EXPECT_TRUE(is_connected(t.graph()));
  EXPECT_EQ(static_cast<int>(boost::num_edges(t.graph())), 90);
  const std::string dot = t.to_dot();
  EXPECT_NE(dot.find("graph G {"), std::string::npos);
  EXPECT_NE(dot.find("global"), std::string::npos);
  EXPECT_NE(dot.find("\"n19\""), std::string::npos);
  EXPECT_NE(t.describe().find("5 groups x 4 switches"), std::string::npos);
}

} // namespace
} // namespace hplsim::topo
