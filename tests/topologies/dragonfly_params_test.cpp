// One invalid DragonflyParams field per test: check() and make_dragonfly()
// throw std::invalid_argument naming the field.
#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>
#include <string>

#include "route_walk.hpp"
#include "topologies/dragonfly.hpp"

namespace hplsim::topo {
namespace {

using testing::rejects;

DragonflyParams valid() {
  DragonflyParams p;
  p.groups = 3;
  p.switches_per_group = 4;
  p.endpoint_ports_per_switch = 4;
  p.global_links_per_group_pair = 1;
  p.switches_per_node = 2;
  p.nics_per_node = 2;
  p.local_link_bandwidth_bytes_per_s = 1e9;
  p.global_link_bandwidth_bytes_per_s = 1e9;
  p.nic_bandwidth_bytes_per_s = 1e9;
  return p;
}

template <class Edit>::testing::AssertionResult rejects_edit(Edit edit, const std::string& field) {
  DragonflyParams p = valid();
  edit(p);
  auto first = rejects([&] { p.check(); }, field);
  if (!first) return first;
  return rejects([&] { (void)make_dragonfly(p); }, field);
}

TEST(DragonflyParams, AcceptsTheValidBaseline) {
  EXPECT_NO_THROW(valid().check());
  // 2 blocks x floor(4 / 1) = 8 nodes per group (hand computation).
  EXPECT_EQ(valid().nodes_per_group(), 8);
}

TEST(DragonflyTopology, RejectsZeroGroups) {
  DragonflyParams p = valid();
  p.groups = 0;
  try {
    p.check();
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "dragonfly.groups must be >= 1, got 0");
  }
}

TEST(DragonflyTopology, RejectsZeroSwitchesPerGroup) {
  EXPECT_TRUE(
      rejects_edit([](DragonflyParams& p) { p.switches_per_group = 0; }, "dragonfly.switches_per_group"));
}

TEST(DragonflyTopology, RejectsZeroEndpointPorts) {
  EXPECT_TRUE(rejects_edit([](DragonflyParams& p) { p.endpoint_ports_per_switch = 0; },
                           "dragonfly.endpoint_ports_per_switch"));
}

TEST(DragonflyTopology, RejectsZeroGlobalLinksWithSeveralGroups) {
  EXPECT_TRUE(rejects_edit([](DragonflyParams& p) { p.global_links_per_group_pair = 0; },
                           "dragonfly.global_links_per_group_pair must be >= 1"));
}

TEST(DragonflyTopology, AcceptsZeroGlobalLinksWithOneGroup) {
  DragonflyParams p = valid();
  p.groups = 1;
  p.global_links_per_group_pair = 0;
  EXPECT_NO_THROW(p.check());
  // One group of 4: cut 2 | 2 switches = 4 local links x 1e9 x 2 directions.
  EXPECT_NEAR(make_dragonfly(p)->metrics().bisection_bandwidth_bytes_per_s, 8e9, 1.0);
}

TEST(DragonflyTopology, RejectsZeroSwitchesPerNode) {
  EXPECT_TRUE(
      rejects_edit([](DragonflyParams& p) { p.switches_per_node = 0; }, "dragonfly.switches_per_node"));
}

TEST(DragonflyTopology, RejectsSwitchesPerNodeAboveSwitchesPerGroup) {
  EXPECT_TRUE(rejects_edit(
      [](DragonflyParams& p) {
        p.switches_per_node = 8;
        p.nics_per_node = 8;
      },
      "dragonfly.switches_per_node must be <= 4"));
}

TEST(DragonflyTopology, RejectsSwitchesPerGroupNotMultipleOfSwitchesPerNode) {
  EXPECT_TRUE(rejects_edit(
      [](DragonflyParams& p) {
        p.switches_per_node = 3;
        p.nics_per_node = 3;
      },
      "dragonfly.switches_per_group must be a multiple"));
}

TEST(DragonflyTopology, RejectsZeroNicsPerNode) {
  EXPECT_TRUE(rejects_edit([](DragonflyParams& p) { p.nics_per_node = 0; }, "dragonfly.nics_per_node"));
}

TEST(DragonflyTopology, RejectsNicsPerNodeNotMultipleOfSwitchesPerNode) {
  EXPECT_TRUE(rejects_edit([](DragonflyParams& p) { p.nics_per_node = 3; },
                           "dragonfly.nics_per_node must be a multiple"));
}

TEST(DragonflyTopology, RejectsNicsThatDoNotFitTheirSwitches) {
  // 10 NICs over 2 switches = 5 per switch > 4 endpoint ports.
  EXPECT_TRUE(
      rejects_edit([](DragonflyParams& p) { p.nics_per_node = 10; }, "dragonfly.nics_per_node must be <= 8"));
}

TEST(DragonflyTopology, RejectsNegativeNodes) {
  EXPECT_TRUE(rejects_edit([](DragonflyParams& p) { p.nodes = -1; }, "dragonfly.nodes"));
}

TEST(DragonflyTopology, RejectsTooManyNodesForPorts) {
  // 3 x 4 x 4 = 48 ports hold 24 nodes of 2 NICs; 25 need 50.
  EXPECT_TRUE(
      rejects_edit([](DragonflyParams& p) { p.nodes = 25; }, "dragonfly.nodes x dragonfly.nics_per_node"));
  DragonflyParams full = valid();
  full.nodes = 24;
  EXPECT_NO_THROW(full.check());
}

TEST(DragonflyTopology, RejectsNodesThatDoNotFitWholeBlocks) {
  // 3 ports per switch, 2 NICs per node on 1 switch: 1 node per switch, 12 in
  // all, although 12 x 3 = 36 ports would take 18 nodes' NICs.
  EXPECT_TRUE(rejects_edit(
      [](DragonflyParams& p) {
        p.endpoint_ports_per_switch = 3;
        p.switches_per_node = 1;
        p.nodes = 13;
      },
      "dragonfly.nodes must be <= 12"));
}

TEST(DragonflyTopology, RejectsNegativeBandwidth) {
  EXPECT_TRUE(rejects_edit([](DragonflyParams& p) { p.local_link_bandwidth_bytes_per_s = -1; },
                           "dragonfly.local_link_bandwidth_bytes_per_s must be > 0 and finite, got -1"));
  EXPECT_TRUE(rejects_edit([](DragonflyParams& p) { p.global_link_bandwidth_bytes_per_s = -1; },
                           "dragonfly.global_link_bandwidth_bytes_per_s"));
  EXPECT_TRUE(rejects_edit([](DragonflyParams& p) { p.nic_bandwidth_bytes_per_s = -1; },
                           "dragonfly.nic_bandwidth_bytes_per_s"));
}

TEST(DragonflyTopology, RejectsZeroOrNanBandwidth) {
  EXPECT_TRUE(rejects_edit([](DragonflyParams& p) { p.nic_bandwidth_bytes_per_s = 0; },
                           "dragonfly.nic_bandwidth_bytes_per_s"));
  EXPECT_TRUE(rejects_edit(
      [](DragonflyParams& p) {
        p.global_link_bandwidth_bytes_per_s = std::numeric_limits<double>::quiet_NaN();
      },
      "dragonfly.global_link_bandwidth_bytes_per_s"));
}

TEST(DragonflyTopology, RejectsNegativeLatency) {
  EXPECT_TRUE(rejects_edit([](DragonflyParams& p) { p.link_latency_s = -1e-6; }, "dragonfly.link_latency_s"));
  EXPECT_TRUE(
      rejects_edit([](DragonflyParams& p) { p.switch_latency_s = -1e-6; }, "dragonfly.switch_latency_s"));
}

TEST(DragonflyTopology, RejectsSizesBeyondIntIds) {
  EXPECT_TRUE(rejects_edit(
      [](DragonflyParams& p) {
        p.groups = 100000;
        p.switches_per_group = 100000;
      },
      "dragonfly.groups x dragonfly.switches_per_group"));
  // 70,000 groups: C(70000, 2) = 2.45e9 global links, over the int range.
  EXPECT_TRUE(rejects_edit([](DragonflyParams& p) { p.groups = 70000; }, "links must be <="));
}

} // namespace
} // namespace hplsim::topo
