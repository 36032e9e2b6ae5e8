#include "sim/report/result_time.hpp"

#include <algorithm>
#include <cmath>

namespace hplsim::sim {

std::vector<std::pair<double, double>> result_time_cdf(const std::vector<double>& completed_s,
                                                       const std::vector<double>& failed_s, double restart_s,
                                                       int grid) {
  if (completed_s.empty() || grid < 1) return {};
  const double n = static_cast<double>(completed_s.size() + failed_s.size());
  const double p = static_cast<double>(completed_s.size()) / n;
  const double longest_completed = *std::max_element(completed_s.begin(), completed_s.end());
  double longest_failed = 0;
  for (const double x : failed_s)
    longest_failed = std::max(longest_failed, x + restart_s);
  // Enough failed attempts that 99% of the results come after at most that many.
  const int attempts = p < 1.0 ? static_cast<int>(std::ceil(std::log(0.01) / std::log(1.0 - p))) : 1;
  const double end_s = std::max(longest_completed + (attempts - 1) * longest_failed, 1e-300);
  const double step = end_s / grid;
  const auto bin = [&](double t) {
    return static_cast<std::size_t>(std::max(0.0, std::ceil(t / step - 1e-9)));
  };
  const std::size_t bins = static_cast<std::size_t>(grid) + 1;
  std::vector<double> done(bins, 0.0), failed(bins, 0.0);
  for (const double c : completed_s)
    if (bin(c) < bins) done[bin(c)] += 1.0 / n; // P(this attempt completes at c)
  for (const double x : failed_s)
    if (bin(x + restart_s) < bins) failed[bin(x + restart_s)] += 1.0 / n;
  // before[t]: P(the failed attempts so far took t); density[t]: P(the result at t).
  std::vector<double> before(bins, 0.0), density(bins, 0.0);
  before[0] = 1.0;
  // Only the bins some trial fell in carry mass: the convolutions run over those.
  std::vector<std::size_t> done_bins, failed_bins;
  for (std::size_t b = 0; b < bins; ++b) {
    if (done[b] > 0.0) done_bins.push_back(b);
    if (failed[b] > 0.0) failed_bins.push_back(b);
  }
  // At most kMaxAttempts restarts are followed (with 1 completion in 1,000
  // trials, 99% of the results need 4,603): past it the curve ends below 1.
  constexpr int kMaxAttempts = 1000;
  const int followed = std::min(attempts + 200, kMaxAttempts);
  for (int k = 0; k<followed&& * std::max_element(before.begin(), before.end())> 1e-12; ++k) {
    std::vector<double> next(bins, 0.0);
    for (std::size_t a = 0; a < bins; ++a) {
      if (before[a] == 0.0) continue;
      for (const std::size_t b : done_bins)
        if (a + b < bins) density[a + b] += before[a] * done[b];
      for (const std::size_t b : failed_bins)
        if (a + b < bins) next[a + b] += before[a] * failed[b];
    }
    before = std::move(next);
  }
  std::vector<std::pair<double, double>> out;
  double sum = 0;
  for (std::size_t i = 0; i < bins; ++i) {
    sum += density[i];
    out.emplace_back(static_cast<double>(i) * step, std::min(1.0, sum));
  }
  return out;
}

} // namespace hplsim::sim
