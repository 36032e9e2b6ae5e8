#include "sim/run/fault_horizon.hpp"

#include <algorithm>

#include "sim/engine/machine.hpp"
#include "sim/run/analytic.hpp"

namespace hplsim::sim {

double fault_horizon_s(const ResolvedScenario& sc, double fault_free_s) {
  double slowest = 1.0;
  const auto& var = sc.machine.variability;
  if (var.degraded_fraction() > 0.0 && var.degraded_rate_factor() > 0.0) slowest = var.degraded_rate_factor();
  for (const auto& d : sc.faults.degradations())
    if (d.rate_factor() > 0.0) slowest = std::min(slowest, d.rate_factor());
  return std::min(kFaultHorizon_s, 2.0 * fault_free_s / slowest + 3600.0);
}

double fault_horizon_s(const ResolvedScenario& sc) {
  if (!sc.faults.has_failure_process() && !sc.faults.has_flap_process()) return 0.0;
  double end_s = 0.0; // the run's time, as finalize_result takes it
  for (const StepRecord& step : analytic_steps(sc))
    end_s = std::max(end_s, step.end_s);
  return fault_horizon_s(sc, end_s);
}

} // namespace hplsim::sim
