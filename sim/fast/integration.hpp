#pragma once
// Fast mode's integration (docs/fast-mode.md, "integrating the curve"): the
// windows' samples, the curve through them that gives every step between
// windows, the run's step records and its own sampling error (the jackknife
// over the interior windows).
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

#include "sim/fast/step_curve.hpp"
#include "sim/fast/window.hpp"
#include "sim/result/run_result.hpp"

namespace hplsim::sim {

class StepIntegration {
public:
  /// `steps`: panel steps (step `steps` is the final solve).
  StepIntegration(std::int64_t steps, CurveRule rule) : steps_(steps), rule_(rule) {}

  /// Adds a completed window's samples.
  void add_window(const WindowOutcome& outcome);
  /// The steps simulated so far, in order.
  const std::map<std::int64_t, Sample>& samples() const { return samples_; }
  /// d(k): simulated, or read off the curve through the windows.
  double interpolate_step_s(std::int64_t k) const;
  /// Windows that are neither the head, the tail nor the final solve alone.
  std::vector<std::pair<std::int64_t, std::int64_t>> interior_windows() const;
  /// Step records for steps 0..steps (the final solve last); `step_flops`
  /// gives each step's useful flops.
  std::vector<StepRecord> step_records(std::int64_t n, std::int64_t nb,
                                       const std::function<double(std::int64_t)>& step_flops) const;
  /// The run's sampling error of its run time `time_s`, relative; negative
  /// when fewer than two interior windows.
  double sampling_error_fraction(double time_s) const;

private:
  struct Curves {
    std::unique_ptr<StepCurve> step;
    std::array<std::unique_ptr<StepCurve>, kPhaseCount> phase, mean_phase;
  };
  bool interior(const std::pair<std::int64_t, std::int64_t>& kept) const;
  std::vector<std::pair<double, Sample>> curve_nodes(const std::pair<std::int64_t, std::int64_t>* skip) const;
  const Curves& curves() const;
  static double read_off(const StepCurve& curve, std::int64_t k);

  std::int64_t steps_;
  CurveRule rule_;
  std::map<std::int64_t, Sample> samples_;
  std::set<std::pair<std::int64_t, std::int64_t>> kept_; // each window's kept steps, first and last
  mutable std::unique_ptr<Curves> curves_;               // through kept_, built when first read
};

} // namespace hplsim::sim
