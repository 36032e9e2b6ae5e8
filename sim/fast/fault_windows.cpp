#include "sim/fast/fault_windows.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <optional>
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

FaultTimeline window_timeline(const WindowJob& job, const FaultTimeline& run, int ranks_per_node) {
  FaultTimeline t;
  t.retry_waits_s = run.retry_waits_s;
  t.retry_timeout_s = run.retry_timeout_s;
  t.collective_recovery_s = run.collective_recovery_s;
  if (job.flap < 0) return t;
  const auto it =
      std::find_if(run.flaps.begin(), run.flaps.end(), [&](const FlapEvent& e) { return e.id == job.flap; });
  if (it == run.flaps.end()) throw std::logic_error("fault window: no flap " + std::to_string(job.flap));
  FlapEvent f = *it;
  f.start_s = job.flap_offset_s;
  f.after_step = job.flap_step > job.first ? job.flap_step - 1 : -1;
  f.after_ranks.clear();
  if (f.after_step >= 0)
    for (const int node : job.fault_nodes)
      for (int l = 0; l < ranks_per_node; ++l)
        f.after_ranks.push_back(node * ranks_per_node + l);
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

namespace {

// One timeline's progress through its flaps.
struct FlapTrack {
  int index = 0; // in the timelines simulated together (WindowJob::timeline)
  const FaultTimeline* timeline = nullptr;
  std::vector<StepRecord>* records = nullptr;
  std::vector<const FlapEvent*> flaps; // by start time
  std::size_t next = 0;
  double failure_s = std::numeric_limits<double>::infinity(); // the run ends at its first node failure
  FaultLog log;
  bool done = false;
};

// A flap that needs its window: the fault window and, when it fails a message, its baseline.
struct FlapWindow {
  FlapTrack* track = nullptr;
  const FlapEvent* flap = nullptr;
  FaultPlacement at;
  WindowJob base, fault;
};

// Advances `t` to its next flap that needs a window (none: the track is done),
// settling on the way the flaps that cost nothing without one.
std::optional<FlapWindow> next_window(const FaultWindowPlan& plan, FlapTrack& t) {
  while (!t.done && t.next < t.flaps.size()) {
    const FlapEvent* f = t.flaps[t.next++];
    if (!(f->start_s < t.failure_s)) continue; // never reached
    const FaultPlacement at = place_fault(*t.records, f->start_s);
    if (!at.reached) continue; // reported as not reached
    FaultLog::Entry& entry = t.log.by_event[f->id];
    entry.event = f->id;
    const int node = plan.flap_node(*f);
    // A NIC cable of a node the run does not use carries none of its traffic.
    if (node < 0 && f->link_class == NIC_PORT) {
      entry.delay_s = 0.0;
      continue;
    }
    const std::int64_t span = span_steps(*t.records, at, f->duration_s, plan.measured_steps,
                                         std::max(plan.measured_steps, plan.max_span_steps));
    FlapWindow w;
    w.track = &t;
    w.base.timeline = t.index;
    w.flap = f;
    w.at = at;
    w.base.first = std::max<std::int64_t>(0, at.step - plan.warmup_steps);
    const std::int64_t measured_last = std::min(plan.steps - 1, at.step + span - 1);
    w.base.last = std::min(plan.steps - 1, measured_last + plan.cooldown_steps);
    w.base.keep_from = w.base.first;
    w.base.keep_until = measured_last + 1;
    w.base.message_pivots = true;
    if (node >= 0) w.base.fault_nodes = {node};
    // No traffic of the window's steps crosses the link: the flap fails nothing.
    if (plan.can_fail && !plan.can_fail(*f, w.base.first, w.base.last)) {
      entry.delay_s = 0.0;
      continue;
    }
    w.fault = w.base;
    w.fault.flap = f->id;
    w.fault.flap_step = at.step;
    w.fault.flap_offset_s = at.offset_s;
    return w;
  }
  t.done = true;
  return std::nullopt;
}

void end_track(FlapTrack& t, const std::string& reason, double at_s, int event) {
  t.log.abort_reason = reason;
  t.log.abort_time_s = at_s;
  t.log.abort_event = event;
  t.done = true;
}

// A flap window's progress: its fault window, then (when the flap failed a
// message) its baseline, each started once and ended once.
struct InFlight {
  FlapWindow w;
  bool fault_started = false, base_started = false;
  std::optional<WindowOutcome> fault, base;
  bool needs_base = false;
};

// What one timeline did with its window's fault outcome: the run ended, the
// flap cost nothing (either settles the flap), or the baseline is needed
// (f.needs_base).
void settle_fault(InFlight& f, std::vector<std::pair<WindowJob, WindowOutcome>>& used) {
  FlapWindow& w = f.w;
  FlapTrack& t = *w.track;
  const WindowOutcome& o = *f.fault;
  if (o.faults.ended_unfelt && (o.faults.messages_failed != 0 || o.faults.retries != 0))
    throw std::logic_error("fast mode: a fault window stopped as unfelt after its flap failed a message");
  used.emplace_back(w.fault, o);
  FaultLog::Entry& entry = t.log.by_event[w.flap->id];
  entry.messages_failed = o.faults.messages_failed;
  entry.retries = o.faults.retries;
  entry.retry_wait_s = o.faults.retry_wait_s;
  if (o.faults.aborted) {
    // The flap outlasted the retry handler: the run ends that long after it began.
    std::ostringstream reason;
    reason << "transport: a message still failed after " << t.timeline->retry_waits_s.size()
           << " retries; its destination was declared undeliverable";
    end_track(t, reason.str(), w.flap->start_s + (o.faults.abort_s - std::max(0.0, o.faults.flap_start_s)),
              w.flap->id);
    // The steps after the flap's were never reached (record_faults cuts the run there).
    for (StepRecord& r : *t.records)
      if (r.step > w.at.step) r.start_s = r.end_s = std::numeric_limits<double>::infinity();
    return;
  }
  if (!o.completed) {
    end_track(t, "deadlock in a fast-mode fault window", w.flap->start_s, w.flap->id);
    return;
  }
  if (o.faults.messages_failed == 0 && o.faults.retries == 0) {
    entry.delay_s = 0.0;
    return;
  }
  f.needs_base = true;
}

// The flap's delay, step by step, from its fault window against its baseline.
void settle_base(InFlight& f, std::vector<std::pair<WindowJob, WindowOutcome>>& used) {
  FlapWindow& w = f.w;
  FlapTrack& t = *w.track;
  used.emplace_back(w.base, *f.base);
  if (!f.base->completed) {
    end_track(t, "deadlock in a fast-mode fault window", w.flap->start_s, w.flap->id);
    return;
  }
  const std::vector<StepDelta> deltas = step_deltas(*f.fault, *f.base);
  double delay_s = 0.0;
  for (const StepDelta& d : deltas)
    delay_s += d.step_s;
  t.log.by_event[w.flap->id].delay_s = delay_s;
  add_step_deltas(*t.records, deltas);
}

} // namespace

std::vector<FaultLog> simulate_flaps(const FaultWindowPlan& plan,
                                     const std::vector<const FaultTimeline*>& timelines,
                                     const std::vector<std::vector<StepRecord>*>& records) {
  std::vector<FlapTrack> tracks(timelines.size());
  for (std::size_t i = 0; i < timelines.size(); ++i) {
    FlapTrack& t = tracks[i];
    t.index = static_cast<int>(i);
    t.timeline = timelines[i];
    t.records = records[i];
    t.log.node_failures_simulated = false;
    for (const FlapEvent& f : t.timeline->flaps)
      t.flaps.push_back(&f);
    std::stable_sort(t.flaps.begin(), t.flaps.end(),
                     [](const FlapEvent* a, const FlapEvent* b) { return a->start_s < b->start_s; });
    if (!t.timeline->node_failures.empty()) t.failure_s = t.timeline->node_failures.front().time_s;
  }
  // Each timeline's flap in flight (none: the timeline is done), its windows
  // used, in its own order, and which window each started job was.
  std::vector<std::unique_ptr<InFlight>> current(tracks.size());
  std::vector<std::vector<std::pair<WindowJob, WindowOutcome>>> used(tracks.size());
  struct Started {
    InFlight* flight;
    bool fault;
  };
  std::vector<Started> started;
  // Timeline i's flap is settled (or it has none yet): on to its next one.
  const auto advance = [&](std::size_t i) {
    current[i].reset();
    if (auto w = next_window(plan, tracks[i])) {
      current[i] = std::make_unique<InFlight>();
      current[i]->w = std::move(*w);
    }
  };
  for (std::size_t i = 0; i < tracks.size(); ++i)
    advance(i);
  const auto start = [&](InFlight& f, bool fault) {
    (fault ? f.fault_started : f.base_started) = true;
    started.push_back({&f, fault});
    return fault ? f.w.fault : f.w.base;
  };
  const auto next = [&]() -> std::optional<WindowJob> {
    // Work that is needed first, in timeline order: fault windows, then baselines.
    for (auto& f : current)
      if (f && !f->fault_started) return start(*f, true);
    // A baseline its fault window's copy did not give (simulate()).
    for (auto& f : current)
      if (f && f->needs_base && !f->base_started) return start(*f, false);
    return std::nullopt;
  };
  const auto done = [&](std::size_t id, WindowOutcome&& o) {
    InFlight& f = *started.at(id).flight;
    const auto i = static_cast<std::size_t>(f.w.track->index);
    if (started[id].fault) {
      // The baseline its process's copy simulated from the flap on (WindowOutcome::baseline).
      if (!o.baseline.empty()) {
        f.base = decode(o.baseline);
        f.base_started = true;
        o.baseline.clear();
      }
      f.fault = std::move(o);
    } else {
      f.base = std::move(o);
    }
    if (!f.fault) return; // its fault window still running
    if (started[id].fault) {
      settle_fault(f, used[i]);
      if (!f.needs_base) {
        advance(i);
        return;
      }
    }
    if (f.needs_base && f.base) {
      settle_base(f, used[i]);
      advance(i);
    }
  };
  plan.run(next, done);
  for (const auto& f : current)
    if (f) throw std::logic_error("fast mode: a flap's windows were left unfinished");
  if (plan.account)
    for (const auto& windows : used)
      for (const auto& [job, outcome] : windows)
        plan.account(job, outcome);
  std::vector<FaultLog> logs;
  for (FlapTrack& t : tracks)
    logs.push_back(std::move(t.log));
  return logs;
}

FaultLog simulate_flaps(const FaultWindowPlan& plan, const FaultTimeline& timeline,
                        std::vector<StepRecord>& records) {
  return std::move(simulate_flaps(plan, {&timeline}, {&records}).front());
}

} // namespace hplsim::sim
