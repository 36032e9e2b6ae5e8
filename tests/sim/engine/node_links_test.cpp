// The links inside a node (sim/engine/machine_zone.cpp). Sockets are joined
// pair by pair: a message between ranks of two sockets of one node, or from a
// rank to a NIC of another socket, crosses the link of that ordered pair and
// no other (four sockets, as a node of four APUs or four superchips). GPU
// links and NICs on GPUs, on nodes shaped as Frontier's: one socket, 8 GPUs,
// 4 NICs, NIC i on GPU 2i, a link per ordered pair of GPUs. A message from
// GPU memory starts at its rank's GPU: to a rank of the node over their GPUs'
// link, to another node over the link to the NIC's GPU (none when the NIC is
// on its own GPU). A message from host memory reaches a NIC over the CPU-GPU
// link of the NIC's GPU, and a rank of the node over shared memory.
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/engine/engine_setup.hpp"
#include "sim/engine/platform.hpp"
#include "tests/sim/engine/isolated.hpp"
#include "topologies/fat_tree.hpp"

namespace hplsim::sim {
namespace {

struct Asked {
  int from, to;
  bool device;
  std::vector<std::string> expected; // the route's node links (names without a fabric kind), in order
};

// 2 nodes of 8 ranks, one GPU each; returns per asked route 1 when its node
// links are the expected ones, else 0.
std::vector<double> node_links(const std::vector<Asked>& asked, bool nics_on_gpus = true,
                               NicMapping mapping = NicMapping::GpuLocal,
                               const std::function<void(PlatformSpec&)>& tweak = nullptr,
                               const std::vector<std::string>& bandwidths_of = {}) {
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
    spec.ranks_per_node = 8;
    spec.gpus_per_rank = 1;
    spec.gpus_per_node = 8;
    spec.sockets = 1;
    spec.nics_per_socket = 4;
    spec.nics_on_gpus = nics_on_gpus;
    spec.pcie_bandwidth_bytes_per_s = 36e9;
    spec.gpu_link_bandwidth_bytes_per_s = 50e9;
    spec.shm_bandwidth_bytes_per_s = 20e9;
    spec.nic_mapping = mapping;
    spec.rank_row = [](int) { return 0; };
    spec.rank_col = [](int r) { return r; };
    spec.cpu_rate_factor = [](int) { return 1.0; };
    spec.gpu_rate_factor = [](int, int) { return 1.0; };
    if (tweak) tweak(spec);
    const Platform platform(spec);
    std::vector<double> out;
    for (const std::string& name : bandwidths_of)
      out.push_back(sg4::Link::by_name(name)->get_bandwidth());
    for (const Asked& a : asked) {
      std::vector<std::string> node;
      for (const std::string& name : platform.route_names(a.from, a.to, a.device))
        if (name.find(".gpu") != std::string::npos || name.find(".shm") != std::string::npos ||
            name.find(".upi") != std::string::npos)
          node.push_back(name);
      out.push_back(node == a.expected ? 1.0 : 0.0);
    }
    return out;
  });
}

void expect_all(const std::vector<double>& ok) {
  for (std::size_t i = 0; i < ok.size(); ++i)
    EXPECT_EQ(ok[i], 1.0) << "route " << i;
}

TEST(SocketLinks, EachOrderedPairOfSocketsHasItsOwnLink) {
  // 2 nodes of 4 sockets, one rank, no GPU and one NIC a socket: ranks 0-3 on
  // node 0's sockets 0-3; rank 6 is node 1's socket 2.
  const auto four_sockets = [](PlatformSpec& spec) {
    spec.ranks_per_node = 4;
    spec.gpus_per_rank = 0;
    spec.gpus_per_node = 0;
    spec.sockets = 4;
    spec.nics_per_socket = 1;
    spec.upi_bandwidth_bytes_per_s = 100e9;
  };
  expect_all(node_links({{2, 3, false, {"n0.shm", "n0.upi23"}},
                         {3, 2, false, {"n0.shm", "n0.upi32"}},
                         {1, 2, false, {"n0.shm", "n0.upi12"}},
                         {0, 3, false, {"n0.shm", "n0.upi03"}},
                         {2, 6, false, {}}},
                        false, NicMapping::RankLocal, four_sockets));
}

TEST(GpuLinks, DeviceMessagesWithinANodeTakeTheirGpusLink) {
  expect_all(node_links({{0, 3, true, {"n0.gpu0-3"}},
                         {3, 0, true, {"n0.gpu3-0"}},
                         {6, 7, true, {"n0.gpu6-7"}},
                         {0, 3, false, {"n0.shm"}}})); // host buffers: shared memory
}

TEST(GpuLinks, ARankReachesTheNicOnItsGpuOrOverItsLinkToTheNicsGpu) {
  // GPU_LOCAL: ranks 2k and 2k+1 use NIC k, on GPU 2k.
  expect_all(node_links({
      {0, 8, true, {}},                         // GPU 0 holds NIC 0, as GPU 8 (node 1's 0) does
      {1, 9, true, {"n0.gpu1-0", "n1.gpu0-1"}}, // over to GPU 0's NIC, and back to GPU 1 there
      {2, 13, true, {"n1.gpu4-5"}},             // NIC 1 on GPU 2; rank 13 = node 1's GPU 5, NIC 2 on GPU 4
      {1, 9, false, {"r0.gpu0.h2d", "r8.gpu0.d2h"}} // host memory: the CPU-GPU link of the NIC's GPU
  }));
}

TEST(GpuLinks, NicsOnTheSocketLeaveDeviceMessagesOnTheSocketsPath) {
  // nic_attachment CPU: no GPU link and no CPU-GPU link on the way to a NIC,
  // from host or device memory; within a node device messages still take the GPU link.
  expect_all(node_links({{1, 9, true, {}}, {1, 9, false, {}}, {0, 3, true, {"n0.gpu0-3"}}}, false,
                        NicMapping::RankLocal));
}

TEST(GpuLinks, FrontiersNicsOnOddGcdsAndFasterLinksWithinAPackage) {
  // Frontier: NIC k on GCD 2k + 1 (OLCF's node diagram), the two GCDs of an
  // MI250X joined by a faster link. GCD 0 reaches its package's NIC over that link.
  const auto frontier = [](PlatformSpec& spec) {
    spec.nic_gpus = {1, 3, 5, 7};
    spec.gpus_per_package = 2;
    spec.package_link_bandwidth_bytes_per_s = 200e9;
  };
  const auto out = node_links({{0, 8, true, {"n0.gpu0-1", "n1.gpu1-0"}},
                               {1, 9, true, {}},
                               {0, 8, false, {"r1.gpu0.h2d", "r9.gpu0.d2h"}}},
                              true, NicMapping::GpuLocal, frontier, {"n0.gpu0-1", "n0.gpu1-2", "n1.gpu7-6"});
  ASSERT_EQ(out.size(), 6u);
  EXPECT_EQ(out[0], 200e9); // within the package, as set
  EXPECT_EQ(out[1], 50e9);  // between packages: gpu_link_bandwidth_bytes_per_s
  EXPECT_EQ(out[2], 200e9);
  for (std::size_t i = 3; i < out.size(); ++i)
    EXPECT_EQ(out[i], 1.0) << "route " << i - 3;
}

} // namespace
} // namespace hplsim::sim
