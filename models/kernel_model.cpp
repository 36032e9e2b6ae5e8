// Kernel cost models (roofline-with-efficiency-curve form).
//
// Equation (see kernel_model.hpp; derivation and sources in models/README.md):
//   compute-bound: t = o + W / (P * e * s / (s + h)) = o + (W + h * W / s) / (P * e)
//   memory-bound:  t = o + bytes / B
// W = kernel_flops(shape) (LAWN 41 counts), s = kernel_size_measure(shape),
// bytes = kernel_bytes(shape). Coefficients (o, P, e, h, B) come from
// calibration records (models/calibrations/*.textproto), never from code.
// Validity: every dimension >= 0; zero-size calls cost 0; records must have
// P > 0, 0 < e <= 1, h >= 0, o >= 0 (compute-bound) or B > 0 (memory-bound).
// t is monotone non-decreasing in m and n (and k for gemm): both W and W/s are.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "models/kernel_cost_terms.hpp"
#include "models/kernel_model.hpp"

namespace hplsim::models {

namespace {

[[noreturn]] void bad_field(const std::string& where, const std::string& field, const std::string& expected,
                            double got) {
  throw std::invalid_argument(where + ": " + field + " must be " + expected + ", got " + std::to_string(got));
}

} // namespace

void KernelModels::validate(const KernelParams& r, const std::string& where) {
  if (!r.has_name() || r.name().empty()) throw std::invalid_argument(where + ": name is required");
  const KernelShape shape = shape_from_record_name(r.name(), 0, 0, 0);
  const std::string at = where + " ('" + r.name() + "')";
  const double o = r.launch_overhead_s();
  if (!(std::isfinite(o) && o >= 0.0)) bad_field(at, "launch_overhead_s", ">= 0 and finite", o);
  if (is_memory_bound(shape.kernel)) {
    if (!r.has_memory_bandwidth_bytes_per_s())
      throw std::invalid_argument(at +
                                  ": memory_bandwidth_bytes_per_s is required for a memory-bound kernel");
    const double b = r.memory_bandwidth_bytes_per_s();
    if (!(std::isfinite(b) && b > 0.0)) bad_field(at, "memory_bandwidth_bytes_per_s", "> 0 and finite", b);
    return;
  }
  if (!r.has_peak_flops_per_s())
    throw std::invalid_argument(at + ": peak_flops_per_s is required for a compute-bound kernel");
  if (!r.has_max_efficiency())
    throw std::invalid_argument(at + ": max_efficiency is required for a compute-bound kernel");
  const double p = r.peak_flops_per_s();
  if (!(std::isfinite(p) && p > 0.0)) bad_field(at, "peak_flops_per_s", "> 0 and finite", p);
  const double e = r.max_efficiency();
  if (!(e > 0.0 && e <= 1.0)) bad_field(at, "max_efficiency", "in (0, 1]", e);
  const double h = r.half_efficiency_size();
  if (!(std::isfinite(h) && h >= 0.0)) bad_field(at, "half_efficiency_size", ">= 0 and finite", h);
}

KernelModels::KernelModels(const KernelCalibration& calibration) {
  for (int i = 0; i < calibration.kernels_size(); ++i) {
    const KernelParams& r = calibration.kernels(i);
    const std::string where = "kernels[" + std::to_string(i) + "]";
    validate(r, where);
    if (!records_.emplace(r.name(), r).second)
      throw std::invalid_argument(where + ": duplicate record name '" + r.name() + "'");
  }
}

bool KernelModels::has(const std::string& record_name) const {
  return records_.count(record_name) != 0;
}

const KernelParams& KernelModels::params(const std::string& record_name) const {
  const auto it = records_.find(record_name);
  if (it == records_.end())
    throw std::out_of_range("no kernel calibration record '" + record_name + "' (the calibration has " +
                            std::to_string(records_.size()) + " records)");
  return it->second;
}

std::vector<std::string> KernelModels::record_names() const {
  std::vector<std::string> names;
  names.reserve(records_.size());
  for (const auto& [name, record] : records_)
    names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

double KernelModels::seconds(const KernelShape& shape) const {
  return seconds(shape, CpuThreading{});
}

double KernelModels::seconds(const KernelShape& shape, const CpuThreading& threading) const {
  check_shape(shape);
  const KernelParams& r = params(kernel_record_name(shape));
  const CostTerms t = kernel_cost_terms(shape);
  if (t.calls == 0.0) return 0.0; // empty call: free, no launch overhead
  const bool threaded = shape.resource == traces::CPU && threading.threads > 1;
  if (is_memory_bound(shape.kernel)) {
    double bandwidth = r.memory_bandwidth_bytes_per_s();
    if (threaded && threading.memory_bandwidth_bytes_per_s > 0.0)
      bandwidth = std::max(bandwidth,
                           std::min(bandwidth * threading.threads, threading.memory_bandwidth_bytes_per_s));
    return r.launch_overhead_s() + t.bytes / bandwidth;
  }
  const double speedup = threaded ? amdahl_speedup(threading.threads, threading.serial_fraction) : 1.0;
  return r.launch_overhead_s() + (t.work_flops + r.half_efficiency_size() * t.work_over_size) /
                                     (r.peak_flops_per_s() * r.max_efficiency() * speedup);
}

} // namespace hplsim::models
