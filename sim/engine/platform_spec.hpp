#pragma once
// What a SimGrid platform is built from (sim/engine/platform.hpp builds it,
// sim/engine/machine_zone.hpp routes it): the topology, the node's internal
// paths, the rank layout and the rate factors of variability.
#include <functional>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/faults/timeline.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "topologies/topology.hpp"

namespace hplsim::sim {

namespace sg4 = simgrid::s4u;

inline constexpr double kWorkUnitsPerSecond = 1e9;

struct PlatformSpec {
  const topo::Topology* topology = nullptr;
  topo::Routing routing = topo::Routing::Minimal;
  // Topology node hosting each run node (run node i -> topology node node_map[i]).
  std::vector<int> node_map;
  int ranks_per_node = 1;
  int gpus_per_rank = 0; // 0: CPU-only node
  int sockets = 1;
  int nics_per_socket = 1;
  double nic_latency_s = 0; // added to each NIC link (each direction) on top of the cable's
  double pcie_bandwidth_bytes_per_s = 0, pcie_latency_s = 0;
  double upi_bandwidth_bytes_per_s = 0, upi_latency_s = 0;
  double shm_bandwidth_bytes_per_s = 0, shm_latency_s = 0;
  double shm_rank_bandwidth_bytes_per_s = 0; // 0: no per-rank copy link
  int gpus_per_node = 0;                     // the node's GPUs (a rank's are gpus_per_rank of them, in order)
  bool nics_on_gpus = false;                 // NIC i of a node on GPU i x gpus_per_node / NICs
  double gpu_link_bandwidth_bytes_per_s = 0, gpu_link_latency_s = 0; // 0: no GPU <-> GPU links
  int gpus_per_package = 1;                                          // GPUs of a package share a faster link
  double package_link_bandwidth_bytes_per_s = 0;
  std::vector<int> nic_gpus; // the GPU each NIC of a node hangs on; empty: NIC i on GPU i x G / NICs
  NicMapping nic_mapping = NicMapping::PhaseSpecific;
  Affinity affinity = Affinity::Aligned;
  // Grid: process row/column of a rank (phase-specific NIC choice: column
  // peers = pivot/SWAP traffic, row peers = BCAST traffic).
  std::function<int(int)> rank_row;
  std::function<int(int)> rank_col;
  // Rate factors (variability): per run node (CPU), per (rank, gpu).
  std::function<double(int node)> cpu_rate_factor;
  std::function<double(int rank, int gpu)> gpu_rate_factor;
  // Degraded nodes or GPUs (faults.degradations): from the start (from_s 0)
  // their speed is multiplied by rate_factor; later ones get a second power
  // state that Platform::degrade switches to.
  std::vector<DegradationEvent> degradations;
  // The replay prices every host-device copy on the rank's own link
  // (sim/engine/private_copy_link.hpp): the platform has no CPU <-> GPU links.
  // Only where copies_cross_their_own_link_only() holds.
  bool copies_priced_privately = false;

  /// The socket of a rank: a node's ranks split evenly over its sockets, in order.
  int socket_of(int rank) const { return (rank % ranks_per_node) * sockets / ranks_per_node; }
  /// Whether a rank's host-device copies cross its own GPU link alone, which no
  /// other transfer crosses: not when messages reach NICs over GPU links
  /// (nics_on_gpus) or when copies cross the UPI (MISPLACED affinity).
  bool copies_cross_their_own_link_only() const {
    return gpus_per_rank > 0 && !nics_on_gpus && !(affinity == Affinity::Misplaced && sockets > 1);
  }
};

} // namespace hplsim::sim
