#pragma once
// Kernel timing samples as CSV: the exchange format between measurement
// (cpu_measure.hpp, or any external benchmark) and calibration (kernel_fit.hpp).
//
//   # comment lines and blank lines are skipped anywhere
//   kernel,m,n,k,seconds
//   cpu.gemm.fp64,1024,1024,256,0.0162
//
// kernel is a record name (kernel_record_name); m, n, k integers >= 0 in the
// record's shape convention (for pfact: a whole m x n panel, k = 0 — see
// kernel_fit.hpp); seconds > 0, the time of one call.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace hplsim::models {

struct KernelSample {
  std::string kernel; // record name, e.g. "cpu.gemm.fp64"
  std::int64_t m = 0;
  std::int64_t n = 0;
  std::int64_t k = 0;
  double seconds = 0.0;
  int line = 0; // 1-based line in the file it was read from (0 if not from a file)
};

/// The header line read_kernel_csv expects and write_kernel_csv_header writes.
inline constexpr const char* kKernelCsvHeader = "kernel,m,n,k,seconds";

/// Reads samples; throws std::invalid_argument "path:line: column 'NAME': ..."
/// for a missing/wrong header, a wrong column count, a bad record name, a
/// non-integer or negative dimension, or seconds that are not a finite number > 0.
/// Throws std::runtime_error if the file cannot be opened.
std::vector<KernelSample> read_kernel_csv(const std::string& path);

/// Same, from a stream; `display_name` stands for the path in messages.
std::vector<KernelSample> read_kernel_csv(std::istream& in, const std::string& display_name);

void write_kernel_csv_header(std::ostream& out);
/// One row; seconds printed with 6 significant digits.
void write_kernel_csv_row(std::ostream& out, const KernelSample& sample);

} // namespace hplsim::models
