#pragma once
// The one machine build: everything a simulation of a scenario needs before
// its first activity, built in one place for reference mode, fast mode and the
// OSU benchmarks. Members are declared in build order and destroyed in reverse
// (the platform before the engine that owns its zone).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <simgrid/s4u.hpp>

#include "models/kernel_model.hpp"
#include "models/protocol_model.hpp"
#include "models/variability.hpp"
#include "sim/engine/platform.hpp"
#include "sim/faults/timeline.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "topologies/topology.hpp"

namespace hplsim::sim {

struct BuiltMachine {
  std::unique_ptr<simgrid::s4u::Engine> engine;
  std::unique_ptr<topo::Topology> topology;
  std::unique_ptr<models::KernelModels> kernels;
  std::unique_ptr<models::Variability> variability;
  std::unique_ptr<Platform> platform;
  std::unique_ptr<models::ProtocolModel> protocol; // null when the scenario gives no protocol
  FaultTimeline faults;                            // the scenario's own run (run 0)
};

/// Fault processes are drawn over this much simulated time: past any run's end
/// (an event after the end is reported as not reached).
inline constexpr double kFaultHorizon_s = 7.0 * 24.0 * 3600.0;

/// Builds the scenario's machine in this process's (new) SimGrid engine: the
/// topology, kernel models, variability (seeded by the scenario), platform and
/// protocol. `adjust` may edit the platform description before it is built
/// (the OSU benchmarks place two ranks on chosen nodes). `run`: the fault
/// draws' run (trial) number (0: the scenario's own); `fault_horizon_s`: the
/// draws' horizon (a longer one keeps a shorter one's events). Call once per process.
BuiltMachine build_machine(const ResolvedScenario& scenario,
                           const std::function<void(PlatformSpec&)>& adjust = {}, std::uint64_t run = 0,
                           double fault_horizon_s = kFaultHorizon_s);

/// Ends a machine's use without freeing it. SimGrid allows one engine per
/// process, so the process ends soon after the machine's run; freeing a
/// full-scale platform's millions of small objects (links, constraints, hosts)
/// took seconds there (docs/benchmarks.md, "The full Aurora HPL run"). The
/// machine stays reachable until the process exits (not a leak to LeakSanitizer).
void keep_until_exit(BuiltMachine&& machine);

/// Runs `body` in an actor of its own on rank 0's CPU host until the
/// simulation ends (fast mode's controller, which forks its windows from inside).
void run_controller(BuiltMachine& machine, const std::string& name, const std::function<void()>& body);

/// The simulated clock.
double simulated_clock_s();

/// The platform description of a scenario (all nodes mapped 1:1 to topology
/// nodes). `variability` must outlive the platform (the rate factors read it).
PlatformSpec make_platform_spec(const ResolvedScenario& scenario, const topo::Topology& topology,
                                const models::Variability& variability);

} // namespace hplsim::sim
