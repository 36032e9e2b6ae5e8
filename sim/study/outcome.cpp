#include "sim/study/outcome.hpp"

#include <algorithm>
#include <cmath>

#include "models/failure_model.hpp"

namespace hplsim::sim {

Spread spread_of(std::vector<double> v) {
  Spread s;
  s.count = static_cast<int>(v.size());
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  double sum = 0.0;
  for (const double x : v)
    sum += x;
  s.mean = sum / static_cast<double>(v.size());
  const auto at = [&v](double q) {
    const double rank = q * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(rank));
    const std::size_t hi = std::min(v.size() - 1, lo + 1);
    return v[lo] + (rank - static_cast<double>(lo)) * (v[hi] - v[lo]);
  };
  s.p5 = at(0.05);
  s.p50 = at(0.50);
  s.p95 = at(0.95);
  return s;
}

Interval wilson_interval(int successes, int trials, double z) {
  if (trials <= 0) return {0.0, 1.0};
  const double n = trials, p = successes / n, z2 = z * z;
  const double center = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
  return {std::max(0.0, center - half), std::min(1.0, center + half)};
}

Outcome outcome_of(const std::vector<TrialRow>& rows, std::optional<double> rate_per_hour,
                   double fault_free_time_s) {
  Outcome o;
  o.trials = static_cast<int>(rows.size());
  std::vector<double> times, rmax, lost;
  double failed_time_s = 0.0;
  for (const TrialRow& r : rows) {
    o.restart_setup_s = r.restart_setup_s;
    if (r.completed) {
      ++o.completed;
      times.push_back(r.time_s);
      rmax.push_back(r.rmax_flops_per_s);
    } else {
      lost.push_back(r.lost_work_s);
      failed_time_s += r.time_s;
    }
  }
  o.p_complete = o.trials > 0 ? double(o.completed) / o.trials : 0.0;
  o.p_complete_95 = wilson_interval(o.completed, o.trials);
  o.time_s = spread_of(times);
  o.rmax_flops_per_s = spread_of(rmax);
  o.lost_work_s = spread_of(lost);
  if (o.completed > 0) {
    const int failed = o.trials - o.completed;
    const double failed_attempts = double(failed) / o.completed; // (1 - p) / p
    const double mean_failed_s = failed > 0 ? failed_time_s / failed : 0.0;
    o.expected_time_to_result_s = failed_attempts * (mean_failed_s + o.restart_setup_s) + o.time_s.mean;
  }
  if (rate_per_hour && fault_free_time_s > 0.0) {
    o.closed_form_p_complete = std::exp(-*rate_per_hour * fault_free_time_s / 3600.0);
    o.closed_form_time_to_result_s =
        models::expected_time_to_success_s(*rate_per_hour, fault_free_time_s, o.restart_setup_s);
  }
  return o;
}

} // namespace hplsim::sim
