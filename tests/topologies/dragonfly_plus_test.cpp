#include "topologies/dragonfly_plus.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <deque>
#include <set>
#include <vector>

#include "route_walk.hpp"
#include "topologies/network_graph.hpp"

namespace hplsim::topo {
namespace {

using testing::count_kind;
using testing::rejects;
using testing::walks_from_to;

// 4 groups x (3 leaves + 2 spines), 2 cables per leaf-spine pair, 2 global
// links per group pair (6 global ends per group over 2 spines: 3 ports each),
// 4 endpoint ports per leaf, nodes of 2 NICs: 2 nodes per leaf.
DragonflyPlusParams params_a() {
  DragonflyPlusParams p;
  p.groups = 4;
  p.leaves_per_group = 3;
  p.spines_per_group = 2;
  p.links_per_leaf_spine = 2;
  p.endpoint_ports_per_leaf = 4;
  p.global_links_per_group_pair = 2;
  p.global_ports_per_spine = 3;
  p.nics_per_node = 2;
  p.nic_bandwidth_bytes_per_s = 10e9;
  p.leaf_spine_link_bandwidth_bytes_per_s = 12.5e9;
  p.global_link_bandwidth_bytes_per_s = 25e9;
  p.link_latency_s = 1e-7;
  p.switch_latency_s = 3e-7;
  return p;
}

// 5 groups x (2 leaves + 3 spines), 1 global link per group pair (4 ends per
// group over 3 spines: 2, 1, 1), one NIC per node, 2 nodes per leaf.
DragonflyPlusParams params_b() {
  DragonflyPlusParams p = params_a();
  p.groups = 5;
  p.leaves_per_group = 2;
  p.spines_per_group = 3;
  p.links_per_leaf_spine = 1;
  p.endpoint_ports_per_leaf = 2;
  p.global_links_per_group_pair = 1;
  p.global_ports_per_spine = 2;
  p.nics_per_node = 1;
  return p;
}

// 2 groups x (2 leaves + 2 spines), 3 global links between them.
DragonflyPlusParams params_c() {
  DragonflyPlusParams p = params_b();
  p.groups = 2;
  p.leaves_per_group = 2;
  p.spines_per_group = 2;
  p.global_links_per_group_pair = 3;
  p.global_ports_per_spine = 2;
  return p;
}

// Fewest switch-to-switch links between every pair of switches, by one BFS
// per switch over links() without the NIC links.
std::vector<std::vector<int>> switch_distances(const Topology& t) {
  const int n = t.switch_count();
  std::vector<std::vector<int>> adjacent(static_cast<std::size_t>(n));
  for (const LinkInfo& l : t.links())
    if (l.kind != LinkKind::Nic) {
      adjacent[static_cast<std::size_t>(l.a)].push_back(l.b);
      adjacent[static_cast<std::size_t>(l.b)].push_back(l.a);
    }
  std::vector<std::vector<int>> dist(static_cast<std::size_t>(n),
                                     std::vector<int>(static_cast<std::size_t>(n), INT_MAX));
  for (int s = 0; s < n; ++s) {
    auto& d = dist[static_cast<std::size_t>(s)];
    std::deque<int> queue = {s};
    d[static_cast<std::size_t>(s)] = 0;
    while (!queue.empty()) {
      const int u = queue.front();
      queue.pop_front();
      for (int v : adjacent[static_cast<std::size_t>(u)])
        if (d[static_cast<std::size_t>(v)] == INT_MAX) {
          d[static_cast<std::size_t>(v)] = d[static_cast<std::size_t>(u)] + 1;
          queue.push_back(v);
        }
    }
  }
  return dist;
}

std::set<int> groups_visited(const DragonflyPlusTopology& t, const std::vector<Hop>& path) {
  std::set<int> groups;
  for (const Hop& h : path) {
    const LinkInfo& l = t.links()[static_cast<std::size_t>(h.link)];
    groups.insert(t.group_of(l.a));
    groups.insert(t.group_of(l.b));
  }
  return groups;
}

TEST(DragonflyPlusTopology, SmallInstanceCountsMatchHandComputation) {
  const DragonflyPlusTopology t(params_a());
  const Metrics m = t.metrics();
  EXPECT_EQ(m.nodes, 24);    // 4 groups x 3 leaves x floor(4 ports / 2 NICs)
  EXPECT_EQ(m.nics, 48);     // 24 x 2
  EXPECT_EQ(m.switches, 20); // 4 x (3 + 2)
  // 48 NIC + 4 groups x 3 leaves x 2 spines x 2 cables = 48 leaf-spine + C(4,2) x 2 = 12 global.
  EXPECT_EQ(m.links, 108);
  int kinds[3] = {0, 0, 0};
  for (const LinkInfo& l : t.links())
    ++kinds[l.kind == LinkKind::Nic ? 0 : l.kind == LinkKind::Leaf ? 1 : 2];
  EXPECT_EQ(kinds[0], 48);
  EXPECT_EQ(kinds[1], 48);
  EXPECT_EQ(kinds[2], 12);
  // 48 NIC links x 10e9 B/s = 480e9 (tolerance: rounding of the sum only).
  EXPECT_NEAR(m.injection_bandwidth_bytes_per_s, 480e9, 1.0);
  // Cut 2 | 2 groups: 2 x 2 group pairs x 2 links x 25e9 B/s x 2 directions = 400e9.
  EXPECT_NEAR(m.bisection_bandwidth_bytes_per_s, 400e9, 1.0);
  EXPECT_EQ(m.diameter_switch_hops, switch_diameter_bfs(t.graph(), t.links(), t.switch_count()));
  EXPECT_DOUBLE_EQ(t.switch_latency_s(), 3e-7);
}

TEST(DragonflyPlusTopology, OneGroupIsTheFatTree) {
  DragonflyPlusParams p = params_a();
  p.groups = 1;
  p.global_links_per_group_pair = 0;
  p.global_ports_per_spine = 0;
  const DragonflyPlusTopology t(p);
  const Metrics m = t.metrics();
  EXPECT_EQ(m.links, 12 + 12); // 12 NIC + 3 leaves x 2 spines x 2 cables
  // The fat tree's cut: floor(3 / 2) = 1 leaf x 2 spines x 2 cables x 12.5e9 x 2 directions = 100e9.
  EXPECT_NEAR(m.bisection_bandwidth_bytes_per_s, 100e9, 1.0);
  EXPECT_EQ(m.diameter_switch_hops, 2);
}

TEST(DragonflyPlusTopology, NodesFillLeavesThenGroups) {
  const DragonflyPlusTopology t(params_a());
  EXPECT_EQ(t.nic_switch(0, 0), 0);
  EXPECT_EQ(t.nic_switch(5, 1), 2);   // leaf 5 / 2 = 2 of group 0
  EXPECT_EQ(t.nic_switch(6, 0), 5);   // leaf 3 overall: leaf 0 of group 1 (switches 5..9)
  EXPECT_EQ(t.nic_switch(23, 1), 17); // leaf 11: leaf 2 of group 3
  EXPECT_EQ(t.nic_link(5, 1), 11);
  const LinkInfo& nic = t.links()[11];
  EXPECT_EQ(nic.kind, LinkKind::Nic);
  EXPECT_EQ(nic.a, 2);
  EXPECT_EQ(nic.b, 20 + 5);
  // Leaf 5 (group 1, leaf 0) to spine 9 (group 1, spine 1), cable 1: 48 + ((1 x 3 + 0) x 2 + 1) x 2 + 1.
  EXPECT_EQ(t.leaf_spine_link(5, 9, 1), 63);
  const LinkInfo& up = t.links()[63];
  EXPECT_EQ(up.kind, LinkKind::Leaf);
  EXPECT_EQ(up.a, 5);
  EXPECT_EQ(up.b, 9);
  EXPECT_THROW((void)t.nic_switch(24, 0), std::out_of_range);
  EXPECT_THROW((void)t.nic_link(0, 2), std::out_of_range);
  DragonflyPlusParams partial = params_a();
  partial.nodes = 7; // leaves 0, 1, 2 of group 0 full, node 6 on group 1
  const DragonflyPlusTopology small(partial);
  EXPECT_EQ(small.nic_switch(6, 1), 5);
  EXPECT_EQ(small.metrics().links, 7 * 2 + 48 + 12);
}

TEST(DragonflyPlusTopology, GlobalLinksFollowTheRoundRobinRule) {
  const DragonflyPlusTopology t(params_a());
  // Group 0, peer 3, parallel 1: peer rank 2, end 2 x 2 + 1 = 5, spine 5 mod 2 = 1: switch 3 + 1.
  // Group 3, peer 0, parallel 1: peer rank 0, end 1, spine 1: switch 3 x 5 + 3 + 1.
  EXPECT_EQ(t.global_link_spine(0, 3, 1), 4);
  EXPECT_EQ(t.global_link_spine(3, 0, 1), 19);
  // 48 NIC + 48 leaf-spine = 96; pair (0, 3) is the third pair: 96 + 2 x 2 + 1.
  EXPECT_EQ(t.global_link(3, 0, 1), 101);
  const LinkInfo& g = t.links()[101];
  EXPECT_EQ(g.kind, LinkKind::Global);
  EXPECT_EQ(g.a, 4);
  EXPECT_EQ(g.b, 19);
  for (const auto& params : {params_a(), params_b(), params_c()}) {
    const DragonflyPlusTopology d(params);
    std::vector<int> ends(static_cast<std::size_t>(d.switch_count()), 0);
    for (const LinkInfo& l : d.links())
      if (l.kind == LinkKind::Global) {
        EXPECT_FALSE(d.is_leaf(l.a));
        EXPECT_FALSE(d.is_leaf(l.b));
        EXPECT_NE(d.group_of(l.a), d.group_of(l.b));
        ++ends[static_cast<std::size_t>(l.a)];
        ++ends[static_cast<std::size_t>(l.b)];
      }
    // Balanced: every spine owns floor or ceil((G - 1) h / S) ends, the ceiling = global_ports_per_spine.
    const std::int64_t total =
        static_cast<std::int64_t>(params.groups - 1) * params.global_links_per_group_pair;
    for (int s = 0; s < d.switch_count(); ++s) {
      if (d.is_leaf(s)) {
        EXPECT_EQ(ends[static_cast<std::size_t>(s)], 0);
        continue;
      }
      EXPECT_GE(ends[static_cast<std::size_t>(s)], total / params.spines_per_group);
      EXPECT_LE(ends[static_cast<std::size_t>(s)], params.global_ports_per_spine);
    }
  }
}

TEST(DragonflyPlusTopology, EveryMinimalRouteIsAValidShortestWalk) {
  for (const auto& params : {params_a(), params_b(), params_c()}) {
    const DragonflyPlusTopology t(params);
    const auto dist = switch_distances(t);
    std::vector<Hop> hops;
    for (std::uint64_t salt : {0ULL, 1ULL, 12345ULL})
      for (int s = 0; s < t.switch_count(); ++s)
        for (int d = 0; d < t.switch_count(); ++d)
          for (Routing r : {Routing::Minimal, Routing::Adaptive}) {
            hops.clear();
            t.route(s, d, r, salt, hops);
            ASSERT_TRUE(walks_from_to(t, s, d, hops)) << s << " -> " << d;
            const auto bfs =
                static_cast<std::size_t>(dist[static_cast<std::size_t>(s)][static_cast<std::size_t>(d)]);
            EXPECT_EQ(count_kind(t, hops, LinkKind::Global), t.group_of(s) == t.group_of(d) ? 0 : 1);
            if (t.is_leaf(s) && t.is_leaf(d)) {
              // Leaf to leaf: up, global, down at most, and never longer than the graph distance.
              EXPECT_LE(hops.size(), 3u);
              EXPECT_EQ(hops.size(), bfs) << s << " -> " << d;
            } else {
              // Spine endpoints: at most a 2-hop leaf detour at each end of the global link.
              EXPECT_LE(hops.size(), t.group_of(s) == t.group_of(d) ? 2u : 5u);
              EXPECT_GE(hops.size(), bfs);
            }
          }
  }
}

TEST(DragonflyPlusTopology, SpineUsesItsOwnGlobalLink) {
  const DragonflyPlusTopology t(params_a());
  // Spine switch 4 owns group 0's end of link 1 to group 3 (its other link, 0, is on switch 3):
  // from it to leaf 15 of group 3: global to switch 19, then down.
  std::vector<Hop> hops;
  t.route(4, 15, Routing::Minimal, 7, hops);
  ASSERT_EQ(hops.size(), 2u);
  EXPECT_EQ(hops[0].link, t.global_link(0, 3, 1));
  EXPECT_TRUE(walks_from_to(t, 4, 15, hops));
  std::vector<std::vector<Hop>> c;
  t.minimal_candidates(4, 15, c);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0], hops);
}

TEST(DragonflyPlusTopology, ValiantRoutesPassThroughAThirdGroup) {
  for (const auto& params : {params_a(), params_b()}) {
    const DragonflyPlusTopology t(params);
    std::set<std::size_t> leaf_lengths;
    std::vector<Hop> hops;
    for (std::uint64_t salt = 0; salt < 4; ++salt)
      for (int s = 0; s < t.switch_count(); ++s)
        for (int d = 0; d < t.switch_count(); ++d) {
          hops.clear();
          t.route(s, d, Routing::Valiant, salt, hops);
          ASSERT_TRUE(walks_from_to(t, s, d, hops)) << s << " -> " << d;
          if (t.group_of(s) == t.group_of(d)) {
            std::vector<Hop> minimal;
            t.route(s, d, Routing::Minimal, salt, minimal);
            EXPECT_EQ(hops, minimal);
            continue;
          }
          EXPECT_EQ(count_kind(t, hops, LinkKind::Global), 2);
          EXPECT_EQ(groups_visited(t, hops).size(), 3u);
          if (t.is_leaf(s) && t.is_leaf(d)) leaf_lengths.insert(hops.size());
        }
    if (params.global_links_per_group_pair >= params.spines_per_group)
      // Every spine owns a link to every other group: the intermediate spine forwards directly.
      EXPECT_EQ(leaf_lengths, (std::set<std::size_t>{4}));
    else
      // Some intermediate spines own no link to the destination group: a leaf detour (+2).
      EXPECT_EQ(leaf_lengths, (std::set<std::size_t>{4, 6}));
  }
}

TEST(DragonflyPlusTopology, ValiantIsMinimalWithTwoGroups) {
  const DragonflyPlusTopology t(params_c());
  for (int s = 0; s < t.switch_count(); ++s)
    for (int d = 0; d < t.switch_count(); ++d) {
      std::vector<Hop> valiant;
      std::vector<Hop> minimal;
      t.route(s, d, Routing::Valiant, 7, valiant);
      t.route(s, d, Routing::Minimal, 7, minimal);
      EXPECT_EQ(valiant, minimal);
      std::vector<std::vector<Hop>> c;
      t.valiant_candidates(s, d, 3, 7, c);
      EXPECT_TRUE(c.empty());
    }
}

TEST(DragonflyPlusTopology, MinimalCandidatesListEachGlobalLinkOfThePair) {
  for (const auto& params : {params_a(), params_b(), params_c()}) {
    const DragonflyPlusTopology t(params);
    const std::size_t h = static_cast<std::size_t>(params.global_links_per_group_pair);
    const std::size_t lps = static_cast<std::size_t>(params.links_per_leaf_spine);
    for (int s = 0; s < t.switch_count(); ++s)
      for (int d = 0; d < t.switch_count(); ++d) {
        std::vector<std::vector<Hop>> c;
        t.minimal_candidates(s, d, c);
        ASSERT_FALSE(c.empty());
        std::set<int> globals;
        for (const auto& path : c) {
          ASSERT_TRUE(walks_from_to(t, s, d, path)) << s << " -> " << d;
          for (const Hop& hop : path)
            if (t.links()[static_cast<std::size_t>(hop.link)].kind == LinkKind::Global)
              globals.insert(hop.link);
        }
        const bool across = t.group_of(s) != t.group_of(d);
        // Expected count: 1 (empty) when equal; h between leaves of two groups; one
        // per cable between a leaf and a spine; one per (middle switch, cable) otherwise
        // inside a group. Spine endpoints across groups: the links of fewest hops (>= 1).
        std::size_t expected = c.size();
        if (s == d) {
          expected = 1;
          EXPECT_TRUE(c[0].empty());
        } else if (across && t.is_leaf(s) && t.is_leaf(d)) {
          expected = h;
          EXPECT_EQ(globals.size(), h);
        } else if (!across && t.is_leaf(s) != t.is_leaf(d)) {
          expected = lps;
        } else if (!across) {
          expected = lps * static_cast<std::size_t>(t.is_leaf(s) ? params.spines_per_group
                                                                 : params.leaves_per_group);
        }
        EXPECT_EQ(c.size(), expected) << s << " -> " << d;
        for (std::uint64_t salt : {0ULL, 99ULL}) {
          std::vector<Hop> routed;
          t.route(s, d, Routing::Minimal, salt, routed);
          EXPECT_NE(std::find(c.begin(), c.end(), routed), c.end()) << s << " -> " << d;
        }
      }
  }
}

TEST(DragonflyPlusTopology, ValiantCandidatesUseDistinctIntermediatesStartingWithTheRoute) {
  const DragonflyPlusTopology t(params_b());
  for (std::uint64_t salt : {3ULL, 4ULL}) {
    std::vector<std::vector<Hop>> c;
    t.valiant_candidates(0, 21, 10, salt, c); // leaf 0 of group 0 to leaf 1 of group 4
    ASSERT_EQ(c.size(), 3u);                  // capped at groups - 2 intermediates
    std::vector<Hop> routed;
    t.route(0, 21, Routing::Valiant, salt, routed);
    EXPECT_EQ(c.front(), routed);
    std::set<std::set<int>> visited;
    for (const auto& path : c) {
      ASSERT_TRUE(walks_from_to(t, 0, 21, path));
      EXPECT_EQ(count_kind(t, path, LinkKind::Global), 2);
      visited.insert(groups_visited(t, path));
    }
    EXPECT_EQ(visited.size(), 3u);
  }
  std::vector<std::vector<Hop>> inside;
  t.valiant_candidates(0, 1, 5, 0, inside);
  EXPECT_TRUE(inside.empty());
}

TEST(DragonflyPlusTopology, SaltChoiceIsDeterministicAndCoversAlternatives) {
  const DragonflyPlusTopology t(params_a());
  const DragonflyPlusTopology again(params_a());
  std::set<int> globals;
  std::set<std::set<int>> valiant_groups;
  std::set<int> spines;
  for (std::uint64_t salt = 0; salt < 64; ++salt) {
    std::vector<Hop> a;
    std::vector<Hop> b;
    t.route(1, 16, Routing::Minimal, salt, a); // leaf 1 of group 0 to leaf 1 of group 3
    again.route(1, 16, Routing::Minimal, salt, b);
    ASSERT_EQ(a, b);
    globals.insert(a[1].link);
    std::vector<Hop> v;
    t.route(1, 16, Routing::Valiant, salt, v);
    valiant_groups.insert(groups_visited(t, v));
    std::vector<Hop> inside;
    t.route(0, 2, Routing::Minimal, salt, inside);
    spines.insert(t.links()[static_cast<std::size_t>(inside[0].link)].b);
  }
  EXPECT_EQ(globals.size(), 2u);        // both links of pair (0, 3)
  EXPECT_EQ(valiant_groups.size(), 2u); // through group 1 and through group 2
  EXPECT_EQ(spines.size(), 2u);         // both spines of group 0
}

TEST(DragonflyPlusTopology, RouteRejectsSwitchOutsideTheMachine) {
  const DragonflyPlusTopology t(params_a());
  std::vector<Hop> hops;
  EXPECT_THROW(t.route(0, 20, Routing::Minimal, 0, hops), std::out_of_range);
  EXPECT_THROW(t.route(-1, 0, Routing::Minimal, 0, hops), std::out_of_range);
  std::vector<std::vector<Hop>> c;
  EXPECT_THROW(t.minimal_candidates(0, 20, c), std::out_of_range);
}

TEST(DragonflyPlusTopology, StructuralDiameterEqualsBfs) {
  std::set<int> seen;
  for (int groups = 1; groups <= 5; ++groups)
    for (int leaves = 1; leaves <= 3; ++leaves)
      for (int spines = 1; spines <= 3; ++spines)
        for (int h = 1; h <= 3; ++h) {
          DragonflyPlusParams p = params_b();
          p.groups = groups;
          p.leaves_per_group = leaves;
          p.spines_per_group = spines;
          p.global_links_per_group_pair = h;
          p.global_ports_per_spine = static_cast<int>(p.global_ports_needed());
          p.endpoint_ports_per_leaf = 1;
          const DragonflyPlusTopology t(p);
          const int bfs = switch_diameter_bfs(t.graph(), t.links(), t.switch_count());
          ASSERT_EQ(t.structural_diameter(), bfs)
              << groups << " groups x (" << leaves << " + " << spines << "), h " << h;
          seen.insert(bfs);
        }
  // The sweep covers one leaf-spine pair (1), a fat tree (2), and groups joined
  // directly or through leaf detours (3 to 5).
  EXPECT_EQ(seen, (std::set<int>{1, 2, 3, 4, 5}));
  // Over 256 switches metrics() takes the structural diameter: 30 x (5 + 5) = 300 switches.
  DragonflyPlusParams big = params_b();
  big.groups = 30;
  big.leaves_per_group = 5;
  big.spines_per_group = 5;
  big.global_ports_per_spine = 6; // ceil(29 / 5)
  const DragonflyPlusTopology t(big);
  EXPECT_EQ(t.metrics().diameter_switch_hops, switch_diameter_bfs(t.graph(), t.links(), t.switch_count()));
}

TEST(DragonflyPlusTopology, GraphIsConnectedAndDumpsToDot) {
  const DragonflyPlusTopology t(params_a());
  EXPECT_TRUE(is_connected(t.graph()));
  EXPECT_EQ(static_cast<int>(boost::num_edges(t.graph())), 108);
  const std::string dot = t.to_dot();
  EXPECT_NE(dot.find("graph G {"), std::string::npos);
  EXPECT_NE(dot.find("global"), std::string::npos);
  EXPECT_NE(dot.find("leaf"), std::string::npos);
  EXPECT_NE(dot.find("\"n23\""), std::string::npos);
  EXPECT_NE(t.describe().find("4 groups x (3 leaves + 2 spines)"), std::string::npos) << t.describe();
}

template <class Edit>::testing::AssertionResult rejects_edit(Edit edit, const std::string& field) {
  DragonflyPlusParams p = params_a();
  edit(p);
  auto first = rejects([&] { p.check(); }, field);
  if (!first) return first;
  return rejects([&] { (void)make_dragonfly_plus(p); }, field);
}

TEST(DragonflyPlusTopology, RejectsBadCounts) {
  using P = DragonflyPlusParams;
  EXPECT_TRUE(rejects_edit([](P& p) { p.groups = 0; }, "dragonfly_plus.groups must be >= 1, got 0"));
  EXPECT_TRUE(rejects_edit([](P& p) { p.leaves_per_group = 0; }, "dragonfly_plus.leaves_per_group"));
  EXPECT_TRUE(rejects_edit([](P& p) { p.spines_per_group = 0; },
                           "dragonfly_plus.spines_per_group must be >= 1, got 0"));
  EXPECT_TRUE(rejects_edit([](P& p) { p.links_per_leaf_spine = 0; }, "dragonfly_plus.links_per_leaf_spine"));
  EXPECT_TRUE(
      rejects_edit([](P& p) { p.endpoint_ports_per_leaf = 0; }, "dragonfly_plus.endpoint_ports_per_leaf"));
  EXPECT_TRUE(rejects_edit([](P& p) { p.global_links_per_group_pair = 0; },
                           "dragonfly_plus.global_links_per_group_pair must be >= 1"));
  EXPECT_TRUE(
      rejects_edit([](P& p) { p.global_ports_per_spine = -1; }, "dragonfly_plus.global_ports_per_spine"));
  EXPECT_TRUE(rejects_edit([](P& p) { p.nics_per_node = 0; }, "dragonfly_plus.nics_per_node"));
  EXPECT_TRUE(rejects_edit([](P& p) { p.nodes = -1; }, "dragonfly_plus.nodes"));
}

TEST(DragonflyPlusTopology, RejectsGlobalLinksThatDoNotFitTheSpines) {
  // 3 peers x 2 links = 6 ends over 2 spines: 3 ports each, 2 are too few.
  EXPECT_TRUE(rejects_edit([](DragonflyPlusParams& p) { p.global_ports_per_spine = 2; },
                           "dragonfly_plus.global_ports_per_spine must be >= 3"));
  // 3 peers x 3 links = 9 ends over 2 spines: ceil(9 / 2) = 5 > 3.
  EXPECT_TRUE(rejects_edit([](DragonflyPlusParams& p) { p.global_links_per_group_pair = 3; },
                           "dragonfly_plus.global_ports_per_spine must be >= 5"));
}

TEST(DragonflyPlusTopology, RejectsNodesThatDoNotFit) {
  EXPECT_TRUE(rejects_edit([](DragonflyPlusParams& p) { p.nics_per_node = 5; },
                           "dragonfly_plus.nics_per_node must be <= 4"));
  // 12 leaves x 4 ports = 48: 24 nodes of 2 NICs fit, 25 do not.
  EXPECT_TRUE(rejects_edit([](DragonflyPlusParams& p) { p.nodes = 25; },
                           "dragonfly_plus.nodes x dragonfly_plus.nics_per_node"));
  // 3 NICs per node: floor(4 / 3) = 1 node per leaf, 12 in all.
  EXPECT_TRUE(rejects_edit(
      [](DragonflyPlusParams& p) {
        p.nics_per_node = 3;
        p.nodes = 13;
      },
      "dragonfly_plus.nodes must be <= 12"));
}

TEST(DragonflyPlusTopology, RejectsBadBandwidthsAndLatencies) {
  using P = DragonflyPlusParams;
  EXPECT_TRUE(rejects_edit([](P& p) { p.nic_bandwidth_bytes_per_s = 0; },
                           "dragonfly_plus.nic_bandwidth_bytes_per_s"));
  EXPECT_TRUE(rejects_edit([](P& p) { p.leaf_spine_link_bandwidth_bytes_per_s = -1; },
                           "dragonfly_plus.leaf_spine_link_bandwidth_bytes_per_s"));
  EXPECT_TRUE(rejects_edit([](P& p) { p.global_link_bandwidth_bytes_per_s = 0; },
                           "dragonfly_plus.global_link_bandwidth_bytes_per_s"));
  EXPECT_TRUE(rejects_edit([](P& p) { p.link_latency_s = -1; }, "dragonfly_plus.link_latency_s"));
  EXPECT_TRUE(rejects_edit([](P& p) { p.switch_latency_s = -1; }, "dragonfly_plus.switch_latency_s"));
}

} // namespace
} // namespace hplsim::topo
