#pragma once
// K runs of one scenario whose fault draws come from K independent streams
// (hplsim run --trials; docs/faults.md, "Trials"): trial i draws from
// RandomStreams(seed, i), whatever K, the number of jobs or the order in which
// trials finish. What does not depend on the draws is shared: fast mode
// simulates its fault-free windows once and only the flaps' windows per trial;
// a node failure's outcome is computed from the fault-free steps. Reference
// mode simulates each trial whole, `jobs` processes at a time.
#include <cstdint>
#include <functional>
#include <vector>

#include "sim/result/run_result.hpp"
#include "sim/result/trial_row.hpp"
#include "sim/scenario/scenario_defaults.hpp"

namespace hplsim::sim {

/// Multipliers of a scenario's flap process (`hplsim sensitivity`;
/// docs/faults.md, "Sensitivity to the flap process"): every class's rate per
/// link and mean duration. A class's draws are exponential gaps and durations
/// proportional to its mean (models/failure_model.hpp), so a trial drawn at
/// rate x r and duration x d has the same draws as at x 1, its times divided by
/// r and its durations multiplied by d: the scales compare on common random
/// numbers. Listed flaps are left as they are.
struct FlapScale {
  double rate = 1.0;     ///< >= 0
  double duration = 1.0; ///< > 0 (a flap lasts some time)
};

/// `scenario` with its flap process scaled by `scale`.
ResolvedScenario with_flap_scale(const ResolvedScenario& scenario, FlapScale scale);

struct TrialsOptions {
  int trials = 1; ///< >= 1
  /// The flap process's scales, each with the same trials (RandomStreams(seed,
  /// i) for trial i); TrialsResult::trials holds them scale after scale.
  std::vector<FlapScale> flap_scales{FlapScale{}};
  int jobs = 1; ///< processes at a time (fast mode: window processes)
  /// This process's share of an MPI job (sim/distributed/world.hpp): only the
  /// trials i with i mod `share_count` = `share` are run and returned.
  int share = 0, share_count = 1;
  /// The trial numbers this process runs, in order.
  std::vector<std::int64_t> indices() const {
    std::vector<std::int64_t> out;
    for (std::int64_t i = share; i < trials; i += share_count)
      out.push_back(i);
    return out;
  }
  std::function<void(double)> progress;
};

struct TrialsResult {
  RunResult fault_free; ///< the run without faults (identity fields, time, Rmax)
  /// In trial order (this process's share of them), the flap scales one
  /// after the other: scale s's rows are [s n, (s + 1) n), n = indices().size().
  std::vector<TrialRow> trials;
};

/// Simulates the trials. One SimGrid engine per process: call at most once.
TrialsResult simulate_trials(const ResolvedScenario& scenario, const TrialsOptions& options);

} // namespace hplsim::sim
