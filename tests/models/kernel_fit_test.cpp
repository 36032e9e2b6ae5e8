// Kernel-model calibration: recovery of known parameters from synthetic timings.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "models/kernel_fit.hpp"
#include "test_files.hpp"

namespace hm = hplsim::models;

namespace {

hm::KernelCalibration one_record(const std::string& name, double peak, double eff, double half,
                                 double overhead, double bandwidth = 0.0) {
  hm::KernelCalibration c;
  hm::KernelParams* p = c.add_kernels();
  p->set_name(name);
  if (bandwidth > 0.0) {
    p->set_memory_bandwidth_bytes_per_s(bandwidth);
  } else {
    p->set_peak_flops_per_s(peak);
    p->set_max_efficiency(eff);
    p->set_half_efficiency_size(half);
  }
  p->set_launch_overhead_s(overhead);
  return c;
}

// Timings of `shapes` under the model, times a deterministic +-noise pattern.
std::vector<hm::Sample> synthesize(const hm::KernelCalibration& truth, const std::string& name,
                                   const std::vector<hm::Sample>& shapes, double noise) {
  const hm::KernelModels models(truth);
  std::vector<hm::Sample> out;
  int i = 0;
  for (hm::Sample s : shapes) {
    const double sign = (i++ % 3 == 0) ? 1.0 : ((i % 3 == 1) ? -1.0 : 0.0);
    s.seconds = hm::sample_model_seconds(models, name, s) * (1.0 + sign * noise);
    out.push_back(s);
  }
  return out;
}

std::vector<hm::Sample> gemm_shapes() {
  std::vector<hm::Sample> s;
  for (std::int64_t m : {64, 256, 1024, 4096})
    for (std::int64_t k : {32, 128, 512})
      s.push_back({m, m, k, 0.0});
  return s;
}

} // namespace

TEST(KernelFit, RecoversGemmParametersExactly) {
  // Truth: P = 1e12, e = 0.8, h = 100, o = 1e-5. Noise-free samples: the model is
  // linear in (o, 1/(P e), h/(P e)), so least squares recovers them to rounding.
  const auto truth = one_record("gpu.gemm.fp64", 1e12, 0.8, 100.0, 1e-5);
  const auto samples = synthesize(truth, "gpu.gemm.fp64", gemm_shapes(), 0.0);
  const hm::FitResult fit = hm::fit_kernel(samples, "gpu.gemm.fp64", 1e12);
  EXPECT_NEAR(fit.params.max_efficiency(), 0.8, 1e-9);
  EXPECT_NEAR(fit.params.half_efficiency_size(), 100.0, 1e-6);
  EXPECT_NEAR(fit.params.launch_overhead_s(), 1e-5, 1e-14);
  EXPECT_LT(fit.rms_relative_residual, 1e-9);
  EXPECT_FALSE(fit.efficiency_at_bound);
  ASSERT_EQ(fit.relative_residuals.size(), samples.size());
}

TEST(KernelFit, RecoversGemmParametersUnderNoise) {
  // +-5% multiplicative noise on every other sample: parameters within 10% (e, o)
  // and 30% (h: it only shows in the smallest shapes), rms residual ~ 0.05 * sqrt(2/3) = 0.041.
  const auto truth = one_record("gpu.gemm.fp64", 1e12, 0.8, 100.0, 1e-5);
  const auto samples = synthesize(truth, "gpu.gemm.fp64", gemm_shapes(), 0.05);
  const hm::FitResult fit = hm::fit_kernel(samples, "gpu.gemm.fp64", 1e12);
  EXPECT_NEAR(fit.params.max_efficiency(), 0.8, 0.08);
  EXPECT_NEAR(fit.params.half_efficiency_size(), 100.0, 30.0);
  EXPECT_NEAR(fit.params.launch_overhead_s(), 1e-5, 1e-6);
  EXPECT_LT(fit.rms_relative_residual, 0.05);
}

TEST(KernelFit, RecoversTrsmParameters) {
  const auto truth = one_record("cpu.trsm.fp64", 4e10, 0.7, 64.0, 2e-6);
  std::vector<hm::Sample> shapes;
  for (std::int64_t m : {16, 64, 256, 512})
    for (std::int64_t n : {128, 2048})
      shapes.push_back({m, n, 0, 0.0});
  const hm::FitResult fit =
      hm::fit_kernel(synthesize(truth, "cpu.trsm.fp64", shapes, 0.0), "cpu.trsm.fp64", 4e10);
  EXPECT_NEAR(fit.params.max_efficiency(), 0.7, 1e-9);
  EXPECT_NEAR(fit.params.half_efficiency_size(), 64.0, 1e-6);
  EXPECT_NEAR(fit.params.launch_overhead_s(), 2e-6, 1e-14);
}

TEST(KernelFit, RecoversPfactFromWholePanels) {
  // Samples are whole m x n panels (sum of per-column model times): the fit must
  // recover the per-column parameters.
  const auto truth = one_record("cpu.pfact.fp64", 4e10, 0.25, 12.0, 1e-7);
  std::vector<hm::Sample> shapes;
  for (std::int64_t m : {256, 4096, 65536})
    for (std::int64_t n : {4, 16, 32})
      shapes.push_back({m, n, 0, 0.0});
  const hm::FitResult fit =
      hm::fit_kernel(synthesize(truth, "cpu.pfact.fp64", shapes, 0.0), "cpu.pfact.fp64", 4e10);
  EXPECT_NEAR(fit.params.max_efficiency(), 0.25, 1e-9);
  EXPECT_NEAR(fit.params.half_efficiency_size(), 12.0, 1e-6);
  EXPECT_NEAR(fit.params.launch_overhead_s(), 1e-7, 1e-15);
}

TEST(KernelFit, RecoversMemoryBandwidth) {
  const auto truth = one_record("cpu.laswp.fp64", 0, 0, 0, 3e-7, /*bandwidth=*/8e9);
  std::vector<hm::Sample> shapes;
  for (std::int64_t m : {32, 128, 512})
    for (std::int64_t n : {256, 4096})
      shapes.push_back({m, n, 0, 0.0});
  const hm::FitResult fit =
      hm::fit_kernel(synthesize(truth, "cpu.laswp.fp64", shapes, 0.0), "cpu.laswp.fp64", 0.0);
  EXPECT_NEAR(fit.params.memory_bandwidth_bytes_per_s(), 8e9, 1.0);
  EXPECT_NEAR(fit.params.launch_overhead_s(), 3e-7, 1e-15);
  EXPECT_FALSE(fit.params.has_peak_flops_per_s());
}

TEST(KernelFit, HoldsEfficiencyAtOneWhenDataExceedThePeak) {
  // Timings made with P = 2e12, e = 0.9 but fitted against a peak of 1e12: the
  // unconstrained asymptotic rate 1.8e12 exceeds the peak, so e is held at 1.
  const auto truth = one_record("gpu.gemm.fp64", 2e12, 0.9, 100.0, 1e-5);
  const auto samples = synthesize(truth, "gpu.gemm.fp64", gemm_shapes(), 0.0);
  const hm::FitResult fit = hm::fit_kernel(samples, "gpu.gemm.fp64", 1e12);
  EXPECT_TRUE(fit.efficiency_at_bound);
  EXPECT_DOUBLE_EQ(fit.params.max_efficiency(), 1.0);
  EXPECT_GT(fit.rms_relative_residual, 0.1); // a peak 1.8x too low cannot fit well
}

TEST(KernelFit, OverheadIsNeverNegative) {
  // Timings with a constant offset subtracted (as if the timer overhead had
  // been over-corrected): the unconstrained fit would give o < 0; the bounded
  // one holds o = 0.
  const auto truth = one_record("gpu.gemm.fp64", 1e12, 0.8, 100.0, 0.0);
  auto samples = synthesize(truth, "gpu.gemm.fp64", gemm_shapes(), 0.0);
  for (auto& s : samples)
    s.seconds = std::max(s.seconds - 1e-7, s.seconds * 0.5);
  const hm::FitResult fit = hm::fit_kernel(samples, "gpu.gemm.fp64", 1e12);
  EXPECT_GE(fit.params.launch_overhead_s(), 0.0);
  EXPECT_GE(fit.params.half_efficiency_size(), 0.0);
}

TEST(KernelFit, RejectsEmptySampleSet) {
  EXPECT_THROW(hm::fit_kernel({}, "cpu.gemm.fp64", 1e10), std::invalid_argument);
}

TEST(KernelFit, RejectsZeroSizeSample) {
  EXPECT_THROW(hm::fit_kernel({{0, 10, 10, 1e-3}}, "cpu.gemm.fp64", 1e10), std::invalid_argument);
}

TEST(KernelFit, RejectsNonPositiveSeconds) {
  EXPECT_THROW(hm::fit_kernel({{10, 10, 10, 0.0}}, "cpu.gemm.fp64", 1e10), std::invalid_argument);
}

TEST(KernelFit, RejectsPfactSampleWithColumnIndex) {
  EXPECT_THROW(hm::fit_kernel({{100, 8, 3, 1e-5}}, "cpu.pfact.fp64", 1e10), std::invalid_argument);
}

TEST(KernelFit, RejectsMissingPeak) {
  EXPECT_THROW(hm::fit_kernel({{10, 10, 10, 1e-3}}, "cpu.gemm.fp64", 0.0), std::invalid_argument);
}

TEST(KernelFit, FitsEveryRecordOfACsvWithCoarsePeakKeys) {
  const auto gemm = one_record("cpu.gemm.fp64", 4e10, 0.9, 20.0, 1e-6);
  const auto gemv = one_record("cpu.gemv.fp64", 0, 0, 0, 1e-7, 2e10);
  std::string csv = "# synthetic\nkernel,m,n,k,seconds\n";
  for (const auto& s : synthesize(gemm, "cpu.gemm.fp64", gemm_shapes(), 0.0))
    csv += "cpu.gemm.fp64," + std::to_string(s.m) + "," + std::to_string(s.n) + "," + std::to_string(s.k) +
           "," + std::to_string(s.seconds) + "\n";
  for (const auto& s :
       synthesize(gemv, "cpu.gemv.fp64", {{100, 100, 0, 0}, {1000, 1000, 0, 0}, {4000, 4000, 0, 0}}, 0.0))
    csv += "cpu.gemv.fp64," + std::to_string(s.m) + "," + std::to_string(s.n) + ",0," +
           std::to_string(s.seconds) + "\n";
  const std::string path = hplsim::models::testing::write_scratch_file(".csv", csv);
  const hm::KernelCalibration c = hm::fit_kernels_csv(path, {{"cpu.fp64", 4e10}});
  ASSERT_EQ(c.kernels_size(), 2);
  EXPECT_EQ(c.kernels(0).name(), "cpu.gemm.fp64"); // sorted by name
  EXPECT_EQ(c.kernels(1).name(), "cpu.gemv.fp64");
  // std::to_string keeps 6 decimals of seconds: ~1e-6 s absolute rounding on
  // timings of 1e-5..1 s, so 5% tolerance on e and 2% on the bandwidth.
  EXPECT_NEAR(c.kernels(0).max_efficiency(), 0.9, 0.05);
  EXPECT_NEAR(c.kernels(1).memory_bandwidth_bytes_per_s(), 2e10, 0.02 * 2e10);
  EXPECT_NE(c.kernels(0).source().find(path), std::string::npos);
  EXPECT_THROW(hm::fit_kernels_csv(path, {{"gpu.fp64", 4e10}}), std::invalid_argument); // no cpu peak
}
