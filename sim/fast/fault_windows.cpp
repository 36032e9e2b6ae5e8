#include "sim/fast/fault_windows.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

namespace hplsim::sim {

FaultPlacement place_fault(const std::vector<StepRecord>& records, double t_s) {
  FaultPlacement p;
  if (records.empty() || !(t_s < records.back().end_s)) return p;
  p.reached = true;
  // The records are contiguous (start(k) = end(k - 1)); the last one whose start is <= t_s.
  auto it = std::upper_bound(records.begin(), records.end(), t_s,
                             [](double t, const StepRecord& r) { return t < r.start_s; });
  if (it != records.begin()) --it;
  // A flap during the final solve is placed in the last panel step (the final
  // solve is ~1e-5 of a full-scale run: docs/faults.md).
  while (it != records.begin() && it->final_solve)
    --it;
  p.step = it->step;
  p.offset_s = std::max(0.0, t_s - it->start_s);
  return p;
}

std::vector<StepDelta> step_deltas(const WindowOutcome& fault, const WindowOutcome& baseline) {
  std::map<std::int64_t, const Sample*> base;
  for (const auto& [k, s] : baseline.samples)
    base[k] = &s;
  std::vector<StepDelta> out;
  double previous_end_delta_s = 0.0; // the steps before the fault are the same in both
  for (const auto& [k, s] : fault.samples) {
    const auto it = base.find(k);
    if (it == base.end()) continue;
    const Sample& b = *it->second;
    const double end_delta_s = s.end_s - b.end_s;
    StepDelta d;
    d.step = k;
    d.step_s = end_delta_s - previous_end_delta_s;
    previous_end_delta_s = end_delta_s;
    for (std::size_t p = 0; p < kPhaseCount; ++p) {
      d.phase_s[p] = s.phase_s[p] - b.phase_s[p];
      d.mean_phase_s[p] = s.mean_phase_s[p] - b.mean_phase_s[p];
    }
    out.push_back(d);
  }
  // A stall that outlives the measured steps: a message the flap failed that
  // only a later step waits for (an asynchronous send whose retry waits
  // seconds, against steps of a fraction of one) moves no measured step's
  // end, but it moves the window's end, where its ranks wait for it. That
  // much more goes to the last measured step (docs/faults.md, "Flaps in fast
  // mode"): in HPL every message is awaited by a later step, and a stall of
  // seconds against steps of ~0.3 s is on the run's path by then.
  const double end_delta_s = fault.end_s - baseline.end_s;
  if (!out.empty() && end_delta_s > previous_end_delta_s)
    out.back().step_s += end_delta_s - previous_end_delta_s;
  return out;
}

void add_step_deltas(std::vector<StepRecord>& records, const std::vector<StepDelta>& deltas) {
  std::map<std::int64_t, const StepDelta*> by_step;
  for (const StepDelta& d : deltas)
    by_step[d.step] = &d;
  double shift_s = 0.0;
  for (StepRecord& r : records) {
    r.start_s += shift_s;
    if (const auto it = by_step.find(r.step); it != by_step.end() && !r.final_solve) {
      const StepDelta& d = *it->second;
      shift_s += d.step_s;
      for (std::size_t p = 0; p < kPhaseCount; ++p) {
        r.phase_s[p] = std::max(0.0, r.phase_s[p] + d.phase_s[p]);
        r.mean_phase_s[p] = std::max(0.0, r.mean_phase_s[p] + d.mean_phase_s[p]);
      }
    }
    r.end_s += shift_s;
  }
}

FaultTimeline window_timeline(const WindowJob& job, const FaultTimeline& run) {
  FaultTimeline t;
  t.retry_waits_s = run.retry_waits_s;
  t.retry_timeout_s = run.retry_timeout_s;
  if (job.flap < 0) return t;
  const auto it =
      std::find_if(run.flaps.begin(), run.flaps.end(), [&](const FlapEvent& e) { return e.id == job.flap; });
  if (it == run.flaps.end()) throw std::logic_error("fault window: no flap " + std::to_string(job.flap));
  FlapEvent f = *it;
  f.start_s = job.flap_offset_s;
  f.after_step = job.flap_step > job.first ? job.flap_step - 1 : -1;
  t.flaps.push_back(f);
  return t;
}

WindowFaults window_faults(const FaultLog& log, int flap, double origin_s) {
  WindowFaults w;
  for (const auto& [id, e] : log.by_event) {
    w.messages_failed += e.messages_failed;
    w.retries += e.retries;
    w.retry_wait_s += e.retry_wait_s;
  }
  if (const auto it = log.flap_start_s.find(flap); it != log.flap_start_s.end())
    w.flap_start_s = it->second - origin_s;
  w.aborted = log.abort_reason.has_value();
  w.abort_s = log.abort_time_s - origin_s;
  return w;
}

namespace {

// The steps a flap of `duration_s` at placement `at` spans on the run's steps
// as they are, at least `measured`, at most `most`.
std::int64_t span_steps(const std::vector<StepRecord>& records, const FaultPlacement& at, double duration_s,
                        int measured, int most) {
  const double from_s = records[static_cast<std::size_t>(at.step)].start_s + at.offset_s;
  std::int64_t span = 0;
  for (std::size_t k = static_cast<std::size_t>(at.step); k < records.size() && !records[k].final_solve;
       ++k) {
    if (records[k].start_s > from_s + duration_s && span > 0) break;
    ++span;
  }
  return std::clamp<std::int64_t>(span, measured, most);
}

} // namespace

FaultLog simulate_flaps(const FaultWindowPlan& plan, const FaultTimeline& timeline,
                        std::vector<StepRecord>& records) {
  FaultLog log;
  log.node_failures_simulated = false;
  std::vector<const FlapEvent*> flaps;
  for (const FlapEvent& f : timeline.flaps)
    flaps.push_back(&f);
  std::stable_sort(flaps.begin(), flaps.end(),
                   [](const FlapEvent* a, const FlapEvent* b) { return a->start_s < b->start_s; });
  // The run ends at its first node failure: a flap from then on is never reached.
  const double failure_s = timeline.node_failures.empty() ? std::numeric_limits<double>::infinity()
                                                          : timeline.node_failures.front().time_s;
  for (const FlapEvent* f : flaps) {
    if (!(f->start_s < failure_s)) continue;
    const FaultPlacement at = place_fault(records, f->start_s);
    if (!at.reached) continue; // reported as not reached
    FaultLog::Entry& entry = log.by_event[f->id];
    entry.event = f->id;
    const int node = plan.flap_node(*f);
    // A NIC cable of a node the run does not use carries none of its traffic.
    if (node < 0 && f->link_class == NIC_PORT) {
      entry.delay_s = 0.0;
      continue;
    }
    const std::int64_t span = span_steps(records, at, f->duration_s, plan.measured_steps,
                                         std::max(plan.measured_steps, plan.max_span_steps));
    WindowJob base;
    base.first = std::max<std::int64_t>(0, at.step - plan.warmup_steps);
    const std::int64_t measured_last = std::min(plan.steps - 1, at.step + span - 1);
    base.last = std::min(plan.steps - 1, measured_last + plan.cooldown_steps);
    base.keep_from = base.first;
    base.keep_until = measured_last + 1;
    base.message_pivots = true;
    if (node >= 0) base.fault_nodes = {node};
    WindowJob fault = base;
    fault.flap = f->id;
    fault.flap_step = at.step;
    fault.flap_offset_s = at.offset_s;
    const std::vector<WindowOutcome> outcomes = plan.run({base, fault});
    const WindowOutcome& b = outcomes[0];
    const WindowOutcome& o = outcomes[1];
    entry.messages_failed = o.faults.messages_failed;
    entry.retries = o.faults.retries;
    entry.retry_wait_s = o.faults.retry_wait_s;
    if (o.faults.aborted) {
      // The flap outlasted the retry handler: the run ends that long after it began.
      log.abort_time_s = f->start_s + (o.faults.abort_s - std::max(0.0, o.faults.flap_start_s));
      std::ostringstream reason;
      reason << "transport: a message still failed after " << timeline.retry_waits_s.size()
             << " retries; its destination was declared down";
      log.abort_reason = reason.str();
      log.abort_event = f->id;
      // The steps after the flap's were never reached (record_faults cuts the run there).
      for (StepRecord& r : records)
        if (r.step > at.step) r.start_s = r.end_s = std::numeric_limits<double>::infinity();
      break;
    }
    if (!b.completed || !o.completed) {
      log.abort_reason = "deadlock in a fast-mode fault window";
      log.abort_time_s = f->start_s;
      log.abort_event = f->id;
      break;
    }
    const std::vector<StepDelta> deltas = step_deltas(o, b);
    double delay_s = 0.0;
    for (const StepDelta& d : deltas)
      delay_s += d.step_s;
    entry.delay_s = delay_s;
    add_step_deltas(records, deltas);
  }
  return log;
}

} // namespace hplsim::sim
