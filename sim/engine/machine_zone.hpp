#pragma once
// The custom SimGrid routing zone holding the whole machine (see platform.hpp).
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u.hpp>

#include "sim/engine/platform_spec.hpp"

namespace hplsim::sim {

/// What the replay announced of a message before starting it.
struct AnnouncedFlow {
  double bytes = 0.0;  ///< 0: unknown (adaptive routing then weighs paths by load)
  bool device = false; ///< buffers in GPU memory (GPU-aware MPI)
};

class MachineZone : public simgrid::kernel::routing::NetZoneImpl {
public:
  MachineZone(const std::string& name, const PlatformSpec& spec);

  /// What a netpoint is: the CPU of a rank or one of its GPUs.
  struct Endpoint {
    int rank = -1;
    int gpu = -1; // -1: the rank's CPU host
  };
  void register_host(const sg4::Host* host, Endpoint endpoint);
  void create_links(int ranks);

  void get_local_route(const simgrid::kernel::routing::NetPoint* src,
                       const simgrid::kernel::routing::NetPoint* dst, simgrid::kernel::routing::Route* into,
                       double* latency) override;

  using Flow = AnnouncedFlow;
  /// The same route as SimGrid sees it for a flow (used by tests and route_names()).
  void route(Endpoint a, Endpoint b, std::vector<sg4::Link*>& out, Flow flow = {}) const;
  /// NIC index (within the node) rank `rank` uses to talk to rank `peer`.
  int nic_for(int rank, int peer) const;
  int socket_of(int rank) const;
  std::size_t link_count() const { return all_links_; }
  /// The replay announces each network message (from rank, to rank, bytes)
  /// before starting it, so adaptive routing can weigh candidate paths by the
  /// flows they already carry (docs/network.md).
  /// A message from GPU memory (`device`) starts and ends at the ranks'
  /// GPUs where the node has GPU links or NICs on its GPUs.
  void announce_flow(int from_rank, int to_rank, double bytes, bool device = false);
  /// A topology link down (both directions) or up again (link flaps).
  void set_link_on(int topology_link, bool on);
  /// Route queries that are not flows (latency estimates) register nothing.
  void set_querying(bool querying, bool device = false) {
    querying_ = querying;
    query_device_ = device;
  }

private:
  sg4::Link* make_link(const std::string& name, double bandwidth_bytes_per_s, double latency_s);
  void append_network(int from_rank, int to_rank, std::vector<sg4::Link*>& out, Flow flow) const;
  sg4::Link* upi(int node, int from_socket, int to_socket) const;
  /// Node `node`'s link from GPU `from` to GPU `to` (node-local GPU indices).
  sg4::Link* gpu_link(int node, int from, int to) const;
  /// The CPU <-> GPU link of node `node`'s GPU `gpu` (the pcie link of the
  /// rank that holds it), or null when no rank of the run holds it.
  sg4::Link* gpu_pcie(int node, int gpu, bool to_gpu) const;
  /// A rank's (first) GPU within its node, -1 without GPUs.
  int rank_gpu(int rank) const;
  /// The GPU a NIC hangs on (nics_on_gpus).
  int nic_gpu(int nic) const;
  /// Appends the links between rank `rank`'s memory and its NIC `nic`, in the
  /// flow's direction (`outbound`: from the rank).
  void append_to_nic(int rank, int nic, bool device, bool outbound, std::vector<sg4::Link*>& out) const;
  /// Whether announce_flow keeps a record of the pair's flows for the routes.
  bool keeps_flows(int from_rank, int to_rank) const;
  Flow take_flow(int from_rank, int to_rank) const;
  // Adaptive routing (UGAL-like, docs/network.md):
  // fills hops_ with the least-loaded of the minimal and a few Valiant paths.
  void route_adaptive(int src_switch, int dst_switch, std::uint64_t salt, double bytes) const;
  std::size_t active_flows(std::size_t index, double now) const;
  /// The busiest link's load on `path` (usage / bandwidth + flows routed at
  /// this instant); stops early, with the load so far, once `links` x (1 +
  /// load) reaches `bound` (the candidate can no longer be chosen).
  double path_load(const std::vector<topo::Hop>& path, double links, double bound) const;
  bool crosses_down_link(const std::vector<topo::Hop>& path) const;

  const PlatformSpec& spec_;
  std::vector<Endpoint> endpoints_; // by netpoint id
  // Topology links, two directions each: [2*i] forward (a->b), [2*i+1] backward.
  std::vector<sg4::Link*> topo_links_;
  // The same links' bandwidth and latency, contiguous: adaptive routing reads
  // them for every candidate hop of every flow, and reaching them through each
  // sg4::Link was 9-14% of a folded Aurora run's profile (docs/benchmarks.md).
  struct LinkRate {
    double bandwidth_bytes_per_s;
    double latency_s;
  };
  std::vector<LinkRate> topo_rates_;
  std::vector<sg4::Link*> pcie_d2h_, pcie_h2d_; // per (rank, gpu)
  // Per node, a link per ordered pair of sockets: node n's a -> b is
  // [n * S (S - 1) + a (S - 1) + (b < a ? b : b - 1)], S sockets (two: 0->1, 1->0).
  std::vector<sg4::Link*> upi_;
  std::vector<sg4::Link*> shm_; // per node
  // Per node, a link per ordered pair of GPUs, indexed as upi_ with G GPUs.
  std::vector<sg4::Link*> gpu_links_;
  std::vector<sg4::Link*> copy_; // per rank, when shm_rank_bandwidth_bytes_per_s is set
  std::size_t all_links_ = 0;
  int links_down_ = 0;                  // topology links currently off: adaptive routing avoids them
  mutable std::vector<topo::Hop> hops_; // scratch
  mutable std::vector<std::vector<topo::Hop>> candidates_; // scratch (adaptive)
  // Flows routed at the current simulated instant, per fabric link direction:
  // SimGrid updates a link's usage only when it re-solves the sharing, so
  // flows that start together would all see the same idle links and herd
  // onto one path without this count (reset when the clock moves).
  mutable std::vector<float> routed_now_;
  mutable std::vector<std::size_t> routed_now_touched_;
  mutable double routed_now_clock_ = -1.0;
  // The announced flows about to start (their sizes for adaptive routing's
  // flow-count load, their buffers for the node's paths), per (from rank, to
  // rank) packed in 64 bits, in the order the pair's messages start; per fabric
  // link direction the expected end times of the flows routed over it.
  bool querying_ = false, query_device_ = false;
  mutable std::unordered_map<std::uint64_t, std::deque<Flow>> announced_;
  mutable std::vector<std::vector<double>> flow_ends_;
};

} // namespace hplsim::sim
