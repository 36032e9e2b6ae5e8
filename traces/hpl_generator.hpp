#pragma once
// Panel schedule of an HPL 2.3 run (netlib HPL, and rocHPL's GPU variant):
// one StepSchedule per main-loop iteration, then the final back substitution.
// See traces/hpl_step.hpp for what one step contains and traces/README.md for
// the model and its sources.
#include <cstdint>
#include <vector>

#include "traces/grid.hpp"
#include "traces/hpl_config.hpp"
#include "traces/schedule.pb.h"

namespace hplsim::traces {

class HplScheduleGenerator {
public:
  /// Throws std::invalid_argument on a bad config (see validate(HplConfig)).
  explicit HplScheduleGenerator(HplConfig config);

  const HplConfig& config() const { return config_; }
  const ProcessGrid& grid() const { return grid_; }
  ScheduleHeader header() const;
  /// Panel steps, ceil(N / NB); step() accepts k in [0, steps()], steps() being the final solve.
  std::int64_t steps() const { return steps_; }

  /// Fills `out` (cleared first) with step k. If `only` is non-null (size P*Q),
  /// emits programs only for the ranks r with (*only)[r]; their messages still
  /// name peers outside the subset. Ranks with nothing to do are left out.
  /// Throws std::out_of_range for k outside [0, steps()], std::invalid_argument
  /// for an `only` of the wrong size.
  void step(std::int64_t k, StepSchedule& out, const std::vector<bool>* only = nullptr) const;

  /// Useful flops of step k (see the split below); sums to total_flops().
  double step_flops(std::int64_t k) const;
  /// HPL's operation count 2/3 N^3 + 3/2 N^2 (HPL_pdtest.c).
  double total_flops() const;

private:
  HplConfig config_;
  ProcessGrid grid_;
  std::int64_t steps_;
};

} // namespace hplsim::traces
