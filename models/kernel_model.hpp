#pragma once
// Kernel cost models: seconds for one kernel call of a given shape on a CPU
// core set or a GPU. The equations, their sources and validity ranges are in
// models/README.md and at each model's definition (kernel_model.cpp):
//   compute-bound (gemm, trsm, pfact, getrf):
//     t = launch_overhead_s + flops / (peak_flops_per_s * eff(s)),
//     eff(s) = max_efficiency * s / (s + half_efficiency_size)
//   memory-bound (laswp, gemv, trsv, idamax):
//     t = launch_overhead_s + bytes / memory_bandwidth_bytes_per_s
// s and bytes per kernel: models/kernel_cost_terms.hpp. A call with a zero
// dimension costs 0 s (no overhead); negative dimensions throw.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/calibration.pb.h"
#include "models/kernel_shape.hpp"
#include "traces/schedule.pb.h"

namespace hplsim::models {

/// Speed-up of a CPU kernel run on `threads` threads with serial fraction
/// `serial_fraction` (Amdahl, AFIPS 1967): 1 / (f + (1 - f) / threads).
/// Throws std::invalid_argument for threads < 1 or f outside [0, 1].
double amdahl_speedup(int threads, double serial_fraction);

/// How a rank runs its CPU kernels on several threads (docs/architecture.md, "CPU threads").
struct CpuThreading {
  int threads = 1;
  /// Amdahl serial fraction of the compute-bound kernels.
  double serial_fraction = 0.0;
  /// The bandwidth the rank's threads share for memory-bound kernels (its
  /// socket's sustained memory bandwidth / the socket's ranks); 0: unknown,
  /// then a memory-bound kernel runs at its one-core rate whatever the threads.
  double memory_bandwidth_bytes_per_s = 0.0;
};

class KernelModels {
public:
  /// Validates every record; throws std::invalid_argument naming the record and field.
  explicit KernelModels(const KernelCalibration& calibration);
  /// Seconds for one call. Throws std::out_of_range if no record prices this shape.
  double seconds(const KernelShape& shape) const;
  /// Seconds for one CPU call run on several threads: compute-bound kernels
  /// speed up by amdahl_speedup(threads, serial_fraction); memory-bound ones
  /// stream at min(threads x the record's one-core bandwidth, the rank's share
  /// of the socket's bandwidth). The launch overhead is paid once.
  double seconds(const KernelShape& shape, const CpuThreading& threading) const;
  bool has(const std::string& record_name) const;
  const KernelParams& params(const std::string& record_name) const;
  /// Record names, sorted.
  std::vector<std::string> record_names() const;
  /// Checks one record (name syntax, fields present and in range for its
  /// kernel kind); throws std::invalid_argument naming `where` and the field.
  static void validate(const KernelParams& record, const std::string& where);

private:
  std::unordered_map<std::string, KernelParams> records_;
};

} // namespace hplsim::models
