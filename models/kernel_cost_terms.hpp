#pragma once
// The per-kernel quantities both the kernel cost model (kernel_model.cpp) and
// its calibration (kernel_fit.cpp) are written in, so the two cannot drift
// apart. Definitions and their justification: models/README.md, "Kernel
// cost models".
#include <cstdint>
#include <string>

#include "models/kernel_shape.hpp"

namespace hplsim::models {

/// Bytes of one element: fp64 8, fp32 4, bf16 2, fp16 2 (IEEE 754 / bfloat16 formats).
double element_bytes(traces::Precision precision);

/// True for kernels priced by the bytes they move (laswp, gemv, trsv, idamax),
/// false for those priced by flops (gemm, trsm, pfact, getrf).
bool is_memory_bound(traces::Kernel kernel);

/// The shape a record name prices: "gpu.gemm.fp64" -> {KERNEL_GEMM, GPU, FP64, m, n, k}.
/// Throws std::invalid_argument naming the record unless it reads
/// "<cpu|gpu>.<gemm|trsm|pfact|laswp|gemv|trsv|idamax|getrf>.<fp64|fp32|bf16|fp16>".
KernelShape shape_from_record_name(const std::string& record_name, std::int64_t m, std::int64_t n,
                                   std::int64_t k);

/// Throws std::invalid_argument naming the dimension if m, n or k is negative,
/// or, for pfact, if the column index k is not < the panel width n (n > 0).
void check_shape(const KernelShape& shape);

/// True when a dimension the kernel uses is 0 (gemm: m, n or k; trsm, pfact,
/// laswp, gemv: m or n; trsv, idamax, getrf: m). Such calls cost 0 s.
bool is_empty_call(const KernelShape& shape);

/// Size measure s of a compute-bound call: gemm 3/(1/m+1/n+1/k); trsm
/// min(m, n); pfact 2/(1/m+1/n); getrf m. 0 for an empty call. Not defined (throws
/// std::logic_error) for memory-bound kernels.
double kernel_size_measure(const KernelShape& shape);

/// Bytes a memory-bound call moves: laswp 2mn, gemv mn+n+2m, trsv
/// m(m+1)/2 + 2m*max(n,1), idamax m, each times element_bytes. Throws
/// std::logic_error for compute-bound kernels.
double kernel_bytes(const KernelShape& shape);

/// The regressors of the cost model: for one call priced by a record with
/// overhead o, peak P, max_efficiency e, half size h, bandwidth B,
///   compute-bound: t = o*calls + (work_flops + h*work_over_size)/(P*e)
///   memory-bound:  t = o*calls + bytes/B
/// An empty call has every term 0.
struct CostTerms {
  double calls = 0.0;
  double work_flops = 0.0;
  double work_over_size = 0.0; // work_flops / s
  double bytes = 0.0;
};
CostTerms kernel_cost_terms(const KernelShape& shape);

} // namespace hplsim::models
