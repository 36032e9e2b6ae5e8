#pragma once
// Calibration of kernel cost models from timings (Eigen least squares).
//
// The model (kernel_model.hpp) is LINEAR in (o, a, b) = (launch_overhead_s,
// 1/(P*e), h/(P*e)):
//   compute-bound: t = o*calls + a*W + b*W/s        memory-bound: t = o*calls + a*bytes
// so the least-squares fit is exact linear least squares, not a
// linearisation. Rows are divided by the measured t, so what is minimised is
// the sum of squared RELATIVE residuals (timings span 5 decades; absolute
// residuals would let the largest shapes decide everything). Bounds: o >= 0,
// b >= 0, and a >= 1/P (max_efficiency <= 1: a curve fitted to small shapes
// may extrapolate past the peak). The bounded problem is solved by
// enumerating its active sets (each column free or at its bound) with Eigen's
// ColPivHouseholderQR and keeping the feasible solution of least residual:
// with <= 3 unknowns that enumeration IS the bounded least-squares optimum.
// Then e = 1/(P*a), h = b/a, B = 1/a.
//
// Sample convention: one call of the record's shape, except for pfact records,
// where a sample is a whole m x n panel (k must be 0) factored column by
// column: its model time is the sum over columns j = 0..min(m,n)-1 of the
// per-column model with rows m - j, width n, column index j — what timing one
// unblocked LAPACK dgetf2 of an m x n panel measures (cpu_measure.hpp).
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "models/calibration.pb.h"
#include "models/kernel_csv.hpp"
#include "models/kernel_model.hpp"

namespace hplsim::models {

struct Sample {
  std::int64_t m = 0;
  std::int64_t n = 0;
  std::int64_t k = 0;
  double seconds = 0.0;
};

struct FitResult {
  KernelParams params; // name, peak (compute-bound), fitted coefficients, fitted size range, source
  /// (model - measured) / measured per sample, in input order.
  std::vector<double> relative_residuals;
  double rms_relative_residual = 0.0;
  /// True when max_efficiency was held at 1 by its bound (the data alone
  /// would extrapolate past the peak).
  bool efficiency_at_bound = false;
};

/// Fits one record. `peak_flops_per_s` is the peak the efficiency is relative
/// to (ignored for memory-bound records). Throws std::invalid_argument if
/// there are no samples, a sample is empty or has seconds <= 0, a pfact sample
/// has k != 0, peak_flops_per_s <= 0 for a compute-bound record, or no
/// feasible solution exists.
FitResult fit_kernel(const std::vector<Sample>& samples, const std::string& record_name,
                     double peak_flops_per_s);

/// Model seconds of one sample under `models` (pfact: the whole panel, see above).
double sample_model_seconds(const KernelModels& models, const std::string& record_name, const Sample& sample);

/// Peaks by record name ("cpu.gemm.fp64") or by "<resource>.<precision>"
/// ("cpu.fp64"), the exact name taking precedence.
using PeakTable = std::map<std::string, double>;

struct CalibrationFit {
  KernelCalibration calibration; // records sorted by name; date left empty for the caller
  std::vector<std::pair<std::string, FitResult>> fits; // same order
};

/// Fits every record present in `samples`. `source` names where the samples
/// come from (a file, a command) and is written into each record's source.
/// Throws std::invalid_argument if a compute-bound record has no peak in `peaks`.
CalibrationFit fit_kernel_samples(const std::vector<KernelSample>& samples, const PeakTable& peaks,
                                  const std::string& source);

/// read_kernel_csv(path) then fit_kernel_samples(..., source = path).
KernelCalibration fit_kernels_csv(const std::string& path, const PeakTable& peaks);

} // namespace hplsim::models
