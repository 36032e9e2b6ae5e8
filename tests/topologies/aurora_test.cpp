// The Aurora machine as a dragonfly, checked against the published figures of
// "Sustaining Exascale Performance: Lessons from HPL and HPL-MxP on Aurora",
// arXiv 2604.09517 (machine description): 10,624 compute nodes in 166 compute
// groups of 32 Rosetta switches (all-to-all inside a group), 2 global links
// between every pair of compute groups, 16 endpoint ports per switch, 8 NICs
// of 200 Gb/s = 25 GB/s per node; aggregate injection 2.12 PB/s, global
// bisection 0.69 PB/s. Link speed 25 GB/s for local and global links: the
// paper's bisection check 83 x 83 x 2 links x 25 GB/s x 2 directions uses it.
// switches_per_node = 4: the 8 NICs of a node on the 4 switches of its chassis
// (two per switch), so 8 nodes per block of 4 switches, 64 per group.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>

#include "route_walk.hpp"
#include "topologies/dragonfly.hpp"

namespace hplsim::topo {
namespace {

DragonflyParams aurora_params() {
  DragonflyParams p;
  p.groups = 166;                             // compute groups [P]
  p.switches_per_group = 32;                  // Rosetta switches per group [P]
  p.endpoint_ports_per_switch = 16;           // edge ports per switch [P, figure]
  p.global_links_per_group_pair = 2;          // [P]
  p.switches_per_node = 4;                    // 8 NICs over the 4 switches of a chassis (see above)
  p.nics_per_node = 8;                        // Cassini NICs per node [P]
  p.nodes = 10624;                            // compute nodes [P]
  p.nic_bandwidth_bytes_per_s = 25e9;         // 200 Gb/s [P]
  p.local_link_bandwidth_bytes_per_s = 25e9;  // 200 Gb/s per port [U]
  p.global_link_bandwidth_bytes_per_s = 25e9; // as in the paper's bisection check [D]
  return p;
}

TEST(AuroraDragonfly, MatchesPublishedCountsAndBandwidths) {
  const auto start = std::chrono::steady_clock::now();
  const auto topology = make_dragonfly(aurora_params());
  const double build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RecordProperty("build_s", std::to_string(build_s));
  const Metrics m = topology->metrics();
  EXPECT_EQ(m.nodes, 10624);   // [P]
  EXPECT_EQ(m.nics, 84992);    // 10,624 x 8
  EXPECT_EQ(m.switches, 5312); // 166 x 32
  // Cables: 84,992 NIC + 166 x C(32,2) = 82,336 local + C(166,2) x 2 = 27,390 global.
  EXPECT_EQ(m.links, 194718);
  // Published aggregate injection 2.12 PB/s [P]; tolerance 1% of it.
  EXPECT_NEAR(m.injection_bandwidth_bytes_per_s, 2.12e15, 0.01 * 2.12e15);
  // Exact by hand: 10,624 x 8 x 25e9 = 2.1248e15.
  EXPECT_NEAR(m.injection_bandwidth_bytes_per_s, 2.1248e15, 1e6);
  // Published global bisection 0.69 PB/s [P]; tolerance 1% of it.
  EXPECT_NEAR(m.bisection_bandwidth_bytes_per_s, 0.69e15, 0.01 * 0.69e15);
  // Exact by hand: 83 x 83 x 2 x 25e9 x 2 = 0.6889e15.
  EXPECT_NEAR(m.bisection_bandwidth_bytes_per_s, 0.6889e15, 1e6);
  // Degree <= 31 local + 11 global = 42, so a switch reaches at most
  // 1 + 42 + 42 x 41 = 1,765 < 5,312 switches within 2 hops: diameter 3.
  EXPECT_EQ(m.diameter_switch_hops, 3);
}

TEST(AuroraDragonfly, GlobalPortsAreBalancedAndFitARosettaSwitch) {
  const auto topology = make_dragonfly(aurora_params());
  std::vector<int> global_ports(5312, 0);
  std::vector<int> nic_ports(5312, 0);
  for (const LinkInfo& l : topology->links()) {
    if (l.kind == LinkKind::Global) {
      ++global_ports[static_cast<std::size_t>(l.a)];
      ++global_ports[static_cast<std::size_t>(l.b)];
    } else if (l.kind == LinkKind::Nic) {
      ++nic_ports[static_cast<std::size_t>(l.a)];
    }
  }
  // 165 peers x 2 = 330 global ends over 32 switches: 10 or 11 each.
  for (int s = 0; s < 5312; ++s) {
    ASSERT_GE(global_ports[static_cast<std::size_t>(s)], 10);
    ASSERT_LE(global_ports[static_cast<std::size_t>(s)], 11);
    ASSERT_EQ(nic_ports[static_cast<std::size_t>(s)], 16); // the machine is full
    // 16 edge + 31 local + <= 11 global = <= 58 ports of a 64-port switch [U].
    ASSERT_LE(16 + 31 + global_ports[static_cast<std::size_t>(s)], 64);
  }
}

TEST(AuroraDragonfly, SampledRoutesAreValid) {
  const auto topology = make_dragonfly(aurora_params());
  std::vector<Hop> hops;
  std::uint64_t x = 1;
  for (int i = 0; i < 2000; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL; // Knuth's MMIX LCG, a fixed sample
    const int s = static_cast<int>((x >> 33) % 5312);
    const int d = static_cast<int>((x >> 13) % 5312);
    hops.clear();
    topology->route(s, d, Routing::Minimal, x, hops);
    ASSERT_TRUE(testing::walks_from_to(*topology, s, d, hops));
    ASSERT_LE(hops.size(), 3u);
    hops.clear();
    topology->route(s, d, Routing::Valiant, x, hops);
    ASSERT_TRUE(testing::walks_from_to(*topology, s, d, hops));
    ASSERT_LE(hops.size(), 5u);
  }
}

} // namespace
} // namespace hplsim::topo
