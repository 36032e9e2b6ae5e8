#pragma once
// Kernel cost models: seconds for one kernel call of a given shape on a CPU
// core set or a GPU. The equations, their sources and validity ranges are in
// models/README.md and at each model's definition.
#include <cstdint>
#include <string>
#include <unordered_map>

#include "models/calibration.pb.h"
#include "traces/schedule.pb.h"

namespace hplsim::models {

struct KernelShape {
  traces::Kernel kernel;
  traces::Resource resource;
  traces::Precision precision;
  std::int64_t m;
  std::int64_t n;
  std::int64_t k;
};

/// Useful floating-point operations of a kernel call (the flops HPL counts).
double kernel_flops(const KernelShape& shape);

/// The parameter-record name a shape is priced with, e.g. "gpu.gemm.fp64".
std::string kernel_record_name(const KernelShape& shape);

class KernelModels {
public:
  /// Validates every record; throws std::invalid_argument naming the record and field.
  explicit KernelModels(const KernelCalibration& calibration);
  /// Seconds for one call. Throws std::out_of_range if no record prices this shape.
  double seconds(const KernelShape& shape) const;
  bool has(const std::string& record_name) const;
  const KernelParams& params(const std::string& record_name) const;

private:
  std::unordered_map<std::string, KernelParams> records_;
};

} // namespace hplsim::models
