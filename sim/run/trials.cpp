#include "sim/run/trials.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "sim/engine/machine.hpp"
#include "sim/fast/fast_run.hpp"
#include "sim/faults/timeline.hpp"
#include "sim/run/analytic.hpp"
#include "sim/run/fault_horizon.hpp"
#include "sim/run/fault_outcomes.hpp"
#include "sim/run/reference.hpp"
#include "sim/run/simulate.hpp"
#include "sim/scenario/machine_topology.hpp"
#include "sim/support/child_process.hpp"

namespace hplsim::sim {

namespace {

// A trial from the fault-free steps `records` and what the simulation saw of
// its faults (`log`; null: computed from the steps).
TrialRow outcome(const RunResult& base, std::vector<StepRecord> records, const FaultTimeline& timeline,
                 const FaultLog* log, std::int64_t trial) {
  RunResult r = base;
  r.step_records = std::move(records);
  r.completed = true;
  r.failure.clear();
  finalize_result(r);
  record_faults(timeline, log, r);
  return trial_row(r, trial);
}

// Reference mode: every trial is a simulation of its own, in a process of its
// own (one SimGrid engine per process), `jobs` at a time.
// Their draws end at fault_horizon_s of the analytic mode's time, as fast
// mode's trials' end at that of their fault-free run.
std::vector<TrialRow> reference_trials(const std::vector<ResolvedScenario>& scaled, const TrialsOptions& o) {
  const std::vector<std::int64_t> indices = o.indices();
  const double horizon_s = fault_horizon_s(scaled.front());
  std::vector<TrialRow> rows(scaled.size() * indices.size());
  int done = 0;
  run_in_children(
      rows.size(), o.jobs,
      [&scaled, &indices, horizon_s](std::size_t at) {
        const std::size_t i = at % indices.size();
        const ResolvedScenario& sc = scaled[at / indices.size()];
        RunResult r = initial_result(sc, "reference");
        run_reference(sc, {}, r, static_cast<std::uint64_t>(indices[i]), horizon_s);
        return encode(trial_row(r, indices[i]));
      },
      [&](std::size_t at, const std::string& bytes) {
        rows[at] = decode_trial_row(bytes);
        if (o.progress) o.progress(double(++done) / double(rows.size()));
      });
  return rows;
}

} // namespace

ResolvedScenario with_flap_scale(const ResolvedScenario& scenario, FlapScale scale) {
  if (!(scale.rate >= 0.0) || !(scale.duration > 0.0) || !std::isfinite(scale.rate) ||
      !std::isfinite(scale.duration))
    throw std::invalid_argument("with_flap_scale: the rate scale must be finite and >= 0, the duration scale "
                                "finite and > 0");
  ResolvedScenario out = scenario;
  if (!out.faults.has_flap_process()) return out;
  for (auto& c : *out.faults.mutable_flap_process()->mutable_classes()) {
    c.set_rate_per_link_per_hour(c.rate_per_link_per_hour() * scale.rate);
    c.mutable_duration()->set_mean_s(c.duration().mean_s() * scale.duration);
    if (!std::isfinite(c.rate_per_link_per_hour()) || !std::isfinite(c.duration().mean_s()))
      throw std::invalid_argument("with_flap_scale: a scaled rate or duration is not finite");
  }
  return out;
}

TrialsResult simulate_trials(const ResolvedScenario& sc, const TrialsOptions& o) {
  if (o.trials < 1) throw std::invalid_argument("simulate_trials: trials must be >= 1");
  if (o.share_count < 1 || o.share < 0 || o.share >= o.share_count)
    throw std::invalid_argument("simulate_trials: share must be in [0, share_count)");
  if (o.flap_scales.empty()) throw std::invalid_argument("simulate_trials: give at least one flap scale");
  std::vector<ResolvedScenario> scaled;
  for (const FlapScale& s : o.flap_scales)
    scaled.push_back(with_flap_scale(sc, s));
  const Mode mode = effective_mode(sc);
  check_faults_supported(sc, mode);
  TrialsResult out;
  // Trial i's events over [0, fault_horizon_s(T)), T the fault-free run's
  // time: drawing 7 days of a high rate for every trial would cost more than
  // the run.
  const std::vector<std::int64_t> indices = o.indices();
  const auto timelines = [&](const topo::Topology& topology, double fault_free_s) {
    std::vector<FaultTimeline> t;
    for (const ResolvedScenario& s : scaled)
      for (const std::int64_t i : indices)
        t.push_back(
            build_timeline(s, topology, static_cast<std::uint64_t>(i), fault_horizon_s(s, fault_free_s)));
    return t;
  };
  switch (mode) {
  case Mode::Analytic: {
    out.fault_free = initial_result(sc, "analytic");
    out.fault_free.step_records = analytic_steps(sc);
    finalize_result(out.fault_free);
    const std::vector<FaultTimeline> t = timelines(*make_topology(sc.machine), out.fault_free.time_s);
    for (std::size_t at = 0; at < t.size(); ++at)
      out.trials.push_back(
          outcome(out.fault_free, out.fault_free.step_records, t[at], nullptr, indices[at % indices.size()]));
    return out;
  }
  case Mode::Fast: {
    out.fault_free = initial_result(sc, "fast");
    // The machine's own timeline draws nothing (horizon 0): each trial has its own.
    BuiltMachine machine = build_machine(sc, {}, 0, 0.0);
    ResolvedScenario with_jobs = sc;
    with_jobs.options.fast.workers = std::max(1, o.jobs);
    std::vector<FaultTimeline> t;
    std::vector<FastTrial> fast = run_fast_trials(
        with_jobs, machine, [&](double fault_free_s) { return timelines(*machine.topology, fault_free_s); },
        o.progress, out.fault_free, t);
    // run_fast_trials leaves the fault-free steps in out.fault_free.
    out.fault_free.fault_free_time_s.reset();
    finalize_result(out.fault_free);
    for (std::size_t at = 0; at < scaled.size() * indices.size(); ++at) {
      const std::int64_t trial = indices[at % indices.size()];
      if (fast.empty()) { // a fault-free window did not complete
        out.trials.push_back(trial_row(out.fault_free, trial));
        continue;
      }
      FastTrial& f = fast[at];
      out.trials.push_back(
          outcome(out.fault_free, std::move(f.step_records), t[at], f.flaps ? &*f.flaps : nullptr, trial));
    }
    return out;
  }
  case Mode::Reference:
  case Mode::Auto:
    break;
  }
  // The fault-free run is trial-independent only without faults; reference
  // mode reports the trials alone (its fault-free time is a run without faults).
  out.fault_free = initial_result(sc, "reference");
  out.trials = reference_trials(scaled, o);
  return out;
}

} // namespace hplsim::sim
