// Adaptive (UGAL-like) routing in the machine zone (sim/engine/machine_zone.cpp):
// flows that would share a minimal global link take an idle non-minimal path.
#include <gtest/gtest.h>

#include "tests/sim/engine/one_step.hpp"
#include "topologies/dragonfly.hpp"

namespace hplsim::sim {
namespace {

constexpr double kLinkLatency = 1e-6;
constexpr double kSwitchLatency = 0.5e-6;
constexpr double kBw = 10e9; // NIC and global links alike
constexpr std::int64_t kBytes = 1'000'000;

// 3 groups of one switch, 2 nodes per switch, one NIC per node, one global
// link per group pair: nodes 0, 1 in group 0; 2, 3 in group 1; 4, 5 in group 2.
topo::DragonflyParams three_groups() {
  topo::DragonflyParams p;
  p.groups = 3;
  p.switches_per_group = 1;
  p.endpoint_ports_per_switch = 2;
  p.global_links_per_group_pair = 1;
  p.switches_per_node = 1;
  p.nics_per_node = 1;
  p.local_link_bandwidth_bytes_per_s = kBw;
  p.global_link_bandwidth_bytes_per_s = kBw;
  p.nic_bandwidth_bytes_per_s = kBw;
  p.link_latency_s = kLinkLatency;
  p.switch_latency_s = kSwitchLatency;
  return p;
}

traces::Op message(bool send, int peer) {
  traces::Op op;
  auto fill = [&](auto* m) {
    m->set_peer(peer);
    m->set_bytes(kBytes);
    m->set_phase(traces::BCAST);
  };
  if (send)
    fill(op.mutable_send());
  else
    fill(op.mutable_recv());
  return op;
}

// Ranks 0 and 1 (group 0) send kBytes to ranks 2 and 3 (group 1) at t = 0;
// returns the step's makespan.
double two_flows_between_groups(topo::Routing routing) {
  const topo::DragonflyTopology df(three_groups());
  return one_rank_per_node_makespan(
      df, routing, {{message(true, 2)}, {message(true, 3)}, {message(false, 0)}, {message(false, 1)}});
}

TEST(AdaptiveRouting, MinimalFlowsShareTheGlobalLink) {
  // Both flows on the one 0-1 global link: 2 kBytes / kBw. Latency: NIC up
  // (link + switch), global link (link + switch), NIC down (link) = 4 us.
  EXPECT_NEAR(two_flows_between_groups(topo::Routing::Minimal), 2.0 * kBytes / kBw + 4e-6, 1e-9);
}

TEST(AdaptiveRouting, SecondFlowDetoursThroughTheIdleGroup) {
  // The first flow goes minimal (3 links, idle: cost 3); the second sees that
  // link taken at this instant (minimal cost 3 x 2 = 6) and takes the Valiant
  // path through group 2 (4 links, idle: cost 4), so both run at full rate:
  // kBytes / kBw, plus the longer path's latency: NIC up, two global links
  // (each link + switch), NIC down = 5.5 us.
  EXPECT_NEAR(two_flows_between_groups(topo::Routing::Adaptive), 1.0 * kBytes / kBw + 5.5e-6, 1e-9);
}

traces::Op sized(bool send, int peer, std::int64_t bytes) {
  traces::Op op = message(send, peer);
  if (send)
    op.mutable_send()->set_bytes(bytes);
  else
    op.mutable_recv()->set_bytes(bytes);
  return op;
}

TEST(AdaptiveRouting, LaterFlowsBalanceOnFlowCountsNotOnSaturatedUsage) {
  // 3 groups of one switch with 6 nodes each (one global link per group
  // pair). Four flows of kBytes from group 0 to group 1: ranks 0 and 1 at
  // t = 0 (one minimal, one through group 2), then ranks 2 and 3 at two later
  // instants (each waits for a small message from a switch-mate: 1 kB and
  // 2 kB). When they start, both paths are saturated, so a usage-based load
  // (usage / bandwidth = 1 on both) sends both to the shorter minimal path:
  // 3 flows there, makespan ~3 kBytes / kBw. Counting flows sends rank 2's to
  // the minimal path (1 flow each way: equal rates, shorter latency) and rank
  // 3's through group 2 (2 flows against 1): 2 flows per path, so the last
  // flow ends at ~2 kBytes / kBw (each path's two flows share the link, the
  // first one alone for its head start of a few microseconds).
  topo::DragonflyParams p = three_groups();
  p.endpoint_ports_per_switch = 6;
  const topo::DragonflyTopology df(p);
  std::vector<std::vector<traces::Op>> programs(10);
  programs[0] = {sized(true, 6, kBytes)};
  programs[1] = {sized(true, 7, kBytes)};
  programs[4] = {sized(true, 2, 1000)};
  programs[5] = {sized(true, 3, 2000)};
  programs[2] = {sized(false, 4, 1000), sized(true, 8, kBytes)};
  programs[3] = {sized(false, 5, 2000), sized(true, 9, kBytes)};
  for (int r = 6; r <= 9; ++r)
    programs[static_cast<std::size_t>(r)] = {sized(false, r - 6, kBytes)};
  const double makespan = one_rank_per_node_makespan(df, topo::Routing::Adaptive, programs);
  EXPECT_GT(makespan, 1.9 * kBytes / kBw);
  EXPECT_LT(makespan, 2.2 * kBytes / kBw);
}

} // namespace
} // namespace hplsim::sim
