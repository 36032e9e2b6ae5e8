#pragma once
// How far ahead a run's seeded fault processes are drawn (docs/faults.md,
// "Inputs"): past the end of any run the scenario can reach,
// without drawing days of events a run of seconds never meets.
#include "sim/scenario/scenario_defaults.hpp"

namespace hplsim::sim {

/// The end of the draws for a run whose fault-free time is `fault_free_s`:
/// 2 T' + 1 h, at most 7 days (kFaultHorizon_s); T' is the fault-free time
/// divided by the slowest rate factor of a degradation or of the machine's
/// degraded nodes (one slow node can hold the whole run back by that factor).
/// A longer horizon keeps a shorter one's events (models/failure_model.hpp),
/// so every event a run reaches is the one a 7-day draw would give.
double fault_horizon_s(const ResolvedScenario& scenario, double fault_free_s);

/// fault_horizon_s with T the analytic mode's time (a closed form computed in
/// milliseconds to seconds). For HPL-MxP, which the analytic mode does not
/// model, T is HPL's closed form of the same N, NB and grid: its factorization
/// at FP64 rates, above the run. Without seeded processes (only listed events
/// or none) no draw is made and the analytic time is not computed.
double fault_horizon_s(const ResolvedScenario& scenario);

} // namespace hplsim::sim
