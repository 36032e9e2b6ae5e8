#pragma once
// The shape of one kernel call: what the kernel cost models
// (models/kernel_model.hpp) price and their cost terms (models/kernel_cost_terms.hpp)
// are written in.
#include <cstdint>
#include <string>

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

} // namespace hplsim::models
