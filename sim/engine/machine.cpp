#include "sim/engine/machine.hpp"

#include <algorithm>
#include <vector>

#include "sim/engine/engine_setup.hpp"
#include "sim/engine/replay_setup.hpp"
#include "sim/scenario/machine_topology.hpp"

namespace hplsim::sim {

BuiltMachine build_machine(const ResolvedScenario& sc, const std::function<void(PlatformSpec&)>& adjust,
                           std::uint64_t run, double fault_horizon_s) {
  BuiltMachine m;
  m.engine = create_engine();
  allow_flow_rate_caps(sc.machine.placement.device_rate_cap_bytes_per_s());
  m.topology = make_topology(sc.machine);
  m.kernels = std::make_unique<models::KernelModels>(sc.machine.kernels);
  m.variability = std::make_unique<models::Variability>(sc.machine.variability, m.topology->node_count(),
                                                        std::max(1, sc.machine.node.gpus_per_node()),
                                                        sc.options.seed, sc.base_dir);
  m.faults = build_timeline(sc, *m.topology, run, fault_horizon_s);
  PlatformSpec spec = make_platform_spec(sc, *m.topology, *m.variability);
  spec.degradations = m.faults.degradations;
  if (adjust) adjust(spec);
  m.platform = std::make_unique<Platform>(std::move(spec));
  if (sc.machine.protocol.ByteSizeLong() > 0) {
    m.protocol = std::make_unique<models::ProtocolModel>(sc.machine.protocol);
    install_protocol(*m.protocol, m.platform.get());
  }
  return m;
}

void keep_until_exit(BuiltMachine&& machine) {
  // Never freed, nor is the list (a static vector's destructor would drop the
  // pointers before LeakSanitizer looks): the process's memory goes with it.
  static auto* kept = new std::vector<BuiltMachine*>();
  kept->push_back(new BuiltMachine(std::move(machine)));
}

void run_controller(BuiltMachine& machine, const std::string& name, const std::function<void()>& body) {
  simgrid::s4u::Actor::create(name, machine.platform->cpu(0), body);
  machine.engine->run();
}

double simulated_clock_s() {
  return simgrid::s4u::Engine::get_clock();
}

PlatformSpec make_platform_spec(const ResolvedScenario& sc, const topo::Topology& topology,
                                const models::Variability& variability) {
  const auto& node = sc.machine.node;
  const auto& w = sc.workload;
  PlatformSpec spec;
  spec.topology = &topology;
  spec.routing = sc.machine.topology.routing;
  spec.node_map = w.node_map;
  if (spec.node_map.empty()) {
    spec.node_map.resize(static_cast<std::size_t>(w.nodes));
    for (int i = 0; i < w.nodes; ++i)
      spec.node_map[static_cast<std::size_t>(i)] = i;
  }
  spec.ranks_per_node = w.ranks_per_node;
  spec.gpus_per_rank = node.gpus_per_node() > 0 ? w.gpus_per_rank() : 0;
  spec.sockets = node.sockets;
  spec.nics_per_socket = node.nics_per_socket;
  spec.nic_latency_s = node.nic_latency_s;
  spec.pcie_bandwidth_bytes_per_s = node.pcie_bandwidth_bytes_per_s;
  spec.pcie_latency_s = node.pcie_latency_s;
  spec.upi_bandwidth_bytes_per_s = node.upi_bandwidth_bytes_per_s;
  spec.upi_latency_s = node.upi_latency_s;
  spec.shm_bandwidth_bytes_per_s = node.shm_bandwidth_bytes_per_s;
  spec.shm_latency_s = node.shm_latency_s;
  spec.shm_rank_bandwidth_bytes_per_s = node.shm_rank_bandwidth_bytes_per_s;
  spec.gpus_per_node = node.gpus_per_node();
  spec.nics_on_gpus = node.nics_on_gpus;
  spec.gpu_link_bandwidth_bytes_per_s = node.gpu_link_bandwidth_bytes_per_s;
  spec.gpu_link_latency_s = node.gpu_link_latency_s;
  spec.gpus_per_package = node.gpus_per_package;
  spec.package_link_bandwidth_bytes_per_s = node.package_link_bandwidth_bytes_per_s;
  spec.nic_gpus = node.nic_gpus;
  spec.nic_mapping = sc.machine.placement.nic_mapping;
  spec.affinity = sc.machine.placement.affinity;
  const int p = w.p, q = w.q;
  const bool column_major = w.column_major;
  spec.rank_row = [=](int rank) { return column_major ? rank % p : rank / q; };
  spec.rank_col = [=](int rank) { return column_major ? rank / p : rank % q; };
  const int ppn = w.ranks_per_node;
  const int gpr = spec.gpus_per_rank;
  std::vector<int> node_map = spec.node_map;
  spec.cpu_rate_factor = [&variability, node_map](int node_index) {
    return variability.node_factor(node_map[static_cast<std::size_t>(node_index)]);
  };
  spec.gpu_rate_factor = [&variability, node_map, ppn, gpr](int rank, int gpu) {
    const int node_index = rank / ppn;
    return variability.gpu_factor(node_map[static_cast<std::size_t>(node_index)], (rank % ppn) * gpr + gpu);
  };
  spec.copies_priced_privately = sc.options.private_resources && spec.copies_cross_their_own_link_only();
  return spec;
}

} // namespace hplsim::sim
