// Least-squares calibration of the kernel cost models; method and its
// justification in kernel_fit.hpp and models/README.md.
#include "models/kernel_fit.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "models/kernel_cost_terms.hpp"

namespace hplsim::models {

namespace {

// Regressors of one sample (pfact: summed over the panel's columns).
CostTerms sample_terms(const std::string& record, const Sample& s) {
  KernelShape shape = shape_from_record_name(record, s.m, s.n, s.k);
  check_shape(shape);
  if (shape.kernel != traces::KERNEL_PFACT_COLUMN) return kernel_cost_terms(shape);
  CostTerms sum;
  const std::int64_t columns = std::min(s.m, s.n);
  for (std::int64_t j = 0; j < columns; ++j) {
    shape.m = s.m - j;
    shape.k = j;
    const CostTerms t = kernel_cost_terms(shape);
    sum.calls += t.calls;
    sum.work_flops += t.work_flops;
    sum.work_over_size += t.work_over_size;
  }
  return sum;
}

double sample_size(const std::string& record, const Sample& s) {
  const KernelShape shape = shape_from_record_name(record, s.m, s.n, s.k);
  return is_memory_bound(shape.kernel) ? kernel_bytes(shape) : kernel_size_measure(shape);
}

struct Solution {
  Eigen::VectorXd coef; // full-length, zeros where a column was dropped
  double residual = std::numeric_limits<double>::infinity();
  bool at_lower_bound = false; // the required column sits at its lower bound
};

// Least squares of rhs over columns of `a` (all scaled to unit norm inside),
// restricted to `used`, with the coefficient of `fixed` (if >= 0) held at
// `fixed_value`. Returns false if rank-deficient.
bool solve_subset(const Eigen::MatrixXd& a, const Eigen::VectorXd& rhs, const std::vector<int>& used,
                  Eigen::VectorXd& full) {
  full = Eigen::VectorXd::Zero(a.cols());
  if (used.empty()) return true;
  if (static_cast<Eigen::Index>(used.size()) > a.rows()) return false;
  Eigen::MatrixXd sub(a.rows(), static_cast<Eigen::Index>(used.size()));
  Eigen::VectorXd scale(sub.cols());
  for (Eigen::Index j = 0; j < sub.cols(); ++j) {
    sub.col(j) = a.col(used[static_cast<std::size_t>(j)]);
    scale(j) = sub.col(j).norm();
    if (scale(j) == 0.0) scale(j) = 1.0;
    sub.col(j) /= scale(j); // equilibrate: the columns span ~10 decades
  }
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(sub);
  if (qr.rank() < sub.cols()) return false;
  const Eigen::VectorXd x = qr.solve(rhs).cwiseQuotient(scale);
  for (Eigen::Index j = 0; j < x.size(); ++j)
    full(used[static_cast<std::size_t>(j)]) = x(j);
  return true;
}

// Bounded least squares: coefficient `required` >= required_min (> 0), the
// others >= 0. A convex problem whose optimum solves the unconstrained problem
// on its free set with the active bounds held; enumerating every active set
// (<= 2 optional columns, the required one free or at its bound) and keeping
// the feasible candidate of least residual finds it.
Solution bounded_least_squares(const Eigen::MatrixXd& a, const Eigen::VectorXd& rhs, int required,
                               double required_min) {
  const int cols = static_cast<int>(a.cols());
  Solution best;
  best.coef = Eigen::VectorXd::Zero(cols);
  for (unsigned mask = 0; mask < (1u << cols); ++mask) {
    if (!(mask & (1u << required))) continue;
    for (const bool at_bound : {false, true}) {
      std::vector<int> used;
      for (int c = 0; c < cols; ++c)
        if ((mask & (1u << c)) && !(at_bound && c == required)) used.push_back(c);
      const Eigen::VectorXd target = at_bound ? Eigen::VectorXd(rhs - required_min * a.col(required)) : rhs;
      Eigen::VectorXd full;
      if (!solve_subset(a, target, used, full)) continue;
      if (at_bound) full(required) = required_min;
      bool feasible = full(required) >= required_min * (1.0 - 1e-12);
      for (int c = 0; c < cols; ++c)
        if (!std::isfinite(full(c)) || full(c) < 0.0) feasible = false;
      if (!feasible) continue;
      const double r = (a * full - rhs).norm();
      if (r < best.residual) {
        best.residual = r;
        best.coef = full;
        best.at_lower_bound = at_bound;
      }
    }
  }
  return best;
}

std::string format_g(double v) {
  std::ostringstream os;
  os.precision(4);
  os << v;
  return os.str();
}

} // namespace

double sample_model_seconds(const KernelModels& models, const std::string& record_name, const Sample& s) {
  KernelShape shape = shape_from_record_name(record_name, s.m, s.n, s.k);
  if (shape.kernel != traces::KERNEL_PFACT_COLUMN) return models.seconds(shape);
  double t = 0.0;
  const std::int64_t columns = std::min(s.m, s.n);
  for (std::int64_t j = 0; j < columns; ++j) {
    shape.m = s.m - j;
    shape.k = j;
    t += models.seconds(shape);
  }
  return t;
}

FitResult fit_kernel(const std::vector<Sample>& samples, const std::string& record_name,
                     double peak_flops_per_s) {
  const KernelShape kind = shape_from_record_name(record_name, 0, 0, 0);
  const bool memory = is_memory_bound(kind.kernel);
  if (samples.empty()) throw std::invalid_argument("fit of '" + record_name + "': no samples");
  if (!memory && !(std::isfinite(peak_flops_per_s) && peak_flops_per_s > 0.0))
    throw std::invalid_argument("fit of '" + record_name + "': peak_flops_per_s must be > 0, got " +
                                std::to_string(peak_flops_per_s));
  const Eigen::Index rows = static_cast<Eigen::Index>(samples.size());
  // Columns: 0 = calls (overhead), 1 = work or bytes (required), 2 = work / s (compute-bound only).
  Eigen::MatrixXd a(rows, memory ? 2 : 3);
  Eigen::VectorXd rhs = Eigen::VectorXd::Ones(rows);
  double min_size = std::numeric_limits<double>::infinity();
  double max_size = 0.0;
  for (Eigen::Index i = 0; i < rows; ++i) {
    const Sample& s = samples[static_cast<std::size_t>(i)];
    const std::string at = "fit of '" + record_name + "', sample " + std::to_string(i);
    if (!(std::isfinite(s.seconds) && s.seconds > 0.0))
      throw std::invalid_argument(at + ": seconds must be > 0, got " + std::to_string(s.seconds));
    if (kind.kernel == traces::KERNEL_PFACT_COLUMN && s.k != 0)
      throw std::invalid_argument(at + ": k must be 0 for a pfact panel sample, got " + std::to_string(s.k));
    const CostTerms t = sample_terms(record_name, s);
    if (t.calls == 0.0)
      throw std::invalid_argument(at + ": empty shape (" + std::to_string(s.m) + " x " + std::to_string(s.n) +
                                  " x " + std::to_string(s.k) + ") costs 0 s by definition; cannot fit it");
    a(i, 0) = t.calls / s.seconds;
    a(i, 1) = (memory ? t.bytes : t.work_flops) / s.seconds;
    if (!memory) a(i, 2) = t.work_over_size / s.seconds;
    const double size = sample_size(record_name, s);
    min_size = std::min(min_size, size);
    max_size = std::max(max_size, size);
  }
  // Compute-bound: a = 1/(P*e) >= 1/P keeps max_efficiency <= 1. Memory-bound:
  // a = 1/B only > 0 (a tiny floor stands for it).
  const double a_min = memory ? std::numeric_limits<double>::min() : 1.0 / peak_flops_per_s;
  const Solution sol = bounded_least_squares(a, rhs, /*required=*/1, a_min);
  if (!std::isfinite(sol.residual))
    throw std::invalid_argument("fit of '" + record_name + "': no non-negative solution (samples: " +
                                std::to_string(rows) + "; are the timings increasing with size?)");

  FitResult out;
  KernelParams& p = out.params;
  p.set_name(record_name);
  p.set_launch_overhead_s(sol.coef(0));
  if (memory) {
    p.set_memory_bandwidth_bytes_per_s(1.0 / sol.coef(1));
  } else {
    p.set_peak_flops_per_s(peak_flops_per_s);
    p.set_max_efficiency(sol.at_lower_bound ? 1.0 : std::min(1.0, 1.0 / (sol.coef(1) * peak_flops_per_s)));
    out.efficiency_at_bound = sol.at_lower_bound;
    p.set_half_efficiency_size(sol.coef(2) / sol.coef(1));
  }
  p.set_fitted_min_size(min_size);
  p.set_fitted_max_size(max_size);

  KernelCalibration one;
  *one.add_kernels() = p;
  const KernelModels models(one);
  double sum_sq = 0.0;
  for (const Sample& s : samples) {
    const double r = (sample_model_seconds(models, record_name, s) - s.seconds) / s.seconds;
    out.relative_residuals.push_back(r);
    sum_sq += r * r;
  }
  out.rms_relative_residual = std::sqrt(sum_sq / static_cast<double>(samples.size()));
  return out;
}

CalibrationFit fit_kernel_samples(const std::vector<KernelSample>& samples, const PeakTable& peaks,
                                  const std::string& source) {
  std::map<std::string, std::vector<Sample>> by_record;
  for (const KernelSample& ks : samples)
    by_record[ks.kernel].push_back({ks.m, ks.n, ks.k, ks.seconds});
  CalibrationFit out;
  double sum_sq = 0.0;
  std::size_t count = 0;
  for (const auto& [name, group] : by_record) {
    const KernelShape kind = shape_from_record_name(name, 0, 0, 0);
    double peak = 0.0;
    if (!is_memory_bound(kind.kernel)) {
      const std::string coarse = name.substr(0, name.find('.')) + name.substr(name.rfind('.'));
      auto it = peaks.find(name);
      if (it == peaks.end()) it = peaks.find(coarse);
      if (it == peaks.end())
        throw std::invalid_argument("fit of '" + name + "': no peak_flops_per_s given (key '" + name +
                                    "' or '" + coarse + "')");
      peak = it->second;
    }
    FitResult fit = fit_kernel(group, name, peak);
    fit.params.set_source("least-squares fit (models/kernel_fit.hpp) to " + std::to_string(group.size()) +
                          " samples of " + source + "; rms relative residual " +
                          format_g(fit.rms_relative_residual) +
                          (fit.efficiency_at_bound ? "; max_efficiency held at its bound 1" : ""));
    for (double r : fit.relative_residuals)
      sum_sq += r * r;
    count += group.size();
    *out.calibration.add_kernels() = fit.params;
    out.fits.emplace_back(name, std::move(fit));
  }
  out.calibration.set_method("per-record non-negative linear least squares on relative residuals "
                             "(Eigen ColPivHouseholderQR), models/kernel_fit.hpp");
  out.calibration.set_rms_relative_residual(count == 0 ? 0.0
                                                       : std::sqrt(sum_sq / static_cast<double>(count)));
  return out;
}

KernelCalibration fit_kernels_csv(const std::string& path, const PeakTable& peaks) {
  return fit_kernel_samples(read_kernel_csv(path), peaks, path).calibration;
}

} // namespace hplsim::models
