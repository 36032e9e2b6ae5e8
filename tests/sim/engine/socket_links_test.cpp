// A node's sockets are joined pair by pair (sim/engine/machine_zone.cpp): a
// message between ranks of two sockets of one node, or from a rank to a NIC
// of another socket, crosses the link of that ordered pair and no other.
// Four sockets, as a node of four APUs or four superchips.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/engine/engine_setup.hpp"
#include "sim/engine/platform.hpp"
#include "tests/sim/engine/isolated.hpp"
#include "topologies/fat_tree.hpp"

namespace hplsim::sim {
namespace {

// 2 nodes of 4 sockets, one rank and one NIC per socket; returns, per
// (from, to) asked, 1 when the route's links include exactly the expected
// socket link names, else 0.
std::vector<double> socket_links(const std::vector<std::pair<int, int>>& pairs,
                                 const std::vector<std::vector<std::string>>& expected) {
  return run_isolated([&]() {
    auto engine = create_engine();
    topo::FatTreeParams p;
    p.leaf_switches = 1;
    p.spine_switches = 1;
    p.endpoint_ports_per_leaf = 8;
    p.nics_per_node = 4;
    p.link_bandwidth_bytes_per_s = 25e9;
    p.nic_bandwidth_bytes_per_s = 25e9;
    const topo::FatTreeTopology tree(p);
    PlatformSpec spec;
    spec.topology = &tree;
    spec.node_map = {0, 1};
    spec.ranks_per_node = 4;
    spec.sockets = 4;
    spec.nics_per_socket = 1;
    spec.shm_bandwidth_bytes_per_s = 20e9;
    spec.upi_bandwidth_bytes_per_s = 100e9;
    spec.nic_mapping = NicMapping::RankLocal;
    spec.rank_row = [](int) { return 0; };
    spec.rank_col = [](int r) { return r; };
    const Platform platform(spec);
    std::vector<double> out;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      std::vector<std::string> sockets;
      for (const std::string& name : platform.route_names(pairs[i].first, pairs[i].second))
        if (name.find(".upi") != std::string::npos) sockets.push_back(name);
      out.push_back(sockets == expected[i] ? 1.0 : 0.0);
    }
    return out;
  });
}

TEST(SocketLinks, EachOrderedPairOfSocketsHasItsOwnLink) {
  // Ranks 0-3 on node 0's sockets 0-3; rank 5 is node 1's socket 1.
  const auto ok = socket_links({{2, 3}, {3, 2}, {1, 2}, {0, 3}, {2, 6}},
                               {{"n0.upi23"}, {"n0.upi32"}, {"n0.upi12"}, {"n0.upi03"}, {}});
  ASSERT_EQ(ok.size(), 5u);
  for (std::size_t i = 0; i < ok.size(); ++i)
    EXPECT_EQ(ok[i], 1.0) << "pair " << i;
}

} // namespace
} // namespace hplsim::sim
