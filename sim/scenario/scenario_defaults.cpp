#include <algorithm>
// resolve(): a validated Scenario message to plain C++ values. The defaults are
// the member initializers of sim/scenario/scenario_defaults.hpp; this file only copies
// what the scenario sets over them, so no default is written twice.
#include "sim/scenario/scenario_defaults.hpp"

#include "sim/scenario/prescreen_rule.hpp"
#include "traces/hpl_code.hpp"

namespace hplsim::sim {
namespace {

/// Copies `value` into `out` when the field is set; leaves the default otherwise.
template <class T, class V> void set_if(bool has, const V& value, T& out) {
  if (has) out = static_cast<T>(value);
}

DragonflyConfig resolve_dragonfly(const Dragonfly& d) {
  DragonflyConfig out;
  set_if(d.has_groups(), d.groups(), out.groups);
  set_if(d.has_switches_per_group(), d.switches_per_group(), out.switches_per_group);
  set_if(d.has_endpoint_ports_per_switch(), d.endpoint_ports_per_switch(), out.endpoint_ports_per_switch);
  set_if(d.has_global_links_per_group_pair(), d.global_links_per_group_pair(),
         out.global_links_per_group_pair);
  set_if(d.has_switches_per_node(), d.switches_per_node(), out.switches_per_node);
  set_if(d.has_local_link_bandwidth_bytes_per_s(), d.local_link_bandwidth_bytes_per_s(),
         out.local_link_bandwidth_bytes_per_s);
  set_if(d.has_global_link_bandwidth_bytes_per_s(), d.global_link_bandwidth_bytes_per_s(),
         out.global_link_bandwidth_bytes_per_s);
  set_if(d.has_link_latency_s(), d.link_latency_s(), out.link_latency_s);
  set_if(d.has_switch_latency_s(), d.switch_latency_s(), out.switch_latency_s);
  return out;
}

FatTreeConfig resolve_fat_tree(const FatTree& f) {
  FatTreeConfig out;
  set_if(f.has_leaf_switches(), f.leaf_switches(), out.leaf_switches);
  set_if(f.has_spine_switches(), f.spine_switches(), out.spine_switches);
  set_if(f.has_endpoint_ports_per_leaf(), f.endpoint_ports_per_leaf(), out.endpoint_ports_per_leaf);
  set_if(f.has_links_per_leaf_spine(), f.links_per_leaf_spine(), out.links_per_leaf_spine);
  set_if(f.has_link_bandwidth_bytes_per_s(), f.link_bandwidth_bytes_per_s(), out.link_bandwidth_bytes_per_s);
  set_if(f.has_link_latency_s(), f.link_latency_s(), out.link_latency_s);
  set_if(f.has_switch_latency_s(), f.switch_latency_s(), out.switch_latency_s);
  return out;
}

DragonflyPlusConfig resolve_dragonfly_plus(const DragonflyPlus& d) {
  DragonflyPlusConfig out;
  set_if(d.has_groups(), d.groups(), out.groups);
  set_if(d.has_leaves_per_group(), d.leaves_per_group(), out.leaves_per_group);
  set_if(d.has_spines_per_group(), d.spines_per_group(), out.spines_per_group);
  set_if(d.has_endpoint_ports_per_leaf(), d.endpoint_ports_per_leaf(), out.endpoint_ports_per_leaf);
  set_if(d.has_links_per_leaf_spine(), d.links_per_leaf_spine(), out.links_per_leaf_spine);
  set_if(d.has_global_links_per_group_pair(), d.global_links_per_group_pair(),
         out.global_links_per_group_pair);
  set_if(d.has_global_ports_per_spine(), d.global_ports_per_spine(), out.global_ports_per_spine);
  set_if(d.has_leaf_spine_link_bandwidth_bytes_per_s(), d.leaf_spine_link_bandwidth_bytes_per_s(),
         out.leaf_spine_link_bandwidth_bytes_per_s);
  set_if(d.has_global_link_bandwidth_bytes_per_s(), d.global_link_bandwidth_bytes_per_s(),
         out.global_link_bandwidth_bytes_per_s);
  set_if(d.has_link_latency_s(), d.link_latency_s(), out.link_latency_s);
  set_if(d.has_switch_latency_s(), d.switch_latency_s(), out.switch_latency_s);
  return out;
}

NodeConfig resolve_node(const Node& n) {
  NodeConfig out;
  set_if(n.has_sockets(), n.sockets(), out.sockets);
  set_if(n.has_cores_per_socket(), n.cores_per_socket(), out.cores_per_socket);
  set_if(n.has_gpus_per_socket(), n.gpus_per_socket(), out.gpus_per_socket);
  set_if(n.has_nics_per_socket(), n.nics_per_socket(), out.nics_per_socket);
  set_if(n.has_nic_bandwidth_bytes_per_s(), n.nic_bandwidth_bytes_per_s(), out.nic_bandwidth_bytes_per_s);
  set_if(n.has_nic_latency_s(), n.nic_latency_s(), out.nic_latency_s);
  set_if(n.has_panel_serial_fraction(), n.panel_serial_fraction(), out.panel_serial_fraction);
  set_if(n.has_memory_bandwidth_bytes_per_s(), n.memory_bandwidth_bytes_per_s(),
         out.memory_bandwidth_bytes_per_s);
  set_if(n.has_pcie_bandwidth_bytes_per_s(), n.pcie_bandwidth_bytes_per_s(), out.pcie_bandwidth_bytes_per_s);
  set_if(n.has_pcie_latency_s(), n.pcie_latency_s(), out.pcie_latency_s);
  set_if(n.has_upi_bandwidth_bytes_per_s(), n.upi_bandwidth_bytes_per_s(), out.upi_bandwidth_bytes_per_s);
  set_if(n.has_upi_latency_s(), n.upi_latency_s(), out.upi_latency_s);
  set_if(n.has_shm_bandwidth_bytes_per_s(), n.shm_bandwidth_bytes_per_s(), out.shm_bandwidth_bytes_per_s);
  set_if(n.has_shm_latency_s(), n.shm_latency_s(), out.shm_latency_s);
  set_if(n.has_shm_rank_bandwidth_bytes_per_s(), n.shm_rank_bandwidth_bytes_per_s(),
         out.shm_rank_bandwidth_bytes_per_s);
  set_if(n.has_copy_engines(), n.copy_engines(), out.copy_engines);
  set_if(n.has_copy_overlap(), n.copy_overlap(), out.copy_overlap);
  if (n.has_gpu_memory_bytes()) out.gpu_memory_bytes = n.gpu_memory_bytes();
  if (n.has_host_memory_bytes()) out.host_memory_bytes = n.host_memory_bytes();
  set_if(n.has_amx(), n.amx(), out.amx);
  out.nics_on_gpus = n.nic_attachment() == Node::GPU;
  set_if(n.has_gpu_link_bandwidth_bytes_per_s(), n.gpu_link_bandwidth_bytes_per_s(),
         out.gpu_link_bandwidth_bytes_per_s);
  set_if(n.has_gpu_link_latency_s(), n.gpu_link_latency_s(), out.gpu_link_latency_s);
  set_if(n.has_unified_memory(), n.unified_memory(), out.unified_memory);
  set_if(n.has_gpus_per_package(), n.gpus_per_package(), out.gpus_per_package);
  set_if(n.has_package_link_bandwidth_bytes_per_s(), n.package_link_bandwidth_bytes_per_s(),
         out.package_link_bandwidth_bytes_per_s);
  out.nic_gpus.assign(n.nic_gpus().begin(), n.nic_gpus().end());
  return out;
}

TopologyConfig resolve_topology(const Topology& t, const NodeConfig& node) {
  TopologyConfig out;
  long long ports = 0;
  if (t.has_fat_tree()) {
    out.kind = TopologyKind::FatTree;
    out.fat_tree = resolve_fat_tree(t.fat_tree());
    ports = static_cast<long long>(out.fat_tree.leaf_switches) * out.fat_tree.endpoint_ports_per_leaf;
  } else if (t.has_dragonfly_plus()) {
    out.kind = TopologyKind::DragonflyPlus;
    out.dragonfly_plus = resolve_dragonfly_plus(t.dragonfly_plus());
    const DragonflyPlusConfig& d = out.dragonfly_plus;
    // Whole nodes per leaf (a node's NICs share one leaf), counted as ports.
    const int nics = node.nics_per_node();
    const long long per_leaf = nics > 0 ? d.endpoint_ports_per_leaf / nics * nics : 0;
    ports = static_cast<long long>(d.groups) * d.leaves_per_group * per_leaf;
  } else {
    out.kind = TopologyKind::Dragonfly;
    out.dragonfly = resolve_dragonfly(t.dragonfly());
    const DragonflyConfig& d = out.dragonfly;
    ports = static_cast<long long>(d.groups) * d.switches_per_group * d.endpoint_ports_per_switch;
  }
  const int nics = node.nics_per_node();
  out.port_capacity_nodes = nics > 0 ? static_cast<int>(ports / nics) : 0;
  out.nodes = t.has_nodes() ? t.nodes() : out.port_capacity_nodes;
  if (t.has_routing()) {
    switch (t.routing()) {
    case Topology::MINIMAL:
      out.routing = topo::Routing::Minimal;
      break;
    case Topology::VALIANT:
      out.routing = topo::Routing::Valiant;
      break;
    case Topology::ADAPTIVE:
      out.routing = topo::Routing::Adaptive;
      break;
    }
  }
  return out;
}

PlacementConfig resolve_placement(const Placement& p) {
  PlacementConfig out;
  if (p.has_nic_mapping()) out.nic_mapping = static_cast<NicMapping>(p.nic_mapping());
  if (p.has_affinity()) out.affinity = static_cast<Affinity>(p.affinity());
  set_if(p.has_gpu_aware_mpi(), p.gpu_aware_mpi(), out.gpu_aware_mpi);
  set_if(p.has_gpu_aware_overhead_s(), p.gpu_aware_overhead_s(), out.gpu_aware_overhead_s);
  set_if(p.has_gpu_aware_bandwidth_bytes_per_s(), p.gpu_aware_bandwidth_bytes_per_s(),
         out.gpu_aware_bandwidth_bytes_per_s);
  return out;
}

// The C++ enums list their values in the .proto's order and numbering, so
// resolve() converts with static_cast; these make any drift a compile error.
template <class E, class P> constexpr bool same(E e, P p) {
  return static_cast<int>(e) == static_cast<int>(p);
}
static_assert(same(NicMapping::PhaseSpecific, Placement::PHASE_SPECIFIC) &&
              same(NicMapping::Hashed, Placement::HASHED) &&
              same(NicMapping::RankLocal, Placement::RANK_LOCAL) &&
              same(NicMapping::GpuLocal, Placement::GPU_LOCAL) && Placement::NicMapping_ARRAYSIZE == 4);
static_assert(same(Affinity::Aligned, Placement::ALIGNED) &&
              same(Affinity::Misplaced, Placement::MISPLACED) && Placement::Affinity_ARRAYSIZE == 2);
static_assert(same(Benchmark::Hpl, Workload::HPL) && same(Benchmark::HplMxp, Workload::HPL_MXP) &&
              Workload::Benchmark_ARRAYSIZE == 2);
static_assert(same(PfactAlgo::Right, Hpl::RIGHT) && same(PfactAlgo::Left, Hpl::LEFT) &&
              same(PfactAlgo::Crout, Hpl::CROUT) && Hpl::PfactAlgo_ARRAYSIZE == 3);
static_assert(same(BcastAlgo::OneRing, Hpl::ONE_RING) && same(BcastAlgo::OneRingM, Hpl::ONE_RING_M) &&
              same(BcastAlgo::TwoRing, Hpl::TWO_RING) && same(BcastAlgo::TwoRingM, Hpl::TWO_RING_M) &&
              same(BcastAlgo::Blong, Hpl::BLONG) && same(BcastAlgo::BlongM, Hpl::BLONG_M) &&
              Hpl::BcastAlgo_ARRAYSIZE == 6);
static_assert(same(SwapAlgo::BinaryExchange, Hpl::BINARY_EXCHANGE) &&
              same(SwapAlgo::SpreadRoll, Hpl::SPREAD_ROLL) && same(SwapAlgo::Mix, Hpl::MIX) &&
              Hpl::SwapAlgo_ARRAYSIZE == 3);
static_assert(same(TimerRule::Netlib, Hpl::NETLIB) && same(TimerRule::RocHpl, Hpl::ROCHPL) &&
              same(TimerRule::HplGpu, Hpl::HPL_GPU) && same(TimerRule::AsyncBcast, Hpl::ASYNC_BCAST) &&
              Hpl::TimerRule_ARRAYSIZE == 4);
static_assert(same(PanelExchange::P2P, Hpl::P2P) && same(PanelExchange::Hybrid, Hpl::HYBRID) &&
              same(PanelExchange::Collective, Hpl::COLLECTIVE) && Hpl::PanelExchange_ARRAYSIZE == 3);
static_assert(same(HplCode::Netlib23, Hpl::NETLIB_2_3) && same(HplCode::IntelGpu, Hpl::INTEL_GPU) &&
              same(HplCode::Rochpl6, Hpl::ROCHPL_6) && same(HplCode::Rochpl7, Hpl::ROCHPL_7) &&
              same(HplCode::Nvidia, Hpl::NVIDIA) && Hpl::Code_ARRAYSIZE == 5);
static_assert(same(Refinement::Classical, Mxp::CLASSICAL) && same(Refinement::Gmres, Mxp::GMRES) &&
              Mxp::Refinement_ARRAYSIZE == 2);
static_assert(same(FoldBand::ColumnBand, FastOptions::COLUMN_BAND) &&
              same(FoldBand::RowBand, FastOptions::ROW_BAND) &&
              same(FoldBand::CrossBand, FastOptions::CROSS_BAND) && FastOptions::Band_ARRAYSIZE == 3);
static_assert(same(CurveRule::Linear, FastOptions::LINEAR) &&
              same(CurveRule::MonotoneCubic, FastOptions::MONOTONE_CUBIC) &&
              same(CurveRule::Parabolic, FastOptions::PARABOLIC) &&
              FastOptions::Interpolation_ARRAYSIZE == 4);
static_assert(same(Fold::Auto, FastOptions::AUTO) && same(Fold::On, FastOptions::ON) &&
              same(Fold::Off, FastOptions::OFF) && FastOptions::Fold_ARRAYSIZE == 3);
static_assert(same(Mode::Auto, Options::AUTO) && same(Mode::Reference, Options::REFERENCE) &&
              same(Mode::Analytic, Options::ANALYTIC) && same(Mode::Fast, Options::FAST) &&
              Options::Mode_ARRAYSIZE == 4);

WorkloadConfig resolve_workload(const Workload& w) {
  WorkloadConfig out;
  if (w.has_benchmark()) out.benchmark = static_cast<Benchmark>(w.benchmark());
  set_if(w.has_nodes(), w.nodes(), out.nodes);
  set_if(w.has_ranks_per_node(), w.ranks_per_node(), out.ranks_per_node);
  set_if(w.has_n(), w.n(), out.n);
  set_if(w.has_nb(), w.nb(), out.nb);
  set_if(w.has_p(), w.p(), out.p);
  set_if(w.has_q(), w.q(), out.q);
  set_if(w.has_depth(), w.depth(), out.depth);
  set_if(w.has_column_major(), w.column_major(), out.column_major);
  set_if(w.has_panel_threads(), w.panel_threads(), out.panel_threads);
  const Hpl& h = w.hpl();
  if (h.has_pfact()) out.hpl.pfact = static_cast<PfactAlgo>(h.pfact());
  set_if(h.has_nbmin(), h.nbmin(), out.hpl.nbmin);
  set_if(h.has_ndiv(), h.ndiv(), out.hpl.ndiv);
  if (h.has_bcast()) out.hpl.bcast = static_cast<BcastAlgo>(h.bcast());
  if (h.has_swap()) out.hpl.swap = static_cast<SwapAlgo>(h.swap());
  set_if(h.has_swap_threshold(), h.swap_threshold(), out.hpl.swap_threshold_columns);
  if (h.has_panel_exchange()) out.hpl.panel_exchange = static_cast<PanelExchange>(h.panel_exchange());
  if (h.has_code()) out.hpl.code = static_cast<HplCode>(h.code());
  const auto line = [&out](bool set, const char* name) {
    if (set) out.hpl.set_lines.emplace_back(name);
  };
  line(h.has_pfact(), "pfact");
  line(h.has_nbmin(), "nbmin");
  line(h.has_ndiv(), "ndiv");
  line(h.has_bcast(), "bcast");
  line(h.has_swap(), "swap");
  line(h.has_swap_threshold(), "swap_threshold");
  line(w.has_depth(), "depth");
  if (h.has_timer_rule()) out.hpl.timer_rule = static_cast<TimerRule>(h.timer_rule());
  const Mxp& m = w.mxp();
  set_if(m.has_gpus_per_rank(), m.gpus_per_rank(), out.mxp.gpus_per_rank);
  if (m.has_refinement()) out.mxp.refinement = static_cast<Refinement>(m.refinement());
  if (m.has_refinement_iterations()) out.mxp.refinement_iterations = m.refinement_iterations();
  return out;
}

} // namespace

ResolvedScenario resolve(const LoadedScenario& loaded) {
  const Scenario& s = loaded.scenario;
  ResolvedScenario out;
  out.path = loaded.path;
  out.base_dir = loaded.base_dir;
  out.name = s.name();
  out.description = s.description();
  out.faults = s.faults();
  if (s.has_reference()) out.reference = s.reference();
  out.reference_run = loaded.reference_run;
  out.this_run = loaded.this_run;
  out.left_out_fitted_path = loaded.left_out_fitted_path;
  out.rederive_note = loaded.rederive_note;
  const Machine& m = s.machine();
  out.machine.name = m.name();
  out.machine.node = resolve_node(m.node());
  out.machine.topology = resolve_topology(m.topology(), out.machine.node);
  out.machine.kernels = loaded.kernels;
  out.machine.kernels_path = loaded.kernels_path;
  out.machine.protocol = loaded.protocol;
  out.machine.protocol_path = loaded.protocol_path;
  out.machine.variability = loaded.variability;
  out.machine.variability_path = loaded.variability_path;
  out.machine.mpi = loaded.mpi;
  out.machine.mpi_path = loaded.mpi_path;
  out.machine.placement = resolve_placement(m.placement());
  out.workload = resolve_workload(s.workload());
  if (out.workload.panel_threads == 0 && out.workload.ranks_per_node > 0)
    // The cores the job may use (those reserved for the OS left out), shared by the node's ranks.
    out.workload.panel_threads = std::max(
        1, (out.machine.node.cores_per_node() - out.machine.variability.noise().os_cores_per_node()) /
               out.workload.ranks_per_node);
  if (s.options().has_mode()) out.options.mode = static_cast<Mode>(s.options().mode());
  set_if(s.options().has_seed(), s.options().seed(), out.options.seed);
  set_if(s.options().has_allow_memory_oversubscription(), s.options().allow_memory_oversubscription(),
         out.options.allow_memory_oversubscription);
  set_if(s.options().has_private_resources(), s.options().private_resources(), out.options.private_resources);
  const FastOptions& f = s.options().fast();
  if (f.has_fold()) out.options.fast.fold = static_cast<Fold>(f.fold());
  set_if(f.has_fold_nodes(), f.fold_nodes(), out.options.fast.fold_nodes);
  set_if(f.has_warmup_steps(), f.warmup_steps(), out.options.fast.warmup_steps);
  set_if(f.has_measured_steps(), f.measured_steps(), out.options.fast.measured_steps);
  set_if(f.has_initial_windows(), f.initial_windows(), out.options.fast.initial_windows);
  set_if(f.has_tolerance(), f.tolerance(), out.options.fast.tolerance);
  set_if(f.has_max_windows(), f.max_windows(), out.options.fast.max_windows);
  if (f.has_band()) out.options.fast.band = static_cast<FoldBand>(f.band());
  set_if(f.has_pivot_group(), f.pivot_group(), out.options.fast.pivot_group);
  set_if(f.has_ring_aggregate(), f.ring_aggregate(), out.options.fast.ring_aggregate);
  if (f.has_pivot_collective())
    out.options.fast.pivot_collective = f.pivot_collective() ? Fold::On : Fold::Off;
  if (f.has_roll_collective()) out.options.fast.roll_collective = f.roll_collective() ? Fold::On : Fold::Off;
  if (f.has_panel_collective())
    out.options.fast.panel_collective = f.panel_collective() ? Fold::On : Fold::Off;
  set_if(f.has_swap_roll_group(), f.swap_roll_group(), out.options.fast.swap_roll_group);
  set_if(f.has_fold_above_ranks(), f.fold_above_ranks(), out.options.fast.fold_above_ranks);
  set_if(f.has_workers(), f.workers(), out.options.fast.workers);
  if (f.has_refinement_iterations()) out.options.fast.refinement_iterations = f.refinement_iterations();
  set_if(f.has_target_sampling_error(), f.target_sampling_error(), out.options.fast.target_sampling_error);
  set_if(f.has_min_saving_s(), f.min_saving_s(), out.options.fast.min_saving_s);
  if (f.has_interpolation() && f.interpolation() != FastOptions::INTERPOLATION_UNSET)
    out.options.fast.interpolation = static_cast<CurveRule>(f.interpolation());
  out.prescreen_note = apply_prescreen(out);
  return out;
}

const char* to_string(Mode mode) {
  switch (mode) {
  case Mode::Auto:
    return "auto";
  case Mode::Reference:
    return "reference";
  case Mode::Analytic:
    return "analytic";
  case Mode::Fast:
    return "fast";
  }
  return "?";
}

const char* to_string(Benchmark benchmark) {
  return benchmark == Benchmark::Hpl ? "hpl" : "hpl-mxp";
}

// HPL.dat / HPL output spellings.
const char* to_string(PfactAlgo algo) {
  switch (algo) {
  case PfactAlgo::Right:
    return "right";
  case PfactAlgo::Left:
    return "left";
  case PfactAlgo::Crout:
    return "crout";
  }
  return "?";
}

const char* to_string(BcastAlgo algo) {
  switch (algo) {
  case BcastAlgo::OneRing:
    return "1ring";
  case BcastAlgo::OneRingM:
    return "1ringM";
  case BcastAlgo::TwoRing:
    return "2ring";
  case BcastAlgo::TwoRingM:
    return "2ringM";
  case BcastAlgo::Blong:
    return "blong";
  case BcastAlgo::BlongM:
    return "blongM";
  }
  return "?";
}

const char* to_string(SwapAlgo algo) {
  switch (algo) {
  case SwapAlgo::BinaryExchange:
    return "binary-exchange";
  case SwapAlgo::SpreadRoll:
    return "spread-roll";
  case SwapAlgo::Mix:
    return "mix";
  }
  return "?";
}

const char* to_string(TimerRule rule) {
  switch (rule) {
  case TimerRule::Netlib:
    return "netlib";
  case TimerRule::RocHpl:
    return "rochpl";
  case TimerRule::HplGpu:
    return "hpl_gpu";
  case TimerRule::AsyncBcast:
    return "async_bcast";
  }
  return "?";
}

TimerRule resolved_timer_rule(const ResolvedScenario& sc) {
  if (sc.workload.hpl.timer_rule) return *sc.workload.hpl.timer_rule;
  const std::string_view timer =
      traces::code_facts(static_cast<traces::HplCode>(resolved_code(sc))).default_timer_rule;
  if (timer == "swap") return TimerRule::AsyncBcast;
  if (timer == "lbcast") return TimerRule::RocHpl;
  if (timer == "bcast") return TimerRule::HplGpu;
  return TimerRule::Netlib; // "update": netlib HPL 2.3's HPL_pdupdateTT
}

const char* panel_wait_column(TimerRule rule) {
  return rule == TimerRule::AsyncBcast ? "swap" : "bcast";
}

const char* to_string(Refinement refinement) {
  return refinement == Refinement::Classical ? "classical" : "gmres";
}

const char* to_string(NicMapping mapping) {
  switch (mapping) {
  case NicMapping::PhaseSpecific:
    return "phase-specific";
  case NicMapping::Hashed:
    return "hashed";
  case NicMapping::RankLocal:
    return "rank-local";
  case NicMapping::GpuLocal:
    return "gpu-local";
  }
  return "?";
}

const char* to_string(Affinity affinity) {
  return affinity == Affinity::Aligned ? "aligned" : "misplaced";
}

const char* to_string(TopologyKind kind) {
  switch (kind) {
  case TopologyKind::Dragonfly:
    return "dragonfly";
  case TopologyKind::FatTree:
    return "fat-tree";
  case TopologyKind::DragonflyPlus:
    return "dragonfly-plus";
  }
  return "?";
}

} // namespace hplsim::sim
