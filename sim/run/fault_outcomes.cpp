#include "sim/run/fault_outcomes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "sim/support/errors.hpp"

namespace hplsim::sim {

namespace {

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// The first and last steps whose span meets [from_s, to_s] (-1, -1: none).
void touch(const std::vector<StepRecord>& records, double from_s, double to_s, RunResult::FaultOutcome& o) {
  for (const auto& r : records) {
    if (r.final_solve || r.end_s < from_s || r.start_s > to_s) continue;
    if (o.first_step < 0) o.first_step = r.step;
    o.last_step = r.step;
  }
}

// An aborted run: the steps after the failure are dropped, the step in
// progress ends there, the run's time is the failure's and it has no Rmax.
void end_run_at(double time_s, const std::string& reason, RunResult& r) {
  std::vector<StepRecord> kept;
  for (auto rec : r.step_records) {
    if (!(rec.start_s < time_s)) continue; // not started (or never reached: start at +inf)
    if (rec.end_s > time_s || rec.end_s < rec.start_s) rec.end_s = time_s;
    kept.push_back(rec);
  }
  r.step_records = std::move(kept);
  r.completed = false;
  r.failure = reason;
  r.time_s = time_s;
  r.rmax_flops_per_s = 0.0;
  r.rmax_sampling_error_fraction = -1.0;
  r.lost_work_s = time_s;
}

} // namespace

void check_faults_supported(const ResolvedScenario& sc, Mode mode) {
  const Faults& f = sc.faults;
  const bool flaps = f.link_flaps_size() > 0 ||
                     (f.has_flap_process() &&
                      std::any_of(f.flap_process().classes().begin(), f.flap_process().classes().end(),
                                  [](const auto& c) { return c.rate_per_link_per_hour() > 0.0; }));
  const bool late = std::any_of(f.degradations().begin(), f.degradations().end(),
                                [](const Degradation& d) { return d.from_s() > 0.0; });
  const char* where = sc.path.c_str();

  if (mode == Mode::Fast && late)
    throw ScenarioError(
        std::string(where) +
        ": faults.degradations: fast mode takes a degradation from the start only (from_s 0); "
        "run a later one with --mode reference");
  if (mode == Mode::Analytic && (flaps || f.degradations_size() > 0))
    throw ScenarioError(std::string(where) +
                        ": faults: the analytic mode does not model link flaps or degradations; use --mode "
                        "reference or fast");
}

void record_faults(const FaultTimeline& t, const FaultLog* log, RunResult& r) {
  if (t.empty()) return;
  r.has_faults = true;
  r.restart_setup_s = t.restart_setup_s;
  if (t.horizon_s > 0.0) r.faults_drawn_through_s = t.horizon_s;
  // The failure that ends the run: the one the simulation saw, or (computed)
  // the first one before the fault-free run's end.
  std::optional<NodeFailureEvent> ending;
  const bool simulated_failures = log != nullptr && log->node_failures_simulated;
  // Not simulated (fast, analytic): the first node failure before the run's
  // end, or before a flap's abort, ends the run.
  if (!simulated_failures)
    ending = t.first_failure_before(log != nullptr && log->abort_reason ? log->abort_time_s : r.time_s);
  if (ending) {
    end_run_at(ending->time_s,
               "node " + std::to_string(ending->node) + " failed at " + number(ending->time_s) + " s (" +
                   ending->cause + ")",
               r);
  } else if (log != nullptr && log->abort_reason) {
    for (const auto& f : t.node_failures)
      if (f.id == log->abort_event) ending = f;
    end_run_at(log->abort_time_s, *log->abort_reason, r);
  }
  const double end_s = r.time_s;
  for (const auto& e : t.flaps) {
    RunResult::FaultOutcome o;
    o.id = e.id;
    o.kind = "link_flap";
    o.target = std::string(LinkClass_Name(e.link_class)) + " " + std::to_string(e.index) + " (link " +
               std::to_string(e.link) + ")";
    o.start_s = e.start_s;
    o.duration_s = e.duration_s;
    o.reached = e.start_s < end_s;
    if (log != nullptr)
      if (const auto it = log->by_event.find(e.id); it != log->by_event.end()) {
        o.messages_failed = it->second.messages_failed;
        o.retries = it->second.retries;
        o.retry_wait_s = it->second.retry_wait_s;
        o.delay_s = it->second.delay_s;
      }
    if (o.reached) touch(r.step_records, e.start_s, e.start_s + e.duration_s, o);
    o.ended_run =
        log != nullptr && log->abort_reason && log->abort_event == e.id && r.failure == *log->abort_reason;
    r.faults.push_back(o);
  }
  for (const auto& e : t.node_failures) {
    RunResult::FaultOutcome o;
    o.id = e.id;
    o.kind = "node_failure";
    o.target = "node " + std::to_string(e.node);
    o.start_s = e.time_s;
    o.ended_run = ending && ending->id == e.id;
    o.reached = o.ended_run;
    if (o.ended_run) touch(r.step_records, e.time_s, e.time_s, o);
    r.faults.push_back(o);
  }
  for (const auto& e : t.degradations) {
    RunResult::FaultOutcome o;
    o.id = e.id;
    o.kind = "degradation";
    o.target = "node " + std::to_string(e.node) + (e.gpu >= 0 ? " gpu " + std::to_string(e.gpu) : "") + " x" +
               number(e.rate_factor);
    o.start_s = e.from_s;
    o.duration_s = std::max(0.0, end_s - e.from_s);
    o.reached = e.from_s < end_s;
    if (o.reached) touch(r.step_records, e.from_s, end_s, o);
    r.faults.push_back(o);
  }
  std::sort(r.faults.begin(), r.faults.end(),
            [](const RunResult::FaultOutcome& a, const RunResult::FaultOutcome& b) { return a.id < b.id; });
  // steps.csv's `how`: a step a fault touched says which (the first, by id).
  for (const auto& o : r.faults) {
    if (!o.touched()) continue;
    const std::int64_t a = o.first_step, b = o.last_step;
    for (auto& rec : r.step_records)
      if (!rec.final_solve && rec.step >= a && rec.step <= b && rec.how.rfind("fault:", 0) != 0)
        rec.how = "fault:" + std::to_string(o.id);
  }
}

} // namespace hplsim::sim
