#pragma once
// Export of a machine (topology graph + node model) to a SimGrid platform.
//
// SimGrid's DragonflyZone cannot express Aurora (one link per node, one global
// link per group pair, minimal routing only, crashes when groups > routers per
// chassis; docs/simgrid-measurements.md, "Platform construction"), so the whole machine is ONE custom routing
// zone (MachineZone) whose get_local_route() composes a route from the topology's switch path, the NIC chosen
// by the placement policy, and the node's internal links (PCIe, UPI, shared memory). Routes are computed per
// communication in O(hops) from precomputed tables; no per-pair route table is stored.
//
// Hosts: one CPU host per rank ("r<rank>", the core that runs the rank's MPI
// and CPU kernels) and one host per GPU the rank drives ("g<rank>.<d>").
// Host speed is kWorkUnitsPerSecond: executions are priced in seconds by the
// kernel models and submitted as seconds * speed * (1 / rate factor).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/engine/platform_spec.hpp"

namespace hplsim::sim {

class MachineZone;

class Platform {
public:
  /// Builds the platform inside the (already created) engine. Call once.
  explicit Platform(PlatformSpec spec);
  ~Platform();
  Platform(const Platform&) = delete;
  Platform& operator=(const Platform&) = delete;

  int ranks() const { return ranks_; }
  int node_of(int rank) const { return rank / spec_.ranks_per_node; }
  sg4::Host* cpu(int rank) const { return cpu_hosts_[rank]; }
  sg4::Host* gpu(int rank, int device = 0) const {
    return gpu_hosts_[static_cast<std::size_t>(rank) * spec_.gpus_per_rank + device];
  }
  bool has_gpus() const { return spec_.gpus_per_rank > 0; }
  /// Whether a rank's host-device copies can be priced on its own link (PlatformSpec).
  bool copies_are_private() const { return spec_.copies_cross_their_own_link_only(); }
  const PlatformSpec& spec() const { return spec_; }
  /// The NIC (0 .. NICs per node - 1) of `rank`'s node that its messages to
  /// and from `peer`, on another node, cross: the placement's choice, a
  /// function of the pair.
  int nic_of(int rank, int peer) const;
  /// Links a message from rank a to rank b crosses, in order (for tests /
  /// debugging); `device`: from and to GPU memory.
  std::vector<std::string> route_names(int from_rank, int to_rank, bool device = false) const;
  std::size_t link_count() const;
  /// A network message about to start (adaptive routing weighs paths by flows;
  /// `device`: its buffers are in GPU memory, which routes it from and to the
  /// ranks' GPUs where the node has GPU links or NICs on its GPUs).
  void announce_flow(int from_rank, int to_rank, double bytes, bool device = false) const;
  /// The links from rank a's host to rank b's and their summed latency, as a
  /// lookup: adaptive routing does not count it as a flow (`device` as in announce_flow).
  double query_route(int from_rank, int to_rank, std::vector<sg4::Link*>& links, bool device = false) const;
  /// Takes a topology link (both directions) down or up (link flaps): comms
  /// crossing it fail, adaptive routing avoids it while it is down.
  void set_link_on(int topology_link, bool on) const;
  /// Switches a degraded node's (or one GPU's) hosts to their degraded speed.
  void degrade(int node, int gpu) const;

private:
  std::vector<double> speeds(double base, int node, int node_gpu) const;

  PlatformSpec spec_;
  int ranks_ = 0;
  MachineZone* zone_ = nullptr; // owned by SimGrid's engine
  std::vector<sg4::Host*> cpu_hosts_;
  std::vector<sg4::Host*> gpu_hosts_;
};

} // namespace hplsim::sim
