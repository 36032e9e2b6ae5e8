// CPU measurement through OpenBLAS: a small grid is timed, the model fitted on
// the even-indexed shapes of each kernel predicts the odd-indexed ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "models/cpu_measure.hpp"
#include "models/kernel_csv.hpp"
#include "models/kernel_fit.hpp"
#include "test_files.hpp"

namespace hm = hplsim::models;

TEST(CpuMeasure, FitOnEvenShapesPredictsOddShapes) {
  // Tolerance: ~25% per-shape noise on this shared 2-core box (microsecond
  // panels under a concurrent build: up to 27% seen) on top of the model-form
  // error on held-out k = 32 GEMMs whose C no longer fits in L2 (0.30-0.40 in
  // every run; models/README.md, limitations): 60% on any one held-out shape,
  // 25% on the (upper) median, which is what the model is judged by (observed
  // 0.02-0.22 over 14 runs at load average 5-10). Timings use the thread's CPU
  // time, so another process's compile on the second core does not count as
  // kernel time; it still shares the caches.
  // A measurement another process disturbed (the suite runs two tests at a
  // time) is taken again once: the test fails only when both attempts miss.
  hm::MeasureOptions options;
  options.grid = hm::MeasureGrid::Small;
  options.repeats = 5;
  options.kernels = {"cpu.gemm.fp64", "cpu.trsm.fp64", "cpu.pfact.fp64"};
  const double peak = hm::cpu_peak_fp64(1).flops_per_s;
  std::vector<std::string> misses;
  for (int attempt = 1; attempt <= 2; ++attempt) {
    misses.clear();
    const auto samples = hm::measure_cpu_shapes(hm::cpu_measure_grid(options.grid, options.kernels), options);
    for (const std::string& record : options.kernels) {
      std::vector<hm::Sample> even, odd;
      int i = 0;
      for (const auto& s : samples)
        if (s.kernel == record) (i++ % 2 == 0 ? even : odd).push_back({s.m, s.n, s.k, s.seconds});
      ASSERT_GE(even.size(), 3u) << record;
      ASSERT_GE(odd.size(), 3u) << record;
      const hm::FitResult fit = hm::fit_kernel(even, record, peak);
      hm::KernelCalibration c;
      *c.add_kernels() = fit.params;
      const hm::KernelModels models(c);
      std::vector<double> errors;
      for (const auto& s : odd) {
        const double predicted = hm::sample_model_seconds(models, record, s);
        const double rel = (predicted - s.seconds) / s.seconds;
        std::printf("attempt %d %-15s %6lld %6lld %6lld measured %.4e predicted %.4e residual %+.3f\n",
                    attempt, record.c_str(), static_cast<long long>(s.m), static_cast<long long>(s.n),
                    static_cast<long long>(s.k), s.seconds, predicted, rel);
        if (std::abs(rel) >= 0.6)
          misses.push_back(record + " " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                           std::to_string(s.k) + ": held-out error " + std::to_string(rel));
        errors.push_back(std::abs(rel));
      }
      std::nth_element(errors.begin(), errors.begin() + static_cast<long>(errors.size() / 2), errors.end());
      if (errors[errors.size() / 2] >= 0.25)
        misses.push_back(record + ": median held-out error " + std::to_string(errors[errors.size() / 2]));
      std::printf("%-15s fit on %zu even shapes: max_efficiency %.3f half %.3g overhead %.3g s\n",
                  record.c_str(), even.size(), fit.params.max_efficiency(), fit.params.half_efficiency_size(),
                  fit.params.launch_overhead_s());
    }
    if (misses.empty()) break;
  }
  for (const std::string& m : misses)
    ADD_FAILURE() << m;
}

TEST(CpuMeasure, WritesCsvTheFitCanRead) {
  hm::MeasureOptions options;
  options.repeats = 1;
  options.min_sample_s = 0.0;
  options.grid = hm::MeasureGrid::Small;
  options.kernels = {"cpu.idamax.fp64", "cpu.trsv.fp64"};
  std::ostringstream csv;
  hm::measure_cpu_kernels(csv, options);
  std::istringstream in(csv.str());
  const auto rows = hm::read_kernel_csv(in, "measured");
  EXPECT_EQ(rows.size(), hm::cpu_measure_grid(options.grid, options.kernels).size());
  for (const auto& r : rows)
    EXPECT_GT(r.seconds, 0.0);
}

TEST(CpuMeasure, GridHasHplShapes) {
  const auto grid = hm::cpu_measure_grid(hm::MeasureGrid::Full, {"cpu.gemm.fp64"});
  // HPL's trailing update: m = n, k = NB in {32..512}, sizes up to ~3000.
  EXPECT_NE(std::find_if(grid.begin(), grid.end(),
                         [](const hm::MeasureShape& s) { return s.m == 3072 && s.n == 3072 && s.k == 512; }),
            grid.end());
  EXPECT_NE(std::find_if(grid.begin(), grid.end(),
                         [](const hm::MeasureShape& s) { return s.m == 64 && s.k == 64; }),
            grid.end());
}

TEST(CpuMeasure, RejectsUnknownKernel) {
  EXPECT_THROW(hm::cpu_measure_grid(hm::MeasureGrid::Small, {"gpu.gemm.fp64"}), std::invalid_argument);
}

TEST(CpuMeasure, RejectsZeroThreads) {
  hm::MeasureOptions options;
  options.threads = 0;
  EXPECT_THROW(hm::measure_cpu_shapes({{"cpu.gemm.fp64", 8, 8, 8}}, options), std::invalid_argument);
}

TEST(CpuPeak, DerivedFromCpuinfo) {
  // 2 cores x 2445.402 MHz x 16 (fma + avx2) = 7.82529e10 flop/s.
  const std::string path = hplsim::models::testing::write_scratch_file(
      ".cpuinfo",
      "processor\t: 0\nmodel name\t: AMD EPYC\ncpu MHz\t\t: 2445.402\nflags\t\t: fpu sse2 avx fma avx2\n");
  const hm::CpuPeak p = hm::cpu_peak_fp64(2, path);
  EXPECT_EQ(p.flops_per_cycle, 16);
  EXPECT_NEAR(p.flops_per_s, 2 * 2445.402e6 * 16, 1.0);
  EXPECT_NE(p.description.find("2445.402"), std::string::npos);
}

TEST(CpuPeak, Avx512DoublesFlopsPerCycle) {
  const std::string path = hplsim::models::testing::write_scratch_file(
      ".cpuinfo", "cpu MHz\t: 2000\nflags\t: avx fma avx2 avx512f\n");
  EXPECT_EQ(hm::cpu_peak_fp64(1, path).flops_per_cycle, 32);
}

TEST(CpuPeak, RejectsCpuinfoWithoutClock) {
  const std::string path = hplsim::models::testing::write_scratch_file(".cpuinfo", "flags\t: avx\n");
  EXPECT_THROW(hm::cpu_peak_fp64(1, path), std::runtime_error);
}
