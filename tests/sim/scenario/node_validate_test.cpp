// machine.node's placement of NICs on GPUs, GPU links and APU memory
// (sim/scenario/node_validate.cpp): read into NodeConfig, and every bad
// combination named at its field.
#include <string>

#include <gtest/gtest.h>

#include "sim/scenario/scenario_defaults.hpp"
#include "sim/scenario/scenario_loader.hpp"

namespace hplsim::sim {
namespace {

// Frontier-shaped nodes: one socket, 8 GPUs, 4 NICs (line numbers matter).
const std::string kGpuNics = R"pb(name: "gpu-nics"
machine {
  topology {
    dragonfly {
      groups: 2
      switches_per_group: 2
      endpoint_ports_per_switch: 8
      global_links_per_group_pair: 1
      local_link_bandwidth_bytes_per_s: 25e9
      global_link_bandwidth_bytes_per_s: 25e9
    }
  }
  node {
    sockets: 1
    cores_per_socket: 64
    gpus_per_socket: 8
    nics_per_socket: 4
    nic_bandwidth_bytes_per_s: 25e9
    pcie_bandwidth_bytes_per_s: 36e9
    shm_bandwidth_bytes_per_s: 50e9
    nic_attachment: GPU
    gpu_link_bandwidth_bytes_per_s: 50e9
    gpu_link_latency_s: 1e-6
  }
  placement { nic_mapping: GPU_LOCAL gpu_aware_mpi: true }
}
workload {
  nodes: 2
  ranks_per_node: 8
  n: 8192
  nb: 256
  p: 4
  q: 4
}
)pb";

std::string with(const std::string& from, const std::string& to) {
  std::string text = kGpuNics;
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

std::string error_of(const std::string& text) {
  try {
    load_scenario_text(text, "x.textproto");
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

TEST(NodeValidate, ReadsNicsOnGpusAndGpuLinks) {
  const ResolvedScenario r = resolve(load_scenario_text(kGpuNics, "x.textproto"));
  EXPECT_TRUE(r.machine.node.nics_on_gpus);
  EXPECT_DOUBLE_EQ(r.machine.node.gpu_link_bandwidth_bytes_per_s, 50e9); // as written
  EXPECT_DOUBLE_EQ(r.machine.node.gpu_link_latency_s, 1e-6);
  EXPECT_EQ(r.machine.placement.nic_mapping, NicMapping::GpuLocal);
  EXPECT_FALSE(r.machine.node.unified_memory);
}

TEST(NodeValidate, NicsOnGpusNeedAGpuEachAndGpuLinks) {
  EXPECT_EQ(error_of(with("    gpu_link_bandwidth_bytes_per_s: 50e9\n", "")),
            "x.textproto:13:3: machine.node.gpu_link_bandwidth_bytes_per_s is required with nic_attachment = "
            "GPU (a GPU reaches another GPU's NIC over it)");
  EXPECT_EQ(
      error_of(with("gpus_per_socket: 8", "gpus_per_socket: 2")
                   .replace(kGpuNics.find("ranks_per_node: 8"), 17, "ranks_per_node: 2")),
      "x.textproto:21:5: machine.node.nic_attachment = GPU puts each NIC on a GPU of its own, but the node "
      "has 4 NICs and 2 GPUs per socket");
  EXPECT_EQ(error_of(with("gpu_link_latency_s: 1e-6", "gpu_link_latency_s: -1")),
            "x.textproto:23:5: machine.node.gpu_link_latency_s must be >= 0, got -1");
}

TEST(NodeValidate, AnApuSharesItsMemoryAndDeclaresNoHostMemory) {
  const std::string apu =
      with("    nic_attachment: GPU\n", "    unified_memory: true\n    gpu_memory_bytes: 128e9\n");
  EXPECT_TRUE(resolve(load_scenario_text(apu, "x.textproto")).machine.node.unified_memory);
  EXPECT_EQ(
      error_of(with("    nic_attachment: GPU\n", "    unified_memory: true\n")),
      "x.textproto:13:3: machine.node.gpu_memory_bytes is required with unified_memory = true (the memory "
      "the CPU and GPU share)");
  const std::string both =
      with("    nic_attachment: GPU\n",
           "    unified_memory: true\n    gpu_memory_bytes: 128e9\n    host_memory_bytes: 5e11\n");
  EXPECT_EQ(error_of(both).rfind("x.textproto:23:5: machine.node.host_memory_bytes must stay unset with "
                                 "unified_memory = true",
                                 0),
            0u)
      << error_of(both);
}

TEST(NodeValidate, GpuLocalMappingNeedsGpus) {
  std::string cpu = with("gpus_per_socket: 8", "gpus_per_socket: 0");
  cpu.replace(cpu.find("    nic_attachment: GPU\n"), 24, "");
  EXPECT_EQ(error_of(cpu),
            "x.textproto:24:15: machine.placement.nic_mapping = GPU_LOCAL picks the NIC nearest "
            "a rank's GPU, but machine.node.gpus_per_socket = 0");
}

} // namespace
} // namespace hplsim::sim
