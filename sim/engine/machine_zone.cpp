#include "sim/engine/machine_zone.hpp"

#include "models/random_draws.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace hplsim::sim {

namespace kr = simgrid::kernel::routing;

namespace {
// A well-mixed, platform-independent hash of a rank pair: models::splitmix64.
using models::splitmix64;
// Index in topo_links_ of a topology link crossed in the hop's direction.
std::size_t link_index(const topo::Hop& hop) {
  return 2 * static_cast<std::size_t>(hop.link) + (hop.forward ? 0 : 1);
}
std::uint64_t pair_hash(int a, int b) {
  return splitmix64((static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) |
                    static_cast<std::uint32_t>(b));
}
} // namespace

MachineZone::MachineZone(const std::string& name, const PlatformSpec& spec)
    : NetZoneImpl(name), spec_(spec) {}

void MachineZone::register_host(const sg4::Host* host, Endpoint endpoint) {
  const auto id = static_cast<std::size_t>(host->get_netpoint()->id());
  if (endpoints_.size() <= id) endpoints_.resize(id + 1);
  endpoints_[id] = endpoint;
}

sg4::Link* MachineZone::make_link(const std::string& name, double bandwidth_bytes_per_s, double latency_s) {
  sg4::Link* link = create_link(name, {bandwidth_bytes_per_s});
  link->set_latency(latency_s);
  link->seal();
  ++all_links_;
  return link;
}

void MachineZone::create_links(int ranks) {
  const auto& links = spec_.topology->links();
  topo_links_.reserve(2 * links.size());
  // SimGrid sums the latencies of a route's links, so each switch traversal is
  // charged to the link that enters the switch: fabric links in both
  // directions and NIC links in the node->switch direction. A route with h
  // switch-to-switch hops crosses h + 1 switches and gets h + 1 switch latencies.
  const double sw = spec_.topology->switch_latency_s();
  topo_rates_.reserve(2 * links.size());
  auto add_topo_link = [&](const std::string& name, double bandwidth_bytes_per_s, double latency_s) {
    sg4::Link* link = make_link(name, bandwidth_bytes_per_s, latency_s);
    topo_links_.push_back(link);
    topo_rates_.push_back({link->get_bandwidth(), link->get_latency()});
  };
  for (std::size_t i = 0; i < links.size(); ++i) {
    const auto& l = links[i];
    const std::string base = std::string(topo::to_string(l.kind)) + std::to_string(i);
    const bool nic = l.kind == topo::LinkKind::Nic; // a = switch, b = node
    const double nic_s = nic ? spec_.nic_latency_s : 0.0;
    add_topo_link(base + ".f", l.bandwidth_bytes_per_s, l.latency_s + nic_s + (nic ? 0.0 : sw));
    add_topo_link(base + ".b", l.bandwidth_bytes_per_s, l.latency_s + nic_s + sw);
  }
  if (spec_.routing == topo::Routing::Adaptive) {
    routed_now_.assign(topo_links_.size(), 0.0F);
    flow_ends_.assign(topo_links_.size(), {});
  }
  const int nodes = static_cast<int>(spec_.node_map.size());
  for (int n = 0; n < nodes; ++n) {
    const std::string base = "n" + std::to_string(n);
    shm_.push_back(make_link(base + ".shm", spec_.shm_bandwidth_bytes_per_s, spec_.shm_latency_s));
    // A link per ordered pair of sockets (a -> b at upi_index), as UPI,
    // Infinity Fabric and Grace's CPU-to-CPU links join each pair of a node's
    // packages: two sockets have 01 and 10.
    for (int a = 0; a < spec_.sockets; ++a)
      for (int b = 0; b < spec_.sockets; ++b)
        if (a != b)
          upi_.push_back(make_link(base + ".upi" + std::to_string(a) + std::to_string(b),
                                   spec_.upi_bandwidth_bytes_per_s, spec_.upi_latency_s));
    // A link per ordered pair of GPUs (Infinity Fabric, NVLink), when the
    // node has them and the run's ranks use GPUs.
    if (spec_.gpu_link_bandwidth_bytes_per_s > 0 && spec_.gpus_per_rank > 0)
      for (int a = 0; a < spec_.gpus_per_node; ++a)
        for (int b = 0; b < spec_.gpus_per_node; ++b)
          if (a != b) {
            const bool package = a / spec_.gpus_per_package == b / spec_.gpus_per_package;
            gpu_links_.push_back(make_link(base + ".gpu" + std::to_string(a) + "-" + std::to_string(b),
                                           package ? spec_.package_link_bandwidth_bytes_per_s
                                                   : spec_.gpu_link_bandwidth_bytes_per_s,
                                           spec_.gpu_link_latency_s));
          }
  }
  if (spec_.shm_rank_bandwidth_bytes_per_s > 0)
    for (int r = 0; r < ranks; ++r)
      copy_.push_back(
          make_link("r" + std::to_string(r) + ".copy", spec_.shm_rank_bandwidth_bytes_per_s, 0.0));
  // Copies priced by the replay need no link (one per rank, GPU and direction).
  if (!spec_.copies_priced_privately)
    for (int r = 0; r < ranks; ++r)
      for (int g = 0; g < spec_.gpus_per_rank; ++g) {
        const std::string base = "r" + std::to_string(r) + ".gpu" + std::to_string(g);
        pcie_d2h_.push_back(make_link(base + ".d2h", spec_.pcie_bandwidth_bytes_per_s, spec_.pcie_latency_s));
        pcie_h2d_.push_back(make_link(base + ".h2d", spec_.pcie_bandwidth_bytes_per_s, spec_.pcie_latency_s));
      }
}

int MachineZone::socket_of(int rank) const {
  return spec_.socket_of(rank);
}

int MachineZone::nic_for(int rank, int peer) const {
  const int nics_per_node = spec_.sockets * spec_.nics_per_socket;
  switch (spec_.nic_mapping) {
  case NicMapping::Hashed:
    return static_cast<int>(pair_hash(std::min(rank, peer), std::max(rank, peer)) % nics_per_node);
  case NicMapping::RankLocal:
    return (rank % spec_.ranks_per_node) % nics_per_node;
  case NicMapping::GpuLocal:
    if (rank_gpu(rank) >= 0) return rank_gpu(rank) * nics_per_node / spec_.gpus_per_node;
    return socket_of(rank) * spec_.nics_per_socket; // a CPU-only run: its socket's first NIC
  case NicMapping::PhaseSpecific:
    break;
  }
  int socket = socket_of(rank);
  if (spec_.affinity == Affinity::Misplaced && spec_.sockets > 1) socket = (socket + 1) % spec_.sockets;
  const int first = socket * spec_.nics_per_socket;
  // Aurora (Aurora paper, arXiv 2604.09517, Table II; docs/sources.md): SWAP (column traffic) on NIC0 of the
  // socket, BCAST (row traffic) spread over the socket's other NICs.
  if (spec_.rank_col(rank) == spec_.rank_col(peer) || spec_.nics_per_socket == 1) return first;
  const auto spread = static_cast<std::uint64_t>(spec_.nics_per_socket - 1);
  return first + 1 + static_cast<int>(pair_hash(std::min(rank, peer), std::max(rank, peer)) % spread);
}

sg4::Link* MachineZone::upi(int node, int from_socket, int to_socket) const {
  const int s = spec_.sockets;
  const int pair = from_socket * (s - 1) + (to_socket < from_socket ? to_socket : to_socket - 1);
  return upi_[static_cast<std::size_t>(node) * static_cast<std::size_t>(s * (s - 1)) +
              static_cast<std::size_t>(pair)];
}

sg4::Link* MachineZone::gpu_link(int node, int from, int to) const {
  const int g = spec_.gpus_per_node;
  const int pair = from * (g - 1) + (to < from ? to : to - 1);
  return gpu_links_[static_cast<std::size_t>(node) * static_cast<std::size_t>(g * (g - 1)) +
                    static_cast<std::size_t>(pair)];
}

sg4::Link* MachineZone::gpu_pcie(int node, int gpu, bool to_gpu) const {
  if (spec_.gpus_per_rank <= 0 || gpu >= spec_.ranks_per_node * spec_.gpus_per_rank) return nullptr;
  const std::size_t index =
      static_cast<std::size_t>(node) * static_cast<std::size_t>(spec_.ranks_per_node * spec_.gpus_per_rank) +
      static_cast<std::size_t>(gpu);
  return to_gpu ? pcie_h2d_[index] : pcie_d2h_[index];
}

int MachineZone::rank_gpu(int rank) const {
  return spec_.gpus_per_rank > 0 ? (rank % spec_.ranks_per_node) * spec_.gpus_per_rank : -1;
}

int MachineZone::nic_gpu(int nic) const {
  if (!spec_.nic_gpus.empty()) return spec_.nic_gpus[static_cast<std::size_t>(nic)];
  return nic * spec_.gpus_per_node / (spec_.sockets * spec_.nics_per_socket);
}

void MachineZone::append_to_nic(int rank, int nic, bool device, bool outbound,
                                std::vector<sg4::Link*>& out) const {
  const int node = rank / spec_.ranks_per_node;
  const int socket = socket_of(rank);
  const auto add_upi = [&](int nic_socket) {
    if (nic_socket != socket)
      out.push_back(outbound ? upi(node, socket, nic_socket) : upi(node, nic_socket, socket));
  };
  if (!spec_.nics_on_gpus) {
    // On the socket's PCIe: over UPI from another socket. A device buffer's
    // crossing of its GPU's link to the host is not modelled (docs/network.md).
    add_upi(nic / spec_.nics_per_socket);
    return;
  }
  const int ng = nic_gpu(nic);
  const int gpu = rank_gpu(rank);
  if (device && gpu >= 0) {
    // From the rank's GPU to the NIC's over their GPU link.
    if (gpu != ng && !gpu_links_.empty())
      out.push_back(outbound ? gpu_link(node, gpu, ng) : gpu_link(node, ng, gpu));
    return;
  }
  // Host memory: to the NIC's GPU's socket, then over that GPU's link to the host.
  const int gpus_per_socket = spec_.gpus_per_node / spec_.sockets;
  sg4::Link* pcie = gpu_pcie(node, ng, outbound);
  if (outbound) {
    add_upi(ng / gpus_per_socket);
    if (pcie != nullptr) out.push_back(pcie);
  } else {
    if (pcie != nullptr) out.push_back(pcie);
    add_upi(ng / gpus_per_socket);
  }
}

void MachineZone::append_network(int from_rank, int to_rank, std::vector<sg4::Link*>& out, Flow flow) const {
  const int node_a = from_rank / spec_.ranks_per_node;
  const int node_b = to_rank / spec_.ranks_per_node;
  const int sa = socket_of(from_rank);
  const int sb = socket_of(to_rank);
  if (node_a == node_b) {
    const int ga = rank_gpu(from_rank), gb = rank_gpu(to_rank);
    if (flow.device && !gpu_links_.empty() && ga >= 0 && ga != gb) {
      // GPU-aware MPI between two GPUs of a node: their own link (Infinity Fabric, NVLink).
      out.push_back(gpu_link(node_a, ga, gb));
      return;
    }
    // Shared-memory MPI: a copy through the node's memory system, over UPI across sockets.
    out.push_back(shm_[node_a]);
    if (!copy_.empty()) out.push_back(copy_[static_cast<std::size_t>(from_rank)]);
    if (sa != sb) out.push_back(upi(node_a, sa, sb));
    return;
  }
  const int nic_a = nic_for(from_rank, to_rank);
  const int nic_b = nic_for(to_rank, from_rank);
  append_to_nic(from_rank, nic_a, flow.device, true, out);
  const auto* topology = spec_.topology;
  const int tn_a = spec_.node_map[node_a];
  const int tn_b = spec_.node_map[node_b];
  // NIC links join a switch (a) to a node (b): node->switch is the backward direction.
  out.push_back(topo_links_[2 * topology->nic_link(tn_a, nic_a) + 1]);
  hops_.clear();
  const int sw_a = topology->nic_switch(tn_a, nic_a);
  const int sw_b = topology->nic_switch(tn_b, nic_b);
  if (spec_.routing == topo::Routing::Adaptive)
    route_adaptive(sw_a, sw_b, pair_hash(from_rank, to_rank), flow.bytes);
  else
    topology->route(sw_a, sw_b, spec_.routing, pair_hash(from_rank, to_rank), hops_);
  for (const auto& hop : hops_)
    out.push_back(topo_links_[link_index(hop)]);
  out.push_back(topo_links_[2 * topology->nic_link(tn_b, nic_b)]);
  append_to_nic(to_rank, nic_b, flow.device, false, out);
}

double MachineZone::path_load(const std::vector<topo::Hop>& path, double links, double bound) const {
  double load = 0.0;
  for (const auto& hop : path) {
    const std::size_t index = link_index(hop);
    const double busy =
        topo_links_[index]->get_usage() / topo_rates_[index].bandwidth_bytes_per_s + routed_now_[index];
    load = std::max(load, busy);
    if (links * (1.0 + load) >= bound) break;
  }
  return load;
}

namespace {
std::uint64_t rank_pair(int from_rank, int to_rank) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(from_rank)) << 32) |
         static_cast<std::uint32_t>(to_rank);
}
} // namespace

bool MachineZone::keeps_flows(int from_rank, int to_rank) const {
  // A flow's record is kept where its route needs it (and popped there):
  // adaptive routing across nodes weighs paths by the flows' sizes, and a node
  // with GPU links or NICs on its GPUs routes device buffers from the GPUs.
  if (!gpu_links_.empty() || spec_.nics_on_gpus) return true;
  return spec_.routing == topo::Routing::Adaptive &&
         from_rank / spec_.ranks_per_node != to_rank / spec_.ranks_per_node;
}

void MachineZone::announce_flow(int from_rank, int to_rank, double bytes, bool device) {
  if (from_rank == to_rank || !keeps_flows(from_rank, to_rank)) return;
  announced_[rank_pair(from_rank, to_rank)].push_back({bytes, device});
}

MachineZone::Flow MachineZone::take_flow(int from_rank, int to_rank) const {
  if (querying_) return {0.0, query_device_};
  auto it = announced_.find(rank_pair(from_rank, to_rank));
  if (it == announced_.end() || it->second.empty()) return {};
  const Flow flow = it->second.front();
  it->second.pop_front();
  if (it->second.empty()) announced_.erase(it);
  return flow;
}

bool MachineZone::crosses_down_link(const std::vector<topo::Hop>& path) const {
  return std::any_of(path.begin(), path.end(),
                     [this](const topo::Hop& hop) { return !topo_links_[link_index(hop)]->is_on(); });
}

std::size_t MachineZone::active_flows(std::size_t index, double now) const {
  auto& ends = flow_ends_[index];
  ends.erase(std::remove_if(ends.begin(), ends.end(), [now](double e) { return e <= now; }), ends.end());
  return ends.size();
}

// UGAL (Singh, "Load-Balanced Routing in Interconnection Networks", PhD thesis,
// Stanford 2005), local variant, as Slingshot's adaptive routing does per
// packet (Aurora paper, arXiv 2604.09517: "adaptive routing, congestion management"); here per
// flow, at its start, among the minimal paths and kValiantCandidates
// non-minimal ones (docs/network.md):
//   - a flow the replay announced (its size known) takes the path with the
//     earliest expected completion: the path's link latencies plus its bytes
//     at the rate a new flow would get there, the busiest link's bandwidth
//     shared max-min with the flows already routed over it (each counted until
//     its own expected end). Counting flows matters: a link's usage/bandwidth
//     is 1 whether it carries one flow at full rate or fifty, so a usage-based
//     load sends every flow back to the minimal path once all candidates are
//     busy (measured: docs/aurora.md);
//   - other flows (route queries, unannounced transfers) minimise length x
//     (1 + load): length in links (the two NIC links included), load the
//     busiest fabric link's utilisation (usage / bandwidth) plus the flows
//     routed over it at this instant.
// Ties go to the earlier candidate (minimal first).
void MachineZone::route_adaptive(int src_switch, int dst_switch, std::uint64_t salt, double bytes) const {
  // Non-minimal candidates per flow [U]: UGAL implementations sample 1-4
  // intermediates per decision; 4 keeps the choice broad at a bounded cost.
  constexpr int kValiantCandidates = 4;
  if (src_switch == dst_switch) return;
  const auto* topology = spec_.topology;
  const double now = sg4::Engine::get_clock();
  if (now != routed_now_clock_) {
    for (std::size_t index : routed_now_touched_)
      routed_now_[index] = 0.0F;
    routed_now_touched_.clear();
    routed_now_clock_ = now;
  }
  candidates_.clear();
  topology->minimal_candidates(src_switch, dst_switch, candidates_);
  topology->valiant_candidates(src_switch, dst_switch, kValiantCandidates, salt, candidates_);
  std::size_t best = 0;
  double best_cost = std::numeric_limits<double>::infinity();
  if (bytes > 0.0) {
    // Expected completion on each candidate: its links' latencies plus the
    // bytes at the rate a new flow would get, the busiest link's bandwidth
    // shared with the flows already routed over it (max-min fair share).
    double best_rate = 0.0;
    for (std::size_t c = 0; c < candidates_.size(); ++c) {
      if (links_down_ > 0 && crosses_down_link(candidates_[c])) continue;
      double rate = std::numeric_limits<double>::infinity(), latency_s = 0.0;
      for (const auto& hop : candidates_[c]) {
        const std::size_t index = link_index(hop);
        const LinkRate& link = topo_rates_[index];
        rate = std::min(rate, link.bandwidth_bytes_per_s / double(active_flows(index, now) + 1));
        latency_s += link.latency_s;
      }
      const double cost = latency_s + bytes / rate;
      if (cost < best_cost) {
        best_cost = cost;
        best = c;
        best_rate = rate;
      }
    }
    hops_.swap(candidates_[best]);
    if (best_rate <= 0.0) return; // every candidate crosses a link that is off: the transfer will fail
    const double end = now + bytes / best_rate;
    for (const auto& hop : hops_)
      flow_ends_[link_index(hop)].push_back(end);
    return;
  }
  for (std::size_t c = 0; c < candidates_.size(); ++c) {
    if (links_down_ > 0 && crosses_down_link(candidates_[c])) continue;
    // The cost only grows with the load: a candidate as long as the best
    // one's cost, or whose load so far takes it there, cannot be chosen, and
    // its other links' usages (SimGrid sums each link's flows) are not read.
    const double links = static_cast<double>(candidates_[c].size() + 2);
    if (links >= best_cost) continue;
    const double cost = links * (1.0 + path_load(candidates_[c], links, best_cost));
    if (cost < best_cost) {
      best_cost = cost;
      best = c;
    }
  }
  hops_.swap(candidates_[best]);
  if (querying_) return; // a route query (latency lookup) carries no flow
  for (const auto& hop : hops_) {
    routed_now_[link_index(hop)] += 1.0F;
    routed_now_touched_.push_back(link_index(hop));
  }
}

void MachineZone::set_link_on(int topology_link, bool on) {
  // Counted before the links go off: turning a link off wakes the actors whose
  // transfers fail, and their retries may be routed before this call returns.
  if (!on) ++links_down_;
  for (int dir = 0; dir < 2; ++dir) {
    sg4::Link* link = topo_links_[2 * static_cast<std::size_t>(topology_link) + dir];
    if (link->is_on() == on) continue;
    if (on)
      link->turn_on();
    else
      link->turn_off();
  }
  if (on) --links_down_;
}

void MachineZone::route(Endpoint a, Endpoint b, std::vector<sg4::Link*>& out, Flow flow) const {
  const auto gpu_index = [&](const Endpoint& e) {
    return static_cast<std::size_t>(e.rank) * spec_.gpus_per_rank + e.gpu;
  };
  if ((a.gpu >= 0 || b.gpu >= 0) && pcie_d2h_.empty())
    throw std::logic_error("machine zone: a route to or from a GPU on a platform whose copies are priced "
                           "by the replay (PlatformSpec::copies_priced_privately)");
  if (a.gpu >= 0) out.push_back(pcie_d2h_[gpu_index(a)]);
  if (a.rank != b.rank) {
    append_network(a.rank, b.rank, out, flow);
  } else if (spec_.affinity == Affinity::Misplaced && spec_.sockets > 1 && (a.gpu >= 0) != (b.gpu >= 0)) {
    // MISPLACED: the rank and its memory sit on the socket opposite its GPU (and
    // NICs), so a host <-> device copy crosses the UPI (Aurora paper, arXiv 2604.09517: pinning on
    // one socket avoids UPI traffic).
    const int node = a.rank / spec_.ranks_per_node;
    const int mem = socket_of(a.rank);
    const int dev = (mem + 1) % spec_.sockets;
    const int from = a.gpu >= 0 ? dev : mem; // D2H: device socket -> memory socket
    out.push_back(upi(node, from, from == dev ? mem : dev));
  }
  if (b.gpu >= 0) out.push_back(pcie_h2d_[gpu_index(b)]);
}

void MachineZone::get_local_route(const kr::NetPoint* src, const kr::NetPoint* dst, kr::Route* into,
                                  double* latency) {
  thread_local std::vector<sg4::Link*> links;
  links.clear();
  const Endpoint& a = endpoints_.at(src->id());
  const Endpoint& b = endpoints_.at(dst->id());
  route(a, b, links, a.rank != b.rank ? take_flow(a.rank, b.rank) : Flow{});
  for (auto* link : links) {
    into->link_list_.push_back(link->get_impl());
    if (latency) *latency += link->get_latency();
  }
}

} // namespace hplsim::sim
