#pragma once
// The schedule generator a scenario's workload calls for (HPL or HPL-MxP),
// behind one interface the replay and `hplsim trace` use.
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/replay.hpp"
#include "sim/scenario_defaults.hpp"
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
  /// A StepSource (sim/replay.hpp) over this generator, for all or the flagged ranks.
  StepSource step_function(const std::vector<bool>* only = nullptr) const {
    return [this, only](std::int64_t k, traces::StepSchedule& out) { step(k, out, only); };
  }
};

/// Throws std::invalid_argument when the workload cannot be generated.
/// `pivot_group` > 1: HPL's pivot exchanges aggregated per that many columns
/// (fast mode only; traces::HplConfig::pivot_group). `ring_aggregated`:
/// HPL-MxP's ring broadcasts as 3 messages per hop (fast mode only;
/// traces::MxpConfig::bcast_ring_aggregated).
std::unique_ptr<ScheduleSource> make_schedule_source(const ResolvedScenario& scenario, int pivot_group = 1,
                                                     bool ring_aggregated = false);

} // namespace hplsim::sim
