#include "sim/simulation.hpp"

#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <xbt/log.h>

#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#include <simgrid/s4u.hpp>

#include "models/kernel_model.hpp"
#include "models/protocol_model.hpp"
#include "models/variability.hpp"
#include "sim/analytic_mode.hpp"
#include "sim/fast_mode.hpp"
#include "sim/platform.hpp"
#include "sim/replay.hpp"
#include "sim/schedule_source.hpp"
#include "topologies/dragonfly.hpp"
#include "topologies/fat_tree.hpp"

// gcc defines __SANITIZE_ADDRESS__ under -fsanitize=address; clang 14 only answers __has_feature.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HPLSIM_CLANG_ASAN 1
#endif
#endif
#ifndef HPLSIM_CLANG_ASAN
#define HPLSIM_CLANG_ASAN 0
#endif

namespace hplsim::sim {

std::unique_ptr<topo::Topology> make_topology(const MachineConfig& machine) {
  const auto& t = machine.topology;
  const auto& node = machine.node;
  if (t.kind == TopologyKind::Dragonfly) {
    topo::DragonflyParams p;
    p.groups = t.dragonfly.groups;
    p.switches_per_group = t.dragonfly.switches_per_group;
    p.endpoint_ports_per_switch = t.dragonfly.endpoint_ports_per_switch;
    p.global_links_per_group_pair = t.dragonfly.global_links_per_group_pair;
    p.switches_per_node = t.dragonfly.switches_per_node;
    p.nics_per_node = node.nics_per_node();
    p.nodes = t.nodes;
    p.local_link_bandwidth_bytes_per_s = t.dragonfly.local_link_bandwidth_bytes_per_s;
    p.global_link_bandwidth_bytes_per_s = t.dragonfly.global_link_bandwidth_bytes_per_s;
    p.nic_bandwidth_bytes_per_s = node.nic_bandwidth_bytes_per_s;
    p.link_latency_s = t.dragonfly.link_latency_s;
    p.switch_latency_s = t.dragonfly.switch_latency_s;
    return std::make_unique<topo::DragonflyTopology>(p);
  }
  topo::FatTreeParams p;
  p.leaf_switches = t.fat_tree.leaf_switches;
  p.spine_switches = t.fat_tree.spine_switches;
  p.endpoint_ports_per_leaf = t.fat_tree.endpoint_ports_per_leaf;
  p.links_per_leaf_spine = t.fat_tree.links_per_leaf_spine;
  p.nics_per_node = node.nics_per_node();
  p.nodes = t.nodes;
  p.link_bandwidth_bytes_per_s = t.fat_tree.link_bandwidth_bytes_per_s;
  p.nic_bandwidth_bytes_per_s = node.nic_bandwidth_bytes_per_s;
  p.link_latency_s = t.fat_tree.link_latency_s;
  p.switch_latency_s = t.fat_tree.switch_latency_s;
  return std::make_unique<topo::FatTreeTopology>(p);
}

PathFigures nominal_path(const ResolvedScenario& sc, int node_a, int node_b) {
  const auto topology = make_topology(sc.machine);
  const auto& links = topology->links();
  std::vector<topo::Hop> hops;
  topology->route(topology->nic_switch(node_a, 0), topology->nic_switch(node_b, 0),
                  sc.machine.topology.routing, 0, hops);
  std::vector<int> ids = {topology->nic_link(node_a, 0)};
  for (const auto& h : hops)
    ids.push_back(h.link);
  ids.push_back(topology->nic_link(node_b, 0));
  PathFigures f;
  f.bandwidth_bytes_per_s = std::numeric_limits<double>::infinity();
  f.latency_s = 2.0 * sc.machine.node.nic_latency_s;
  for (int id : ids) {
    f.latency_s += links[static_cast<std::size_t>(id)].latency_s;
    f.bandwidth_bytes_per_s =
        std::min(f.bandwidth_bytes_per_s, links[static_cast<std::size_t>(id)].bandwidth_bytes_per_s);
  }
  f.switch_hops = static_cast<int>(hops.size());
  f.latency_s += (static_cast<double>(hops.size()) + 1.0) * topology->switch_latency_s();
  return f;
}

Mode effective_mode(const ResolvedScenario& sc) {
  if (sc.options.mode != Mode::Auto) return sc.options.mode;
  // Reference mode costs about one SimGrid activity per message and kernel;
  // SIMGRID-NOTES.md measures ~1e5 activities/s, so keep it for runs of at most
  // a few million activities (a minute or so) and use fast mode above that.
  return estimated_reference_activities(sc) <= 5e6 ? Mode::Reference : Mode::Fast;
}

double estimated_reference_activities(const ResolvedScenario& sc) {
  const auto& w = sc.workload;
  const double log_p = std::ceil(std::log2(std::max(2, w.p)));
  // Per step: one pivot exchange per panel column over the P ranks of the owner
  // column (log2 P rounds), plus a handful of messages and kernels per rank.
  const double per_step = double(w.nb) * w.p * (log_p + 1.0) + 8.0 * w.ranks();
  return per_step * double(w.steps());
}

void finalize_result(RunResult& r) {
  const double n = static_cast<double>(r.n);
  r.time_s = 0.0;
  for (const auto& s : r.step_records)
    r.time_s = std::max(r.time_s, s.end_s);
  const double flops = 2.0 / 3.0 * n * n * n + 1.5 * n * n;
  // HPL-MxP: the refinement is the final step; its time is what the run spends after the last panel step.
  if (r.benchmark == "hpl-mxp" && r.step_records.size() >= 2) {
    const auto& last = r.step_records.back();
    r.refinement_s = last.end_s - r.step_records[r.step_records.size() - 2].end_s;
  }
  r.rmax_flops_per_s = r.time_s > 0.0 ? flops / r.time_s : 0.0;
}

namespace {} // namespace

void allow_flow_rate_caps(const ReplayOptions& options) {
  // SimGrid bounds a flow by min(its own rate, TCP-gamma / (2 x latency)), and
  // with TCP-gamma 0 that is 0, "no bound", which drops a per-message rate cap.
  // 1e30 B is no window bound either, but SimGrid's solver with finite bounds
  // shares some flows differently (measured: the 16-node switch slice with
  // MISPLACED NICs, 2175.2 -> 2161.6 TF/s), so only runs whose device path has
  // a rate cap use it (README, "GPU-aware MPI").
  if (options.device_message_rate_bytes_per_s > 0.0)
    sg4::Engine::get_instance()->set_config("network/TCP-gamma:1e30");
}

std::unique_ptr<sg4::Engine> create_engine() {
  xbt_log_control_set("root.thresh:critical");
  char arg0[] = "hplsim";
#if defined(__SANITIZE_ADDRESS__) || HPLSIM_CLANG_ASAN
  // AddressSanitizer cannot follow SimGrid's raw context switches (Debian's
  // SimGrid has no ASan fiber annotations): an exception thrown on an actor's
  // stack (e.g. the kill at a deadlock) leaves stale stack poisoning and false
  // reports follow. With ucontext, ASan's swapcontext interceptor clears the
  // shadow of the stack switched to. (Thread contexts would hang: fast mode
  // forks window processes from inside a simulation.) The factory is chosen
  // when the engine starts, so on its command line (scripts/sanitize.sh).
  char factory[] = "--cfg=contexts/factory:ucontext";
  char* argv[] = {arg0, factory, nullptr};
#else
  char* argv[] = {arg0, nullptr};
#endif
  int argc = static_cast<int>(std::size(argv)) - 1;
  auto engine = std::make_unique<sg4::Engine>(&argc, argv);
  // CM02: plain max-min sharing with no built-in TCP factors; hplsim's protocol
  // model (models/protocol_model.hpp) supplies the per-size corrections.
  engine->set_config("network/model:CM02");
  // Cross-traffic couples every flow to its reverse path at 5% and costs ~50x
  // at scale (SIMGRID-NOTES.md); HPL's messages are one-way bulk transfers.
  engine->set_config("network/crosstraffic:0");
  // No TCP window bound: HPC fabrics are not TCP (SIMGRID-NOTES.md).
  engine->set_config("network/TCP-gamma:0");
  engine->set_config("contexts/stack-size:64");
  engine->set_config("contexts/guard-size:0");
  return engine;
}

namespace {

RunResult base_result(const ResolvedScenario& sc, const char* mode) {
  RunResult r;
  r.mode = mode;
  r.benchmark = to_string(sc.workload.benchmark);
  r.n = sc.workload.n;
  r.nb = sc.workload.nb;
  r.p = sc.workload.p;
  r.q = sc.workload.q;
  r.nodes = sc.workload.nodes;
  r.ranks = sc.workload.ranks();
  r.depth = sc.workload.depth;
  r.seed = sc.options.seed;
  r.steps = sc.workload.steps();
  return r;
}

} // namespace

PlatformSpec make_platform_spec(const ResolvedScenario& sc, const topo::Topology& topology,
                                const models::Variability& variability) {
  const auto& node = sc.machine.node;
  const auto& w = sc.workload;
  PlatformSpec spec;
  spec.topology = &topology;
  spec.routing = sc.machine.topology.routing;
  spec.node_map.resize(static_cast<std::size_t>(w.nodes));
  for (int i = 0; i < w.nodes; ++i)
    spec.node_map[static_cast<std::size_t>(i)] = i;
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
  return spec;
}

void install_protocol(const models::ProtocolModel& protocol) {
  auto* model = sg4::Engine::get_instance()->get_netzone_root()->get_network_model();
  const models::ProtocolModel* pm = &protocol;
  model->set_lat_factor_cb([pm](double size, const sg4::Host*, const sg4::Host*,
                                const std::vector<sg4::Link*>& links,
                                const std::unordered_set<sg4::NetZone*>&) {
    double path_latency_s = 0.0;
    for (const auto* l : links)
      path_latency_s += l->get_latency();
    // Effective latency L*lf(b) + o_s + o_r + rendezvous(b): the software
    // overheads and the rendezvous handshake are added to the path latency
    // (README, "Protocol model": why overheads are latency, not CPU time).
    if (path_latency_s <= 0.0) return pm->latency_factor(size);
    return pm->message_latency_s(path_latency_s, size) / path_latency_s;
  });
  model->set_bw_factor_cb(
      [pm](double size, const sg4::Host*, const sg4::Host*, const std::vector<sg4::Link*>&,
           const std::unordered_set<sg4::NetZone*>&) { return pm->bandwidth_factor(size); });
}

void check_kernel_coverage(const ResolvedScenario& sc, const ScheduleSource& source,
                           const models::KernelModels& kernels) {
  // Every kernel the workload calls must be priced: look at the first, second,
  // last panel steps and the final step of a few ranks of distinct roles
  // before the simulation starts, so a gap is a clear input error and not an
  // exception inside a SimGrid actor.
  const auto& w = sc.workload;
  std::vector<bool> only(static_cast<std::size_t>(w.ranks()), false);
  const int last = w.ranks() - 1;
  for (int r : {0, std::min(1, last), std::min(w.q, last), last})
    only[static_cast<std::size_t>(r)] = true;
  traces::StepSchedule step;
  for (std::int64_t k :
       {std::int64_t{0}, std::min<std::int64_t>(1, source.steps()), source.steps() - 1, source.steps()}) {
    if (k < 0) continue;
    step.Clear();
    source.step(k, step, &only);
    for (const auto& prog : step.ranks())
      for (const auto& op : prog.ops()) {
        if (!op.has_compute()) continue;
        const auto& c = op.compute();
        try {
          kernels.seconds({c.kernel(), c.resource(), c.precision(), c.m(), c.n(), c.k()});
        } catch (const std::out_of_range& e) {
          throw std::invalid_argument(
              sc.path + ": " + e.what() + ", which the workload needs (" +
              (sc.machine.kernels_path.empty() ? std::string("machine.kernels") : sc.machine.kernels_path) +
              ")");
        }
      }
  }
}

ReplayOptions replay_options(const ResolvedScenario& sc) {
  const auto& node = sc.machine.node;
  ReplayOptions ro;
  ro.steps = sc.workload.steps();
  ro.n = sc.workload.n;
  ro.nb = sc.workload.nb;
  ro.copy_overlap = node.copy_overlap;
  ro.copy_engines = node.copy_engines;
  ro.kernel_jitter_cv = sc.machine.variability.kernel_jitter_cv();
  // The rank's share of its socket's memory bandwidth (ranks spread evenly over sockets).
  const int ranks_per_socket = std::max(1, sc.workload.ranks_per_node / std::max(1, node.sockets));
  ro.panel_threading = {sc.workload.panel_threads, node.panel_serial_fraction,
                        node.memory_bandwidth_bytes_per_s / ranks_per_socket};
  // HPL: the rest of the CPU side is single-threaded (REFERENCE: Aurora's HPL
  // runs single-threaded oneMKL BLAS there); HPL-MxP's panel solves and
  // refinement run on the rank's threads (AMX; PPN 2 gives each rank a socket).
  if (sc.workload.benchmark == Benchmark::HplMxp) {
    ro.other_threading = ro.solve_threading = ro.panel_threading;
    // [U] The panel solves are level-3 BLAS over NB x (thousands of columns):
    // they split over threads by column blocks with no serial part worth
    // modelling, unlike the panel factorization's pivot-by-pivot leaves.
    ro.other_threading.serial_fraction = 0.0;
  }
  ro.seed = sc.options.seed;
  ro.device_message_overhead_s = sc.machine.placement.device_overhead_s();
  ro.device_message_rate_bytes_per_s = sc.machine.placement.device_rate_cap_bytes_per_s();
  return ro;
}

RunResult run_reference(const ResolvedScenario& sc, const SimulateOptions& options) {
  auto engine = create_engine();
  allow_flow_rate_caps(replay_options(sc));

  const auto topology = make_topology(sc.machine);
  const models::KernelModels kernels(sc.machine.kernels);
  const auto& node = sc.machine.node;
  const models::Variability variability(sc.machine.variability, topology->node_count(),
                                        std::max(1, node.gpus_per_node()), sc.options.seed, sc.base_dir);
  Platform platform(make_platform_spec(sc, *topology, variability));
  std::unique_ptr<models::ProtocolModel> protocol;
  if (sc.machine.protocol.ByteSizeLong() > 0) {
    protocol = std::make_unique<models::ProtocolModel>(sc.machine.protocol);
    install_protocol(*protocol);
  }

  auto source = make_schedule_source(sc);
  check_kernel_coverage(sc, *source, kernels);
  ReplayOptions ro = replay_options(sc);
  ro.progress = options.progress;
  Replay replay(platform, kernels, protocol.get(), source->step_function(), ro);
  replay.start();
  engine->run();

  RunResult r = base_result(sc, "reference");
  r.step_records = replay.records();
  r.refinement_iterations = source->refinement_iterations();
  for (auto& rec : r.step_records)
    rec.how = "simulated";
  r.activities = replay.stats().activities();
  if (replay.finished_ranks() != replay.active_ranks()) {
    r.completed = false;
    r.failure = "deadlock: " + std::to_string(replay.active_ranks() - replay.finished_ranks()) +
                " ranks did not finish their schedule";
  }
  finalize_result(r);
  return r;
}

RunResult simulate(const ResolvedScenario& sc, const SimulateOptions& options) {
  switch (effective_mode(sc)) {
  case Mode::Analytic: {
    RunResult r = base_result(sc, "analytic");
    r.step_records = analytic_steps(sc);
    finalize_result(r);
    return r;
  }
  case Mode::Fast: {
    RunResult r = base_result(sc, "fast");
    run_fast(sc, options, r);
    finalize_result(r);
    return r;
  }
  case Mode::Reference:
  case Mode::Auto:
    break;
  }
  return run_reference(sc, options);
}

} // namespace hplsim::sim
