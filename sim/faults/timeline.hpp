#pragma once
// The faults of one run, as events in simulated time (docs/faults.md): the
// scenario's listed events and, for its seeded processes, the events drawn for
// (seed, run) from models/failure_model.hpp. Independent of mode and strategy:
// two runs that differ only in those see the same events (common random numbers).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/failure_model.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "topologies/topology.hpp"

namespace hplsim::sim {

struct FlapEvent {
  int id = 0; // position in the timeline's events (faults.csv)
  LinkClass link_class = LINK_CLASS_UNSET;
  std::int64_t index = 0; // within its class
  int link = 0;           // the topology's link id
  double start_s = 0.0, duration_s = 0.0;
  std::string source; // "listed" or "process"
  /// Fast mode's fault windows (sim/fast/fault_windows.hpp): start_s counts
  /// from the end of this step instead of time 0; -1: from time 0. The step
  /// ends when every rank of `after_ranks` is done with it (a NIC cable's
  /// node: the flap lands in that node's step, wherever the other ranks
  /// are), or, with `after_ranks` empty, its last active rank.
  std::int64_t after_step = -1;
  std::vector<int> after_ranks;
};

struct NodeFailureEvent {
  int id = 0;
  int node = 0; // run node (workload numbering)
  double time_s = 0.0;
  std::string cause; // "listed", or what the process drew ("exponential", "gpu", "chassis 3")
};

struct DegradationEvent {
  int id = 0;
  int node = 0;
  int gpu = -1; // -1: the node's CPUs and every GPU
  double rate_factor = 1.0;
  double from_s = 0.0;
};

struct FaultTimeline {
  std::vector<FlapEvent> flaps;                // by start time
  std::vector<NodeFailureEvent> node_failures; // by time
  std::vector<DegradationEvent> degradations;
  std::vector<double> retry_waits_s;  // the retry handler's waits, in order
  double retry_timeout_s = 0.0;       // the packet timeout before each retry and before the cancel
  double collective_recovery_s = 0.0; // faults.retry.collective_recovery_s (what-if, default 0)
  double restart_setup_s = 0.0;
  /// The seeded processes' events are drawn over [0, horizon_s); 0 without a
  /// seeded process (listed events only).
  double horizon_s = 0.0;
  bool empty() const { return flaps.empty() && node_failures.empty() && degradations.empty(); }
  /// The failure that ends the run (the earliest), if any before `horizon_s`.
  std::optional<NodeFailureEvent> first_failure_before(double horizon_s) const;
};

/// The retry handler's default waits: HPE's Cassini retry handler (libcxi,
/// retry_handler/main.c: max_spt_retries = 4, retry_interval_values_us =
/// {0, 4000000, 8000000, 12000000}).
inline const std::vector<double> kCassiniRetryWaits_s = {0.0, 4.0, 8.0, 12.0};
/// Cassini-1's packet (SPT) timeout: the driver's C1_DEFAULT_SPT_TIMEOUT_EPOCH
/// 30 (shs-cxi-driver, include/uapi/ethernet/cxi-abi.h) read as libcxi's
/// get_epoch_timeout does (retry_handler/main.c): 2^30 cycles of the NIC's
/// 1 GHz clock.
inline constexpr double kCassiniSptTimeout_s = 1073741824e-9;

/// The failure process's parameters on `nodes` run nodes (its domains cut
/// into consecutive nodes), for the closed forms of models/failure_model.hpp.
models::FailureParams failure_params(const FailureProcess& process, int nodes);

/// The timeline of `scenario` for run `run` (0: the scenario's own; trials
/// 1, 2, ...), events drawn over [0, horizon_s). `topology` resolves link
/// indices to the topology's link ids.
FaultTimeline build_timeline(const ResolvedScenario& scenario, const topo::Topology& topology,
                             std::uint64_t run, double horizon_s);

} // namespace hplsim::sim
