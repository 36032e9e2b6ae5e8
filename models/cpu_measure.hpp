#pragma once
// Measurement of this machine's CPU kernels through OpenBLAS (Debian
// libopenblas-dev): the samples kernel_fit.hpp calibrates the cpu.* records from.
//
// Kernels and how each record is timed (column-major, one call per sample):
//   cpu.gemm.fp64   cblas_dgemm C[m,n] -= A[m,k] B[k,n]              (HPL's trailing update)
//   cpu.trsm.fp64   cblas_dtrsm left, lower, unit, L[m,m], B[m,n]    (HPL's U-row solve)
//   cpu.pfact.fp64  LAPACK dgetf2_ (unblocked LU) on an m x n panel, n = 4..32: the leaves of
//                   HPL's recursive panel factorization, which traces/hpl_pfact.cpp emits
//                   column by column as KERNEL_PFACT_COLUMN (m rows, n = leaf width,
//                   k = column); a sample is the whole leaf (kernel_fit.hpp convention)
//   cpu.getrf.fp64  LAPACK dgetrf_ on an m x m block
//   cpu.gemv.fp64   cblas_dgemv y[m] -= A[m,n] x[n]
//   cpu.trsv.fp64   cblas_dtrsv lower, unit, L[m,m] (one right-hand side: n = 1)
//   cpu.idamax.fp64 cblas_idamax over m entries
//   cpu.laswp.fp64  row gather of m random rows x n columns into a buffer: a plain
//                   loop like HPL's HPL_dlaswp01T (HPL's swaps are not BLAS calls)
// dgetrf_/dgetf2_ are OpenBLAS's bundled LAPACK through its Fortran interface
// (<f77blas.h>): Debian's liblapacke-dev is not installed here, and the
// Fortran symbol is what LAPACKE would call anyway.
//
// Each sample is the median over `repeats` timings; a timing loops the call
// until it has run >= min_sample_s and divides (so microsecond calls are not
// timer noise); the timer's own cost (least of 200 empty timings) is
// subtracted per timed region. In-place kernels (trsm, getrf, trsv) get their
// input restored before every call, outside the timed region.
// Clock: with threads == 1 the calling thread's CPU time
// (CLOCK_THREAD_CPUTIME_ID; single-threaded OpenBLAS computes in the calling
// thread), so time the scheduler hands to other processes of a shared machine
// is not counted — on this project's 2-core box, shared with concurrent
// builds, wall-clock medians were off by 2-4x; what the simulator needs is
// what the kernel costs while it runs. With threads > 1: CLOCK_MONOTONIC.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "models/kernel_csv.hpp"

namespace hplsim::models {

enum class MeasureGrid {
  Small, // ~1-3 s on one core: the unit test's grid (sizes up to 1024, panel rows to 8192)
  Full,  // < 60 s on one core of a 2-core VM: sizes 32..3072 (pfact rows to 65536)
};

struct MeasureOptions {
  int threads = 1; // openblas_set_num_threads for the measurement; restored after
  int repeats = 5; // timings per shape; the median is written
  double min_sample_s = 2e-3;
  MeasureGrid grid = MeasureGrid::Full;
  /// Record names to measure (subset of the eight above); empty = all.
  std::vector<std::string> kernels;
};

struct MeasureShape {
  std::string kernel; // record name
  std::int64_t m = 0, n = 0, k = 0;
};

/// The shapes a grid measures, for the kernels in `kernels` (empty = all), in
/// a fixed order: by kernel, then by increasing work.
std::vector<MeasureShape> cpu_measure_grid(MeasureGrid grid, const std::vector<std::string>& kernels = {});

/// Times the shapes (median of options.repeats); throws std::invalid_argument
/// for a kernel this file cannot time or a bad option (threads < 1, repeats < 1).
std::vector<KernelSample> measure_cpu_shapes(const std::vector<MeasureShape>& shapes,
                                             const MeasureOptions& options);

/// Header + one row per shape of cpu_measure_grid(options.grid, options.kernels).
void measure_cpu_kernels(std::ostream& csv_out, const MeasureOptions& options);

/// measure_cpu_kernels restricted to cpu.gemm.fp64.
void measure_cpu_dgemm(std::ostream& csv_out, const MeasureOptions& options);

/// The FP64 peak the cpu.* fits are relative to, from the CPU rather than
/// from the measurement: cores * clock * flops_per_cycle, with the clock the
/// first "cpu MHz" of /proc/cpuinfo and flops/cycle from the ISA flags
/// (avx512f: 32, fma+avx2: 16, avx: 8, else 4; i.e. two FMA pipes of the widest
/// vector). Throws std::runtime_error if /proc/cpuinfo has no "cpu MHz".
struct CpuPeak {
  double flops_per_s = 0.0;
  double clock_hz = 0.0;
  int flops_per_cycle = 0;
  int cores = 0;
  std::string description; // how it was derived, for the record's source
};
CpuPeak cpu_peak_fp64(int cores, const std::string& cpuinfo_path = "/proc/cpuinfo");

/// OpenBLAS's build configuration and core (openblas_get_config / corename).
std::string blas_description();

} // namespace hplsim::models
