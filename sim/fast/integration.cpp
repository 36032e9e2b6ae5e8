#include "sim/fast/integration.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>

namespace hplsim::sim {

void StepIntegration::add_window(const WindowOutcome& o) {
  for (const auto& [k, s] : o.samples)
    samples_[k] = s;
  if (!o.samples.empty()) kept_.emplace(o.samples.front().first, o.samples.back().first);
  curves_.reset();
}

// The curve through the windows (docs/fast-mode.md, "integrating the
// curve"): one node per window, the mean of its kept steps at their mean
// step; the head window's node is its last step (its first is a cold
// start), the tail window's its first (the last panel's step and the final
// solve are not on the curve). One curve for d(k) and one per phase.
// A window is interior unless it is the head (its kept steps start at 0),
// the tail (they reach the last panel step) or the final solve alone.
bool StepIntegration::interior(const std::pair<std::int64_t, std::int64_t>& kept) const {
  return kept.first > 0 && kept.second < steps_ - 1;
}
std::vector<std::pair<std::int64_t, std::int64_t>> StepIntegration::interior_windows() const {
  std::vector<std::pair<std::int64_t, std::int64_t>> windows;
  std::copy_if(kept_.begin(), kept_.end(), std::back_inserter(windows),
               [this](const auto& kept) { return interior(kept); });
  return windows;
}

// The curve's nodes, one per window, leaving out the window `skip` keeps
// (none when null).
std::vector<std::pair<double, Sample>>
StepIntegration::curve_nodes(const std::pair<std::int64_t, std::int64_t>* skip) const {
  std::vector<std::pair<double, Sample>> nodes;
  for (const auto& kept : kept_) {
    if (skip != nullptr && kept == *skip) continue;
    const auto [a, b_kept] = kept;
    const std::int64_t b = std::min(b_kept, steps_ - 1);
    if (a > b) continue; // the final solve alone
    std::pair<double, Sample> node{0.0, Sample{}};
    if (!interior(kept)) {
      node.first = static_cast<double>(a == 0 ? b : a);
      node.second = samples_.at(a == 0 ? b : a);
    } else {
      const double n = static_cast<double>(b - a + 1);
      node.first = static_cast<double>(a + b) / 2.0;
      for (std::int64_t k = a; k <= b; ++k) {
        const Sample& x = samples_.at(k);
        node.second.step_s += x.step_s / n;
        for (std::size_t p = 0; p < kPhaseCount; ++p) {
          node.second.phase_s[p] += x.phase_s[p] / n;
          node.second.mean_phase_s[p] += x.mean_phase_s[p] / n;
        }
      }
    }
    if (nodes.empty() || node.first > nodes.back().first) nodes.push_back(node);
  }
  return nodes;
}

const StepIntegration::Curves& StepIntegration::curves() const {
  if (curves_) return *curves_;
  std::vector<std::pair<double, Sample>> nodes = curve_nodes(nullptr);
  // A run cut short by a failed window may have fewer than two windows:
  // every sample is a node then (a constant from a single one).
  if (nodes.size() < 2) {
    nodes.clear();
    for (const auto& [k, x] : samples_)
      nodes.emplace_back(static_cast<double>(k), x);
    if (nodes.size() == 1) nodes.emplace_back(nodes.front().first + 1.0, nodes.front().second);
    if (nodes.empty()) nodes = {{0.0, Sample{}}, {1.0, Sample{}}};
  }
  const CurveRule rule = rule_;
  const auto curve = [&](const auto& value) {
    std::vector<CurveNode> c;
    for (const auto& [step, sample] : nodes)
      c.push_back({step, value(sample)});
    return std::make_unique<StepCurve>(std::move(c), rule);
  };
  curves_ = std::make_unique<Curves>();
  curves_->step = curve([](const Sample& x) { return x.step_s; });
  for (std::size_t p = 0; p < kPhaseCount; ++p) {
    curves_->phase[p] = curve([p](const Sample& x) { return x.phase_s[p]; });
    curves_->mean_phase[p] = curve([p](const Sample& x) { return x.mean_phase_s[p]; });
  }
  return *curves_;
}

// A step between windows, read off the curve (never below zero: the
// parabolic rule can overshoot a node where the curve turns sharply).
double StepIntegration::read_off(const StepCurve& curve, std::int64_t k) {
  return std::max(0.0, curve.at(static_cast<double>(k)));
}

// The run's sampling error (docs/fast-mode.md, "integrating the curve"):
// the jackknife over the interior windows. Leaving window i out (its steps
// read off the curve through the others) gives a run time T_i; the
// standard error of the run time is sqrt((n-1)/n sum (T_i - mean T)^2),
// returned relative to `time_s`. Negative when fewer than two interior
// windows (nothing to leave out).
double StepIntegration::sampling_error_fraction(double time_s) const {
  const auto windows = interior_windows();
  if (windows.size() < 2 || time_s <= 0.0) return -1.0;
  std::vector<double> totals;
  for (const auto& skip : windows) {
    std::vector<CurveNode> nodes;
    for (const auto& [step, sample] : curve_nodes(&skip))
      nodes.push_back({step, sample.step_s});
    const StepCurve curve(std::move(nodes), rule_);
    double total_s = 0.0;
    for (std::int64_t k = 0; k <= steps_; ++k) {
      const auto it = samples_.find(k);
      const bool left_out = k >= skip.first && k <= skip.second;
      total_s += it != samples_.end() && !left_out ? it->second.step_s : read_off(curve, k);
    }
    totals.push_back(total_s);
  }
  const double n = static_cast<double>(totals.size());
  double mean = 0.0, squares = 0.0;
  for (double t : totals)
    mean += t / n;
  for (double t : totals)
    squares += (t - mean) * (t - mean);
  return std::sqrt((n - 1.0) / n * squares) / time_s;
}

double StepIntegration::interpolate_step_s(std::int64_t k) const {
  auto it = samples_.find(k);
  if (it != samples_.end()) return it->second.step_s;
  return read_off(*curves().step, k);
}

std::vector<StepRecord>
StepIntegration::step_records(std::int64_t n, std::int64_t nb,
                              const std::function<double(std::int64_t)>& step_flops) const {
  std::vector<StepRecord> records;
  double clock = 0.0;
  for (std::int64_t k = 0; k <= steps_; ++k) {
    StepRecord r;
    r.step = k;
    r.final_solve = k == steps_;
    r.matrix_fraction = double(std::min(k * nb, n)) / double(n);
    auto it = samples_.find(k);
    if (it != samples_.end()) {
      r.phase_s = it->second.phase_s;
      r.mean_phase_s = it->second.mean_phase_s;
      r.start_s = clock;
      clock += it->second.step_s;
      // HPL-MxP's final solve with some refinement iterations extrapolated
      // (docs/fast-mode.md, point 13): "extrapolated:k" for k simulated.
      const int simulated = it->second.refinement_iterations_simulated;
      r.how = simulated > 0 ? "extrapolated:" + std::to_string(simulated) : "simulated";
    } else {
      const auto hi = samples_.lower_bound(k);
      const std::int64_t lo_step = hi == samples_.begin() ? 0 : std::prev(hi)->first;
      const std::int64_t hi_step = hi == samples_.end() ? steps_ : hi->first;
      const Curves& c = curves();
      for (std::size_t p = 0; p < kPhaseCount; ++p) {
        r.phase_s[p] = read_off(*c.phase[p], k);
        r.mean_phase_s[p] = read_off(*c.mean_phase[p], k);
      }
      r.start_s = clock;
      clock += read_off(*c.step, k);
      r.how = "interpolated:" + std::to_string(lo_step) + "-" + std::to_string(hi_step);
    }
    r.end_s = clock;
    r.flops = step_flops(k);
    records.push_back(r);
  }
  return records;
}

} // namespace hplsim::sim
