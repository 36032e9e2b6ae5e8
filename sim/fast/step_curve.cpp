#include "sim/fast/step_curve.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hplsim::sim {

namespace {

// Fritsch & Butland's slopes (F. N. Fritsch and J. Butland, "A method for
// constructing local monotone piecewise cubic interpolants", SIAM J. Sci.
// Stat. Comput. 5(2), 1984): a weighted harmonic mean of the neighbouring
// secants, zero where they change sign; the end slopes by the one-sided
// three-point formula, limited so as not to overshoot (as SciPy's
// PchipInterpolator does).
std::vector<double> monotone_slopes(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n = x.size();
  std::vector<double> h(n - 1), d(n - 1), m(n, 0.0);
  for (std::size_t i = 0; i + 1 < n; ++i) {
    h[i] = x[i + 1] - x[i];
    d[i] = (y[i + 1] - y[i]) / h[i];
  }
  if (n == 2) return {d[0], d[0]};
  for (std::size_t i = 1; i + 1 < n; ++i) {
    if (d[i - 1] * d[i] <= 0.0) continue;
    const double w1 = 2.0 * h[i] + h[i - 1], w2 = h[i] + 2.0 * h[i - 1];
    m[i] = (w1 + w2) / (w1 / d[i - 1] + w2 / d[i]);
  }
  const auto end = [](double h0, double h1, double d0, double d1) {
    const double s = ((2.0 * h0 + h1) * d0 - h0 * d1) / (h0 + h1);
    if (s * d0 <= 0.0) return 0.0;
    if (d0 * d1 <= 0.0 && std::abs(s) > std::abs(3.0 * d0)) return 3.0 * d0;
    return s;
  };
  m[0] = end(h[0], h[1], d[0], d[1]);
  m[n - 1] = end(h[n - 2], h[n - 3], d[n - 2], d[n - 3]);
  return m;
}

// Each node's slope is that of the parabola through it and its two
// neighbours (the ends: through the first or last three nodes), so the
// interpolant is exact on quadratics, the shape of a GEMM-bound curve (its
// work falls with the square of the trailing matrix).
std::vector<double> parabolic_slopes(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n = x.size();
  if (n == 2) {
    const double d = (y[1] - y[0]) / (x[1] - x[0]);
    return {d, d};
  }
  std::vector<double> m(n);
  const auto secant = [&](std::size_t i) { return (y[i + 1] - y[i]) / (x[i + 1] - x[i]); };
  for (std::size_t i = 1; i + 1 < n; ++i) {
    const double h0 = x[i] - x[i - 1], h1 = x[i + 1] - x[i];
    m[i] = (h1 * secant(i - 1) + h0 * secant(i)) / (h0 + h1);
  }
  {
    const double h0 = x[1] - x[0], h1 = x[2] - x[1], d0 = secant(0), d1 = secant(1);
    m[0] = d0 - (d1 - d0) * h0 / (h0 + h1);
  }
  {
    const double h0 = x[n - 2] - x[n - 3], h1 = x[n - 1] - x[n - 2], d0 = secant(n - 3), d1 = secant(n - 2);
    m[n - 1] = d1 + (d1 - d0) * h1 / (h0 + h1);
  }
  return m;
}

} // namespace

StepCurve::StepCurve(std::vector<CurveNode> nodes, CurveRule rule) : rule_(rule) {
  if (nodes.size() < 2) throw std::invalid_argument("StepCurve: fewer than two nodes");
  for (const CurveNode& c : nodes) {
    if (!x_.empty() && !(c.step > x_.back()))
      throw std::invalid_argument("StepCurve: node steps must increase");
    x_.push_back(c.step);
    y_.push_back(c.value);
  }
  if (rule == CurveRule::MonotoneCubic) slope_ = monotone_slopes(x_, y_);
  if (rule == CurveRule::Parabolic) slope_ = parabolic_slopes(x_, y_);
}

double StepCurve::at(double step) const {
  const auto hi = std::upper_bound(x_.begin(), x_.end() - 1, step);
  const std::size_t i = hi == x_.begin() ? 0 : static_cast<std::size_t>(hi - x_.begin()) - 1;
  const double h = x_[i + 1] - x_[i], t = (step - x_[i]) / h;
  if (rule_ == CurveRule::Linear) return y_[i] + t * (y_[i + 1] - y_[i]);
  const double t2 = t * t, t3 = t2 * t;
  return (2 * t3 - 3 * t2 + 1) * y_[i] + (t3 - 2 * t2 + t) * h * slope_[i] + (-2 * t3 + 3 * t2) * y_[i + 1] +
         (t3 - t2) * h * slope_[i + 1];
}

} // namespace hplsim::sim
