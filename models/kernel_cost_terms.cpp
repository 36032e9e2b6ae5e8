// Size measures and byte counts of kernel calls; see kernel_cost_terms.hpp and
// models/README.md ("Kernel cost models") for the definitions and the reasons.
#include "models/kernel_cost_terms.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace hplsim::models {

namespace {

double harmonic2(double a, double b) {
  return 2.0 / (1.0 / a + 1.0 / b);
}

double harmonic3(double a, double b, double c) {
  return 3.0 / (1.0 / a + 1.0 / b + 1.0 / c);
}

[[noreturn]] void bad_record(const std::string& name, const std::string& why) {
  throw std::invalid_argument("kernel record name '" + name +
                              "' must read <cpu|gpu>.<gemm|trsm|pfact|laswp|gemv|trsv|idamax|getrf>."
                              "<fp64|fp32|bf16|fp16>: " +
                              why);
}

} // namespace

double element_bytes(traces::Precision precision) {
  switch (precision) {
  case traces::FP64:
    return 8.0;
  case traces::FP32:
    return 4.0;
  case traces::BF16:
  case traces::FP16:
    return 2.0;
  }
  throw std::invalid_argument("element_bytes: unknown precision " +
                              std::to_string(static_cast<int>(precision)));
}

bool is_memory_bound(traces::Kernel kernel) {
  switch (kernel) {
  case traces::KERNEL_LASWP:
  case traces::KERNEL_GEMV:
  case traces::KERNEL_TRSV:
  case traces::KERNEL_IDAMAX:
    return true;
  case traces::KERNEL_GEMM:
  case traces::KERNEL_TRSM:
  case traces::KERNEL_PFACT_COLUMN:
  case traces::KERNEL_GETRF_DIAG:
    return false;
  }
  throw std::invalid_argument("is_memory_bound: unknown kernel " + std::to_string(static_cast<int>(kernel)));
}

KernelShape shape_from_record_name(const std::string& record_name, std::int64_t m, std::int64_t n,
                                   std::int64_t k) {
  const auto dot1 = record_name.find('.');
  const auto dot2 = dot1 == std::string::npos ? std::string::npos : record_name.find('.', dot1 + 1);
  if (dot2 == std::string::npos || record_name.find('.', dot2 + 1) != std::string::npos)
    bad_record(record_name, "expected three dot-separated parts");
  const std::string resource = record_name.substr(0, dot1);
  const std::string kernel = record_name.substr(dot1 + 1, dot2 - dot1 - 1);
  const std::string precision = record_name.substr(dot2 + 1);
  KernelShape s{};
  if (resource == "cpu")
    s.resource = traces::CPU;
  else if (resource == "gpu")
    s.resource = traces::GPU;
  else
    bad_record(record_name, "unknown resource '" + resource + "'");
  if (kernel == "gemm")
    s.kernel = traces::KERNEL_GEMM;
  else if (kernel == "trsm")
    s.kernel = traces::KERNEL_TRSM;
  else if (kernel == "pfact")
    s.kernel = traces::KERNEL_PFACT_COLUMN;
  else if (kernel == "laswp")
    s.kernel = traces::KERNEL_LASWP;
  else if (kernel == "gemv")
    s.kernel = traces::KERNEL_GEMV;
  else if (kernel == "trsv")
    s.kernel = traces::KERNEL_TRSV;
  else if (kernel == "idamax")
    s.kernel = traces::KERNEL_IDAMAX;
  else if (kernel == "getrf")
    s.kernel = traces::KERNEL_GETRF_DIAG;
  else
    bad_record(record_name, "unknown kernel '" + kernel + "'");
  if (precision == "fp64")
    s.precision = traces::FP64;
  else if (precision == "fp32")
    s.precision = traces::FP32;
  else if (precision == "bf16")
    s.precision = traces::BF16;
  else if (precision == "fp16")
    s.precision = traces::FP16;
  else
    bad_record(record_name, "unknown precision '" + precision + "'");
  s.m = m;
  s.n = n;
  s.k = k;
  return s;
}

void check_shape(const KernelShape& shape) {
  const auto check = [&](const char* dim, std::int64_t v) {
    if (v < 0)
      throw std::invalid_argument("kernel shape of '" + kernel_record_name(shape) + "': " + dim +
                                  " must be >= 0, got " + std::to_string(v));
  };
  check("m", shape.m);
  check("n", shape.n);
  check("k", shape.k);
  // A panel column's index lies inside the panel (the work formula, and the
  // monotonicity in n, hold only there).
  if (shape.kernel == traces::KERNEL_PFACT_COLUMN && shape.n > 0 && shape.k >= shape.n)
    throw std::invalid_argument("kernel shape of '" + kernel_record_name(shape) +
                                "': column index k = " + std::to_string(shape.k) +
                                " must be < the panel width n = " + std::to_string(shape.n));
}

bool is_empty_call(const KernelShape& s) {
  switch (s.kernel) {
  case traces::KERNEL_GEMM:
    return s.m == 0 || s.n == 0 || s.k == 0;
  case traces::KERNEL_TRSM:
  case traces::KERNEL_PFACT_COLUMN:
  case traces::KERNEL_LASWP:
  case traces::KERNEL_GEMV:
    return s.m == 0 || s.n == 0;
  case traces::KERNEL_TRSV: // n = 0 means one right-hand side (as in kernel_flops)
  case traces::KERNEL_IDAMAX:
  case traces::KERNEL_GETRF_DIAG:
    return s.m == 0;
  }
  throw std::invalid_argument("is_empty_call: unknown kernel " + std::to_string(static_cast<int>(s.kernel)));
}

double kernel_size_measure(const KernelShape& s) {
  if (is_memory_bound(s.kernel))
    throw std::logic_error("kernel_size_measure: '" + kernel_record_name(s) + "' is memory bound");
  if (is_empty_call(s)) return 0.0;
  const double m = static_cast<double>(s.m);
  const double n = static_cast<double>(s.n);
  const double k = static_cast<double>(s.k);
  switch (s.kernel) {
  case traces::KERNEL_GEMM:
    return harmonic3(m, n, k);
  case traces::KERNEL_TRSM: // the triangle's order bounds the inner dimension of its GEMM updates
    return std::min(m, n);
  case traces::KERNEL_PFACT_COLUMN: // leaf width n matters as much as the rows (measured: models/README.md)
    return harmonic2(m, n);
  case traces::KERNEL_GETRF_DIAG:
    return m;
  default:
    break;
  }
  throw std::logic_error("kernel_size_measure: unhandled kernel");
}

double kernel_bytes(const KernelShape& s) {
  if (!is_memory_bound(s.kernel))
    throw std::logic_error("kernel_bytes: '" + kernel_record_name(s) + "' is compute bound");
  if (is_empty_call(s)) return 0.0;
  const double m = static_cast<double>(s.m);
  const double n = static_cast<double>(s.n);
  const double e = element_bytes(s.precision);
  switch (s.kernel) {
  case traces::KERNEL_LASWP: // each of the m x n elements read once and written once
    return e * 2.0 * m * n;
  case traces::KERNEL_GEMV: // A read, x read, y read and written
    return e * (m * n + n + 2.0 * m);
  case traces::KERNEL_TRSV: // triangle read, right-hand sides read and written
    return e * (m * (m + 1.0) / 2.0 + 2.0 * m * (n > 0.0 ? n : 1.0));
  case traces::KERNEL_IDAMAX:
    return e * m;
  default:
    break;
  }
  throw std::logic_error("kernel_bytes: unhandled kernel");
}

CostTerms kernel_cost_terms(const KernelShape& shape) {
  CostTerms t;
  if (is_empty_call(shape)) return t;
  t.calls = 1.0;
  if (is_memory_bound(shape.kernel)) {
    t.bytes = kernel_bytes(shape);
  } else {
    t.work_flops = kernel_flops(shape);
    t.work_over_size = t.work_flops / kernel_size_measure(shape);
  }
  return t;
}

} // namespace hplsim::models
