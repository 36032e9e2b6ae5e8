#pragma once
// HPL's operation count for an order-N solve, the figure every Rmax divides:
// 2/3 N^3 + 3/2 N^2 (netlib HPL 2.3, testing/ptest/HPL_pdtest.c; HPL-MxP
// reports the same count for its FP64-accurate solve).
#include <cstdint>

namespace hplsim::traces {

inline double hpl_flops(std::int64_t order) {
  const double n = static_cast<double>(order);
  return 2.0 / 3.0 * n * n * n + 1.5 * n * n;
}

} // namespace hplsim::traces
