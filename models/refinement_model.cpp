#include "models/refinement_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace hplsim::models {

double unit_roundoff(traces::Precision precision) {
  switch (precision) {
  case traces::FP64:
    return std::ldexp(1.0, -53);
  case traces::FP32:
    return std::ldexp(1.0, -24);
  case traces::BF16:
    return std::ldexp(1.0, -8);
  case traces::FP16:
    return std::ldexp(1.0, -11);
  }
  throw std::invalid_argument("unit_roundoff: unknown precision");
}

int refinement_iterations(std::int64_t n, traces::Precision storage, RefinementKind kind) {
  if (n < 1) throw std::invalid_argument("refinement_iterations: n must be >= 1, got " + std::to_string(n));
  constexpr double kKappa = 4.0; // [U] diagonally dominant HPL-MxP matrix
  double rho = std::min(0.5, kKappa * unit_roundoff(storage));
  if (kind == RefinementKind::Gmres) rho *= rho;
  const double target = unit_roundoff(traces::FP64) * std::sqrt(static_cast<double>(n));
  const double iterations = std::ceil(std::log(target) / std::log(rho));
  return static_cast<int>(std::clamp(iterations, 1.0, 50.0));
}

} // namespace hplsim::models
