// Validation of machine.node: counts, link rates and latencies, where the
// NICs hang, and an APU's shared memory (sim/scenario/scenario.proto, Node).
#include <climits>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/scenario/scenario_check.hpp"
#include "sim/scenario/scenario_validate.hpp"

namespace hplsim::sim::detail {
namespace {

using Int = std::int64_t; // wide enough for products of int32 fields

std::string str(Int v) {
  return format_number(v);
}

} // namespace

void check_node(const MessageCheck& n, const Node& node) {
  n.at_least("sockets", 1, Need::Required);
  n.at_least("cores_per_socket", 1, Need::Required);
  n.at_least("gpus_per_socket", 0);
  n.at_least("nics_per_socket", 1, Need::Required);
  // NodeConfig's per-node counts (sockets times a per-socket count) are ints.
  for (const std::string_view per_socket : {"cores_per_socket", "gpus_per_socket", "nics_per_socket"})
    if (n.integer("sockets") * n.integer(per_socket) > INT_MAX)
      n.fail(per_socket,
             "machine.node: sockets*" + std::string(per_socket) + " = " + str(n.integer("sockets")) + "*" +
                 str(n.integer(per_socket)) + " exceeds an int",
             {n.path("sockets"), n.path(per_socket)});
  n.positive("nic_bandwidth_bytes_per_s", Need::Required);
  n.non_negative("nic_latency_s");
  if (n.integer("gpus_per_socket") > 0)
    n.required("pcie_bandwidth_bytes_per_s",
               "with GPUs (gpus_per_socket = " + str(n.integer("gpus_per_socket")) + ")");
  n.positive("pcie_bandwidth_bytes_per_s");
  n.non_negative("pcie_latency_s");
  if (n.integer("sockets") > 1)
    n.required("upi_bandwidth_bytes_per_s", "with sockets > 1 (sockets = " + str(n.integer("sockets")) + ")");
  n.positive("upi_bandwidth_bytes_per_s");
  n.non_negative("upi_latency_s");
  n.positive("shm_bandwidth_bytes_per_s", Need::Required);
  n.non_negative("shm_latency_s");
  n.positive("shm_rank_bandwidth_bytes_per_s");
  n.at_least("copy_engines", 1);
  n.positive("gpu_memory_bytes");
  n.positive("host_memory_bytes");
  n.positive("memory_bandwidth_bytes_per_s");
  n.positive("gpu_link_bandwidth_bytes_per_s");
  n.non_negative("gpu_link_latency_s");
  const Int gpus = n.integer("gpus_per_socket"), nics = n.integer("nics_per_socket");
  if (node.nic_attachment() == Node::GPU) {
    if (gpus < nics)
      n.fail("nic_attachment",
             n.path("nic_attachment") + " = GPU puts each NIC on a GPU of its own, but the node has " +
                 str(nics) + " NICs and " + str(gpus) + " GPUs per socket",
             {n.path("nics_per_socket"), n.path("gpus_per_socket")});
    n.required("gpu_link_bandwidth_bytes_per_s",
               "with nic_attachment = GPU (a GPU reaches another GPU's NIC over it)");
  }
  n.at_least("gpus_per_package", 1);
  n.positive("package_link_bandwidth_bytes_per_s");
  if (n.integer("gpus_per_package") > 1) {
    if (gpus % n.integer("gpus_per_package") != 0)
      n.fail("gpus_per_package", n.path("gpus_per_package") + " = " + str(n.integer("gpus_per_package")) +
                                     " does not divide gpus_per_socket = " + str(gpus));
    n.required("package_link_bandwidth_bytes_per_s", "with gpus_per_package > 1");
    n.required("gpu_link_bandwidth_bytes_per_s", "with gpus_per_package > 1 (the links between packages)");
  }
  if (node.nic_gpus_size() > 0) {
    if (node.nic_attachment() != Node::GPU)
      n.fail("nic_gpus", n.path("nic_gpus") + " places NICs on GPUs: it needs nic_attachment = GPU",
             {n.path("nic_attachment")});
    const Int nics_per_node = n.integer("sockets") * nics, gpus_per_node = n.integer("sockets") * gpus;
    if (node.nic_gpus_size() != nics_per_node)
      n.fail("nic_gpus",
             n.path("nic_gpus") + " lists " + str(node.nic_gpus_size()) +
                 " GPUs, one per NIC of the node: sockets*nics_per_socket = " + str(nics_per_node));
    for (const int g : node.nic_gpus())
      if (g < 0 || g >= gpus_per_node)
        n.fail("nic_gpus", n.path("nic_gpus") + ": GPU " + str(g) + " is not one of the node's " +
                               str(gpus_per_node) + " (0 to " + str(gpus_per_node - 1) + ")");
  }
  if (node.unified_memory()) {
    if (gpus < 1)
      n.fail("unified_memory", n.path("unified_memory") + " = true (an APU) needs a GPU per socket, got " +
                                   n.path("gpus_per_socket") + " = " + str(gpus));
    n.required("gpu_memory_bytes", "with unified_memory = true (the memory the CPU and GPU share)");
    if (n.has("host_memory_bytes"))
      n.fail("host_memory_bytes",
             n.path("host_memory_bytes") +
                 " must stay unset with unified_memory = true: the host's buffers come "
                 "out of gpu_memory_bytes",
             {n.path("unified_memory")});
  }
}

void check_node_placement(const Checker& c, const ResolvedScenario& r) {
  const NodeConfig& node = r.machine.node;
  if (r.machine.placement.nic_mapping == NicMapping::GpuLocal && node.gpus_per_node() == 0)
    c.report("machine.placement.nic_mapping",
             "machine.placement.nic_mapping = GPU_LOCAL picks the NIC nearest a rank's GPU, but "
             "machine.node.gpus_per_socket = 0",
             {"machine.placement.nic_mapping", "machine.node.gpus_per_socket"});
}

} // namespace hplsim::sim::detail
