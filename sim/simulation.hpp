#pragma once
// One simulation of a resolved scenario, in the requested mode. The entry
// point the CLI and the integration tests use.
#include <functional>
#include <memory>

#include "models/kernel_model.hpp"
#include "models/protocol_model.hpp"
#include "models/variability.hpp"
#include "sim/platform.hpp"
#include "sim/replay.hpp"
#include "sim/run_result.hpp"
#include "sim/scenario_defaults.hpp"
#include "topologies/topology.hpp"

namespace hplsim::sim {

struct SimulateOptions {
  /// Called with the fraction done, from inside the simulation (progress bar).
  std::function<void(double)> progress;
};

/// Builds the machine graph of a scenario (throws std::invalid_argument on
/// inconsistent parameters, naming the field).
std::unique_ptr<topo::Topology> make_topology(const MachineConfig& machine);

/// The mode AUTO resolves to for this scenario.
Mode effective_mode(const ResolvedScenario& scenario);

/// Runs the scenario. One SimGrid engine per process: call at most once per
/// process for the reference and fast modes (the analytic mode needs no engine).
RunResult simulate(const ResolvedScenario& scenario, const SimulateOptions& options = {});

/// Fills time, rate and flops-derived fields of a result from its step records.
void finalize_result(RunResult& result);

/// Activities a reference-mode replay of the scenario would simulate (estimate).
double estimated_reference_activities(const ResolvedScenario& scenario);

/// Latency and bottleneck bandwidth of the idle path between NIC0 of two
/// nodes (what a point-to-point benchmark between them sees before protocol costs).
struct PathFigures {
  double latency_s = 0.0;
  double bandwidth_bytes_per_s = 0.0;
  int switch_hops = 0;
};
PathFigures nominal_path(const ResolvedScenario& scenario, int node_a, int node_b);

/// Creates the (one per process) SimGrid engine with hplsim's configuration.
std::unique_ptr<simgrid::s4u::Engine> create_engine();
/// Lets per-flow rate caps (GPU-aware MPI's device path) bind when the
/// replay has one; call right after create_engine().
void allow_flow_rate_caps(const ReplayOptions& options);

/// The platform description of a scenario (all nodes mapped 1:1 to topology nodes).
PlatformSpec make_platform_spec(const ResolvedScenario& scenario, const topo::Topology& topology,
                                const models::Variability& variability);

/// Installs the protocol model's latency/bandwidth corrections in SimGrid's network model.
void install_protocol(const models::ProtocolModel& protocol);

class ScheduleSource;
/// Throws std::invalid_argument (naming the scenario and the calibration) when
/// a kernel the workload calls has no calibration record.
void check_kernel_coverage(const ResolvedScenario& scenario, const ScheduleSource& source,
                           const models::KernelModels& kernels);

/// The replay options a scenario implies (steps, copy engines, jitter, panel threads, seed).
ReplayOptions replay_options(const ResolvedScenario& scenario);

/// Reference mode: every rank, every message, every step.
RunResult run_reference(const ResolvedScenario& scenario, const SimulateOptions& options);

} // namespace hplsim::sim
