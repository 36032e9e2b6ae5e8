#pragma once
// One trial of a Monte Carlo study (hplsim run --trials; docs/faults.md,
// "Trials"): what its fault draws did to the run, as a whole and event by
// event. A trial simulated in a process of its own (or on another MPI rank)
// sends it back as bytes: encode / decode_trial_row.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "sim/result/run_result.hpp"

namespace hplsim::sim {

struct TrialRow {
  enum class Cause : int { None = 0, NodeFailure = 1, Transport = 2, Other = 3 };
  std::int64_t trial = 0; ///< the fault draws' run number: RandomStreams(seed, trial)
  bool completed = false;
  double time_s = 0.0;           ///< the run's time (an aborted run: its abort time)
  double rmax_flops_per_s = 0.0; ///< 0 when it did not complete
  Cause ended_by = Cause::None;
  int ending_event = -1;
  int reached = 0, flaps_reached = 0, node_failures_reached = 0;
  int messages_failed = 0, retries = 0;
  double retry_wait_s = 0.0;
  double flap_delay_s = std::numeric_limits<double>::quiet_NaN(); ///< NaN: not known (reference mode)
  double lost_work_s = 0.0;
  double restart_setup_s = 0.0;
  /// The events the run reached, in the timeline's order (trial-faults.csv):
  /// the rest were drawn past the run's end.
  std::vector<RunResult::FaultOutcome> events;
};

std::string encode(const TrialRow& row);
/// Throws std::runtime_error when `bytes` is not one encoded row.
TrialRow decode_trial_row(const std::string& bytes);

/// The row of trial `trial` from its finalized result (record_faults done).
inline TrialRow trial_row(const RunResult& r, std::int64_t trial) {
  TrialRow t;
  t.trial = trial;
  t.completed = r.completed;
  t.time_s = r.time_s;
  t.rmax_flops_per_s = r.completed ? r.rmax_flops_per_s : 0.0;
  t.lost_work_s = r.lost_work_s;
  t.restart_setup_s = r.restart_setup_s;
  bool delays = false;
  double delay_s = 0.0;
  for (const auto& f : r.faults) {
    if (!f.reached) continue; // drawn past the run's end: it cost nothing
    t.events.push_back(f);
    t.reached += f.reached;
    if (f.kind == "link_flap") t.flaps_reached += f.reached;
    if (f.kind == "node_failure") t.node_failures_reached += f.reached;
    t.messages_failed += f.messages_failed;
    t.retries += f.retries;
    t.retry_wait_s += f.retry_wait_s;
    if (f.delay_s) {
      delays = true;
      delay_s += *f.delay_s;
    }
    if (f.ended_run) {
      t.ending_event = f.id;
      t.ended_by = f.kind == "node_failure" ? TrialRow::Cause::NodeFailure : TrialRow::Cause::Transport;
    }
  }
  if (!r.completed && t.ended_by == TrialRow::Cause::None) t.ended_by = TrialRow::Cause::Other;
  if (delays || t.flaps_reached == 0) t.flap_delay_s = delay_s;
  return t;
}

} // namespace hplsim::sim
