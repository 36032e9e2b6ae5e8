#pragma once
// The schedule generator a scenario's workload calls for (HPL or HPL-MxP),
// behind one interface the replay and `hplsim trace` use.
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/scenario/scenario_defaults.hpp"
#include "sim/workload/step_source.hpp"
#include "traces/schedule.pb.h"

namespace hplsim::sim {

class ScheduleSource {
public:
  virtual ~ScheduleSource() = default;
  virtual traces::ScheduleHeader header() const = 0;
  /// Panel steps; step `steps()` is the final solve / refinement.
  virtual std::int64_t steps() const = 0;
  /// Step k for all ranks, or only for the flagged ones.
  virtual void step(std::int64_t k, traces::StepSchedule& out,
                    const std::vector<bool>* only = nullptr) const = 0;
  /// Useful flops of step k (no programs built).
  virtual double step_flops(std::int64_t k) const = 0;
  /// Refinement iterations scheduled in the final step (HPL-MxP), 0 for HPL.
  virtual int refinement_iterations() const { return 0; }
  /// A StepSource (sim/workload/step_source.hpp) over this generator, for all or the flagged ranks.
  StepSource step_function(const std::vector<bool>* only = nullptr) const {
    return [this, only](std::int64_t k, traces::StepSchedule& out) { step(k, out, only); };
  }
};

/// Fast mode's cheaper ways of emitting some communication (docs/fast-mode.md); the defaults are reference
/// mode's message-by-message schedule.
struct ScheduleShortcuts {
  int pivot_group = 1;                    ///< traces::HplConfig::pivot_group
  bool pivot_collective = false;          ///< traces::HplConfig::pivot_collective
  bool panel_collective = false;          ///< traces::HplConfig::panel_collective
  bool roll_collective = false;           ///< traces::HplConfig::roll_collective
  int swap_roll_group = 1;                ///< traces::HplConfig::swap_roll_group
  bool ring_aggregated = false;           ///< traces::MxpConfig::bcast_ring_aggregated
  std::vector<int> message_pivot_columns; ///< traces::HplConfig::message_pivot_columns
  /// HPL-MxP: > 0 schedules this many refinement iterations (at most the
  /// run's), with traces::MxpConfig::refinement_marks; 0: the run's.
  int refinement_iterations = 0;
  /// With refinement_iterations > 0: traces::MxpConfig::refinement_first_pass_extrapolated.
  bool refinement_first_pass_left_out = false;
};

/// Throws std::invalid_argument when the workload cannot be generated.
std::unique_ptr<ScheduleSource> make_schedule_source(const ResolvedScenario& scenario,
                                                     const ScheduleShortcuts& shortcuts = {});

} // namespace hplsim::sim
