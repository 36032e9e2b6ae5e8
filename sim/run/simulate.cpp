#include "sim/run/simulate.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <string>

#include <google/protobuf/util/json_util.h>

#include "sim/engine/machine.hpp"
#include "sim/engine/replay_setup.hpp"
#include "sim/fast/fast_run.hpp"
#include "sim/run/analytic.hpp"
#include "sim/run/fault_horizon.hpp"
#include "sim/run/fault_outcomes.hpp"
#include "sim/run/reference.hpp"
#include "sim/scenario/machine_topology.hpp"
#include "sim/scenario/memory_fit.hpp"
#include "traces/hpl_code.hpp"

namespace hplsim::sim {

Mode effective_mode(const ResolvedScenario& sc) {
  if (sc.options.mode != Mode::Auto) return sc.options.mode;
  // Reference mode costs about one SimGrid activity per message and kernel;
  // SimGrid 3.32 runs ~1e5 activities/s here (docs/simgrid-measurements.md), so keep it for runs of at most
  // a few million activities (a minute or so) and use fast mode above that.
  return estimated_reference_activities(sc) <= 5e6 ? Mode::Reference : Mode::Fast;
}

double estimated_reference_activities(const ResolvedScenario& sc) {
  const auto& w = sc.workload;
  const double log_p = std::ceil(std::log2(std::max(2, w.p)));
  // Per step: one pivot exchange per panel column over the P ranks of the owner
  // column (log2 P rounds), plus a handful of messages and kernels per rank.
  const double per_step = double(w.nb) * w.p * (log_p + 1.0) + 8.0 * w.ranks();
  return per_step * double(w.steps());
}

namespace {

std::string sig3(double x) {
  std::ostringstream o;
  o << std::setprecision(3) << x;
  return o.str();
}

std::string seconds_text(double s) {
  return s >= 1e-3 ? sig3(s * 1e3) + " ms" : sig3(s * 1e6) + " us";
}

// The noise sources in effect, for summary.json and a line of stdout.
void describe_noise(const ResolvedScenario& sc, RunResult& r) {
  const models::NoiseParams& noise = sc.machine.variability.noise();
  if (noise.sources_size() == 0) return;
  google::protobuf::util::JsonPrintOptions json;
  json.preserve_proto_field_names = true;
  if (!google::protobuf::util::MessageToJsonString(noise, &r.noise_json, json).ok()) r.noise_json = "{}";
  const int free_cores = core_layout(sc).spare_cores();
  std::string text;
  for (const models::NoiseSource& s : noise.sources()) {
    text += text.empty() ? "" : "; ";
    text += s.scope() == models::NoiseSource::NODE ? "per node " : "per core ";
    if (s.has_periodic())
      text += seconds_text(s.periodic().length_s()) + " every " + seconds_text(s.periodic().period_s());
    else if (s.has_poisson())
      text += sig3(s.poisson().rate_per_s()) + " /s x " + seconds_text(s.poisson().length_s()) +
              (s.poisson().exponential_length() ? " (mean)" : "");
    else
      text += "trace " + s.trace_file();
    if (s.scope() == models::NoiseSource::NODE && free_cores > 0) text += " (on the free cores)";
  }
  r.noise_text = text + "; " + std::to_string(free_cores) + " free core(s) per node";
}

} // namespace

// The result's identity fields (mode, benchmark, N, NB, grid, seed, steps).
RunResult initial_result(const ResolvedScenario& sc, const char* mode) {
  RunResult r;
  r.mode = mode;
  r.benchmark = to_string(sc.workload.benchmark);
  r.n = sc.workload.n;
  r.nb = sc.workload.nb;
  r.p = sc.workload.p;
  r.q = sc.workload.q;
  r.nodes = sc.workload.nodes;
  r.ranks = sc.workload.ranks();
  r.depth = sc.workload.depth;
  r.seed = sc.options.seed;
  r.steps = sc.workload.steps();
  r.fits_in_memory = fits_in_memory(sc);
  r.prescreen = sc.prescreen_note;
  r.rederived = sc.rederive_note;
  const auto& fit_targets = sc.machine.variability.fit_targets();
  if (!fit_targets.empty()) {
    r.calibration = "calibrated";
    r.calibration_files.push_back(sc.machine.variability_path);
  } else if (!sc.left_out_fitted_path.empty()) {
    r.calibration = "sourced only";
    r.calibration_files.push_back(sc.left_out_fitted_path);
  }
  describe_noise(sc, r);
  if (sc.reference) {
    ReferenceFigure ref;
    ref.id = sc.reference->id();
    ref.source = sc.reference->source();
    ref.rmax_flops_per_s = sc.reference->rmax_flops_per_s();
    ref.fit_target = std::find(fit_targets.begin(), fit_targets.end(), ref.id) != fit_targets.end();
    ref.reference_run = sc.reference_run;
    ref.this_run = sc.this_run;
    r.reference = ref;
  }
  if (sc.workload.benchmark == Benchmark::Hpl) {
    static constexpr const char* kNames[] = {"p2p", "hybrid", "collective"};
    r.panel_exchange = kNames[static_cast<int>(sc.workload.hpl.panel_exchange)];
    const auto code = static_cast<traces::HplCode>(resolved_code(sc));
    r.code = traces::code_facts(code).name;
    r.code_title = traces::code_facts(code).title;
    r.code_ignores = traces::ignored_lines(code, sc.workload.hpl.set_lines);
    r.timer_rule = to_string(resolved_timer_rule(sc));
  }
  return r;
}

RunResult simulate(const ResolvedScenario& sc, const SimulateOptions& options) {
  const Mode mode = effective_mode(sc);
  check_faults_supported(sc, mode);
  switch (mode) {
  case Mode::Analytic: {
    RunResult r = initial_result(sc, "analytic");
    r.step_records = analytic_steps(sc);
    finalize_result(r);
    // A node failure's outcome follows from the fault-free steps.
    if (sc.faults.ByteSizeLong() > 0)
      record_faults(build_timeline(sc, *make_topology(sc.machine), 0, fault_horizon_s(sc, r.time_s)), nullptr,
                    r);
    return r;
  }
  case Mode::Fast: {
    RunResult r = initial_result(sc, "fast");
    BuiltMachine machine = build_machine(sc, {}, 0, fault_horizon_s(sc));
    const std::optional<FaultLog> flaps = run_fast(sc, machine, options.progress, r);
    finalize_result(r);
    record_faults(machine.faults, flaps ? &*flaps : nullptr, r);
    keep_until_exit(std::move(machine));
    return r;
  }
  case Mode::Reference:
  case Mode::Auto:
    break;
  }
  RunResult r = initial_result(sc, "reference");
  run_reference(sc, options.progress, r, 0, fault_horizon_s(sc));
  return r;
}

} // namespace hplsim::sim
