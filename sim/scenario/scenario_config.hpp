#pragma once
// A validated scenario with every documented default filled in, as plain C++
// values with units in their names. Downstream code (platform, replay, reports)
// reads this and never calls a protobuf has_ accessor.
//
// The defaults live once: in the member initializers below. resolve() starts
// from default-constructed structs and overwrites only what the scenario sets;
// sim/scenario/scenario.proto documents the same defaults in its field comments.
// Members initialised to 0 / empty are required fields (no default).
// Enum fields the .proto gives no default for take proto2's implicit default,
// the enum's first value (Affinity::Aligned, Refinement::Classical, Mode::Auto).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/calibration.pb.h"
#include "sim/scenario/curve_rule.hpp"
#include "sim/scenario/loaded_scenario.hpp"
#include "topologies/topology.hpp"

namespace hplsim::sim {

enum class TopologyKind { Dragonfly, FatTree, DragonflyPlus };

struct DragonflyConfig {
  int groups = 0;
  int switches_per_group = 0;
  int endpoint_ports_per_switch = 0;
  int global_links_per_group_pair = 0; // 0 only when groups == 1 and unset
  int switches_per_node = 1;
  double local_link_bandwidth_bytes_per_s = 0.0;
  double global_link_bandwidth_bytes_per_s = 0.0;
  double link_latency_s = 0.0;
  double switch_latency_s = 0.0;
};

struct FatTreeConfig {
  int leaf_switches = 0;
  int spine_switches = 0;
  int endpoint_ports_per_leaf = 0;
  int links_per_leaf_spine = 1;
  double link_bandwidth_bytes_per_s = 0.0;
  double link_latency_s = 0.0;
  double switch_latency_s = 0.0;
};

struct DragonflyPlusConfig {
  int groups = 0;
  int leaves_per_group = 0;
  int spines_per_group = 0;
  int endpoint_ports_per_leaf = 0;
  int links_per_leaf_spine = 1;
  int global_links_per_group_pair = 0; // 0 only when groups == 1 and unset
  int global_ports_per_spine = 0;      // 0 only when groups == 1 and unset
  double leaf_spine_link_bandwidth_bytes_per_s = 0.0;
  double global_link_bandwidth_bytes_per_s = 0.0;
  double link_latency_s = 0.0;
  double switch_latency_s = 0.0;
};

struct TopologyConfig {
  TopologyKind kind = TopologyKind::Dragonfly;
  DragonflyConfig dragonfly;          // meaningful when kind == Dragonfly
  FatTreeConfig fat_tree;             // meaningful when kind == FatTree
  DragonflyPlusConfig dragonfly_plus; // meaningful when kind == DragonflyPlus
  topo::Routing routing = topo::Routing::Minimal;
  int nodes = 0;               // compute nodes present (topology.nodes, or port_capacity_nodes)
  int port_capacity_nodes = 0; // endpoint ports / NICs per node (integer division; DragonFly+: per leaf)
};

struct NodeConfig {
  int sockets = 0;
  int cores_per_socket = 0;
  int gpus_per_socket = 0;
  int nics_per_socket = 0;
  double nic_bandwidth_bytes_per_s = 0.0;
  double nic_latency_s = 0.0;
  double pcie_bandwidth_bytes_per_s = 0.0; // 0 only on CPU-only nodes where it was not given
  double pcie_latency_s = 0.0;
  double upi_bandwidth_bytes_per_s = 0.0; // 0 only on one-socket nodes where it was not given
  double upi_latency_s = 0.0;
  double shm_bandwidth_bytes_per_s = 0.0;
  double shm_latency_s = 0.0;
  double shm_rank_bandwidth_bytes_per_s = 0.0; // 0: no per-rank cap
  int copy_engines = 2;                        // per GPU
  bool copy_overlap = true;
  std::optional<double> gpu_memory_bytes;  // per GPU; unset = not modelled
  std::optional<double> host_memory_bytes; // per node; unset = not modelled
  bool amx = false;
  double panel_serial_fraction = 0.05;
  double memory_bandwidth_bytes_per_s = 0.0;   // per socket; 0 = not given (no multi-thread streaming)
  bool nics_on_gpus = false;                   // nic_attachment = GPU
  double gpu_link_bandwidth_bytes_per_s = 0.0; // 0: no GPU-GPU links
  double gpu_link_latency_s = 0.0;
  int gpus_per_package = 1;
  double package_link_bandwidth_bytes_per_s = 0.0;
  std::vector<int> nic_gpus;   // per NIC of a node (nics_on_gpus); empty: NIC i on GPU i x G / NICs
  bool unified_memory = false; // APU: CPU and GPU share gpu_memory_bytes

  int cores_per_node() const { return sockets * cores_per_socket; }
  int gpus_per_node() const { return sockets * gpus_per_socket; }
  int nics_per_node() const { return sockets * nics_per_socket; }
};

enum class NicMapping { PhaseSpecific, Hashed, RankLocal, GpuLocal };
enum class Affinity { Aligned, Misplaced };

struct PlacementConfig {
  NicMapping nic_mapping = NicMapping::PhaseSpecific;
  Affinity affinity = Affinity::Aligned;
  bool gpu_aware_mpi = false;
  double gpu_aware_overhead_s = 0.0;
  double gpu_aware_bandwidth_bytes_per_s = 0.0; // 0 = no cap

  /// What a message from GPU memory pays in effect: nothing unless GPU-aware MPI is on.
  double device_overhead_s() const { return gpu_aware_mpi ? gpu_aware_overhead_s : 0.0; }
  double device_rate_cap_bytes_per_s() const { return gpu_aware_mpi ? gpu_aware_bandwidth_bytes_per_s : 0.0; }
};

struct MachineConfig {
  std::string name;
  TopologyConfig topology;
  NodeConfig node;
  // The kernel calibration in effect (inline machine.kernels or the contents of
  // machine.kernels_file); empty when the scenario gives none. The model
  // classes (models::KernelModels, ProtocolModel, Variability) take these
  // records as they are and own their coefficients' meaning.
  models::KernelCalibration kernels;
  std::string kernels_path; // the file it came from; empty when inline or none
  // Inline machine.protocol or the contents of machine.protocol_file, and the
  // file it came from (empty when inline or none).
  models::ProtocolParams protocol;
  std::string protocol_path;
  // machine.variability_file's contents with machine.variability's fields over
  // them, and the file (empty when there is none).
  models::VariabilityParams variability;
  std::string variability_path;
  // machine.mpi_file's contents with machine.mpi's fields over them, and the
  // file (empty when there is none); no selections when neither is given.
  mpi::MpiCollectives mpi;
  std::string mpi_path;
  PlacementConfig placement;
};

enum class Benchmark { Hpl, HplMxp };
enum class PfactAlgo { Right, Left, Crout };
enum class BcastAlgo { OneRing, OneRingM, TwoRing, TwoRingM, Blong, BlongM };
enum class SwapAlgo { BinaryExchange, SpreadRoll, Mix };
enum class Refinement { Classical, Gmres };
enum class Mode { Auto, Reference, Analytic, Fast };
enum class PanelExchange { P2P, Hybrid, Collective };
/// The HPL code a run replays (scenario.proto, Hpl.Code; docs/codes/).
enum class HplCode { Netlib23, IntelGpu, Rochpl6, Rochpl7, Nvidia };
/// workload.hpl.timer_rule (traces::HplConfig::TimerRule).
enum class TimerRule { Netlib, RocHpl, HplGpu, AsyncBcast };

// HPL.dat's algorithm lines; used by benchmark HPL. Defaults [U]: PFACT Right,
// NBMIN 4, NDIV 2, BCAST 1ringM, SWAP mix, swapping threshold 64. They are NOT
// the sample HPL.dat shipped with netlib HPL 2.3 (icl-utk-edu/hpl at 9edeab5,
// testing/ptest/HPL.dat, copied as scenarios/hpl-dat/netlib-hpl-2.3-sample.dat: PFACTs 0 1 2, NBMINs 2 4,
// NDIV 2, RFACTs 0 1 2, BCAST 0 = 1ring, DEPTH 0, SWAP 2 = mix, threshold 64), which the comments said until
// 2026-12-01; traces/hpl_config.hpp's defaults are that file's first values. Every shipped scenario that
// leaves these lines unset was measured with the values here, so they are kept, marked unsourced.
struct HplVariants {
  PfactAlgo pfact = PfactAlgo::Right;
  int nbmin = 4;
  int ndiv = 2;
  BcastAlgo bcast = BcastAlgo::OneRingM;
  SwapAlgo swap = SwapAlgo::Mix;
  int swap_threshold_columns = 64;
  /// Point-to-point (netlib, the default: the schedules as before), Aurora's
  /// hybrid, or collectives throughout (docs/faults.md).
  PanelExchange panel_exchange = PanelExchange::P2P;
  /// The code as the scenario names it; unset: resolved_code() picks it from the machine.
  std::optional<HplCode> code;
  /// HPL.dat lines the scenario sets explicitly (pfact, nbmin, ndiv, bcast,
  /// swap, swap_threshold, depth): what a code that ignores them reports.
  std::vector<std::string> set_lines;
  /// Which phase column a wait for a panel is charged to (docs/replay.md, "The timer rule");
  /// unset: the code's own rule, resolved_timer_rule().
  std::optional<TimerRule> timer_rule;
};

struct MxpConfig { // used by benchmark HPL_MXP
  int gpus_per_rank = 1;
  Refinement refinement = Refinement::Classical;
  std::optional<int> refinement_iterations; // unset: from the precision model
};

struct WorkloadConfig {
  Benchmark benchmark = Benchmark::Hpl;
  int nodes = 0;
  int ranks_per_node = 0;
  std::int64_t n = 0;
  std::int64_t nb = 0;
  int p = 0;
  int q = 0;
  int depth = 1;
  bool column_major = false;
  HplVariants hpl;
  MxpConfig mxp;
  int panel_threads = 0; // resolved: cores per node / ranks per node when unset
  // Machine node of each run node (pre-screening, sim/scenario/prescreen_rule.hpp);
  // empty: run node i is machine node i.
  std::vector<int> node_map;

  int ranks() const { return p * q; }
  /// GPUs one rank drives: mxp.gpus_per_rank for HPL-MxP, else 1 (0 on CPU-only nodes is
  /// not encoded here: check NodeConfig::gpus_per_node()).
  int gpus_per_rank() const { return benchmark == Benchmark::HplMxp ? mxp.gpus_per_rank : 1; }
  /// Panel steps: ceil(N / NB).
  std::int64_t steps() const { return (n + nb - 1) / nb; }
};

enum class Fold { Auto, On, Off };
enum class FoldBand { ColumnBand, RowBand, CrossBand };

struct FastConfig {
  Fold fold = Fold::Auto;
  int fold_nodes = 3;
  int warmup_steps = 2;
  int measured_steps = 2;
  int initial_windows = 12;
  double tolerance = 0.004;
  int max_windows = 64;
  FoldBand band = FoldBand::ColumnBand;
  int pivot_group = 1;
  bool ring_aggregate = true;
  // Auto: on in folded windows only (docs/fast-mode.md, "collective pivot
  // exchange": its error was measured there).
  Fold pivot_collective = Fold::Auto;
  // Auto: with pivot_collective on a GPU HPL run (docs/fast-mode.md, "collective panel factorization").
  Fold panel_collective = Fold::Auto;
  // Auto: folded runs where the cost estimate says it saves min_saving_s (sim/fast/fast_cost.cpp;
  // docs/fast-mode.md, "collective swap roll").
  Fold roll_collective = Fold::Auto;
  int swap_roll_group = 1; // step by step (docs/fast-mode.md, "grouped swap roll": tried, optimistic)
  int fold_above_ranks = 4096;
  int workers = 0; // 0: the CPUs the run may use, at most 8
  // Measured against a 1,000-window run (docs/fast-mode.md, "integrating the curve").
  CurveRule interpolation = CurveRule::MonotoneCubic;
  // HPL-MxP's final solve: iterations simulated, the rest extrapolated (0: all;
  // unset: 1 for GMRES, 2 for classical; docs/fast-mode.md, point 13).
  std::optional<int> refinement_iterations;
  double target_sampling_error = 0.0; // 0: none (docs/fast-mode.md, point 1)
  // Auto folding / collective roll where they save at least this much wall time
  // (sim/fast/fast_cost.hpp; docs/fast-mode.md, "What a run costs").
  double min_saving_s = 10.0;
};

struct OptionsConfig {
  Mode mode = Mode::Auto;
  std::uint64_t seed = 1;
  bool allow_memory_oversubscription = false;
  bool private_resources = true; // Options.private_resources
  FastConfig fast;
};

struct ResolvedScenario {
  std::string path;     // scenario file as given
  std::string base_dir; // for relative paths inside it (e.g. variability.node_rates_file)
  std::string name;
  std::string description;
  MachineConfig machine;
  WorkloadConfig workload;
  OptionsConfig options;
  Faults faults;              // as validated (sim/scenario/faults.proto); empty when none
  std::string prescreen_note; // what pre-screening did (sim/scenario/prescreen_rule.hpp); empty without
  std::string
      rederive_note; // --nodes K: what the grid rule re-derived (sim/scenario/grid_rule.hpp); empty without
  std::optional<Reference> reference; // the published figure the run is held against, if any
  // When this run is not the reference's (LoadedScenario::reference_run):
  // the differing fields, the reference's values and this run's.
  std::string reference_run, this_run;
  std::string left_out_fitted_path; // --sourced-only: the fitted variability_file left out
};

/// The HPL code the run replays: workload.hpl.code, or when unset netlib 2.3
/// on a machine without GPUs and rocHPL 6 (the CPU panel) on one with GPUs.
inline HplCode resolved_code(const ResolvedScenario& sc) {
  if (sc.workload.hpl.code) return *sc.workload.hpl.code;
  return sc.machine.node.gpus_per_node() > 0 ? HplCode::Rochpl6 : HplCode::Netlib23;
}

/// Whether the run's updates run on GPUs: the node has some and the code uses
/// them (netlib HPL 2.3 runs on the CPU cores whatever the node holds).
inline bool updates_on_gpus(const ResolvedScenario& sc) {
  return sc.machine.node.gpus_per_node() > 0 &&
         (sc.workload.benchmark != Benchmark::Hpl || resolved_code(sc) != HplCode::Netlib23);
}

} // namespace hplsim::sim
