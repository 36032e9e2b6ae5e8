// Useful flops and record names of kernel calls. The flop counts are the
// standard LAPACK Working Note 41 counts (Blackford & Dongarra, "Installation
// guide for LAPACK", LAWN 41, table of operation counts), leading terms.
#include <stdexcept>
#include <string>

#include "models/kernel_model.hpp"

namespace hplsim::models {

double kernel_flops(const KernelShape& s) {
  const double m = static_cast<double>(s.m);
  const double n = static_cast<double>(s.n);
  const double k = static_cast<double>(s.k);
  switch (s.kernel) {
  case traces::KERNEL_GEMM:
    return 2.0 * m * n * k;
  case traces::KERNEL_TRSM:
    return m * m * n;
  case traces::KERNEL_PFACT_COLUMN: {
    // Column k of an m x n panel: scale (m) + rank-1 update of the columns to its right.
    const double right = n - k - 1.0;
    return m + 2.0 * m * (right > 0.0 ? right : 0.0);
  }
  case traces::KERNEL_LASWP:
    return 0.0; // data movement only
  case traces::KERNEL_GEMV:
    return 2.0 * m * n;
  case traces::KERNEL_TRSV:
    return m * m * (n > 0 ? n : 1.0);
  case traces::KERNEL_IDAMAX:
    return 0.0;
  case traces::KERNEL_GETRF_DIAG:
    return 2.0 / 3.0 * m * m * m;
  }
  throw std::invalid_argument("kernel_flops: unknown kernel " + std::to_string(static_cast<int>(s.kernel)));
}

double amdahl_speedup(int threads, double serial_fraction) {
  if (threads < 1)
    throw std::invalid_argument("amdahl_speedup: threads must be >= 1, got " + std::to_string(threads));
  if (!(serial_fraction >= 0.0 && serial_fraction <= 1.0))
    throw std::invalid_argument("amdahl_speedup: serial fraction must be in [0, 1], got " +
                                std::to_string(serial_fraction));
  return 1.0 / (serial_fraction + (1.0 - serial_fraction) / threads);
}

std::string kernel_record_name(const KernelShape& s) {
  std::string name = s.resource == traces::GPU ? "gpu." : "cpu.";
  switch (s.kernel) {
  case traces::KERNEL_GEMM:
    name += "gemm";
    break;
  case traces::KERNEL_TRSM:
    name += "trsm";
    break;
  case traces::KERNEL_PFACT_COLUMN:
    name += "pfact";
    break;
  case traces::KERNEL_LASWP:
    name += "laswp";
    break;
  case traces::KERNEL_GEMV:
    name += "gemv";
    break;
  case traces::KERNEL_TRSV:
    name += "trsv";
    break;
  case traces::KERNEL_IDAMAX:
    name += "idamax";
    break;
  case traces::KERNEL_GETRF_DIAG:
    name += "getrf";
    break;
  }
  switch (s.precision) {
  case traces::FP64:
    name += ".fp64";
    break;
  case traces::FP32:
    name += ".fp32";
    break;
  case traces::BF16:
    name += ".bf16";
    break;
  case traces::FP16:
    name += ".fp16";
    break;
  }
  return name;
}

} // namespace hplsim::models
