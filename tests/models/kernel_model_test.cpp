// Kernel cost models: worked numbers, zero-size calls, validity ranges, monotonicity.
#include <gtest/gtest.h>

#include <stdexcept>

#include "models/kernel_cost_terms.hpp"
#include "models/kernel_model.hpp"

namespace hm = hplsim::models;
namespace ht = hplsim::traces;

namespace {

hm::KernelParams compute_record(const std::string& name, double peak, double eff, double half,
                                double overhead) {
  hm::KernelParams p;
  p.set_name(name);
  p.set_peak_flops_per_s(peak);
  p.set_max_efficiency(eff);
  p.set_half_efficiency_size(half);
  p.set_launch_overhead_s(overhead);
  return p;
}

hm::KernelParams memory_record(const std::string& name, double bandwidth, double overhead) {
  hm::KernelParams p;
  p.set_name(name);
  p.set_memory_bandwidth_bytes_per_s(bandwidth);
  p.set_launch_overhead_s(overhead);
  return p;
}

// One record per CPU FP64 kernel (values arbitrary but valid).
hm::KernelCalibration all_cpu_fp64() {
  hm::KernelCalibration c;
  for (const char* k : {"gemm", "trsm", "pfact", "getrf"})
    *c.add_kernels() = compute_record(std::string("cpu.") + k + ".fp64", 1e10, 0.8, 50.0, 1e-6);
  for (const char* k : {"laswp", "gemv", "trsv", "idamax"})
    *c.add_kernels() = memory_record(std::string("cpu.") + k + ".fp64", 1e10, 1e-7);
  return c;
}

hm::KernelShape shape(ht::Kernel k, std::int64_t m, std::int64_t n, std::int64_t kk, ht::Resource r = ht::CPU,
                      ht::Precision p = ht::FP64) {
  return {k, r, p, m, n, kk};
}

} // namespace

TEST(KernelModels, GemmWorkedNumber) {
  hm::KernelCalibration c;
  *c.add_kernels() = compute_record("gpu.gemm.fp64", 1e12, 0.8, 100.0, 1e-5);
  const hm::KernelModels models(c);
  // s = 3/(1/1000 + 1/1000 + 1/100) = 250; eff = 0.8 * 250/350 = 0.571429;
  // t = 1e-5 + 2e8 / (1e12 * 0.571429) = 1e-5 + 3.5e-4 = 3.6e-4 s (models/README.md, worked number).
  EXPECT_NEAR(models.seconds(shape(ht::KERNEL_GEMM, 1000, 1000, 100, ht::GPU)), 3.6e-4, 1e-12);
}

TEST(KernelModels, TrsmUsesTheSmallerDimensionAsSize) {
  hm::KernelCalibration c;
  *c.add_kernels() = compute_record("cpu.trsm.fp64", 1e10, 0.5, 64.0, 0.0);
  const hm::KernelModels models(c);
  // m = 128, n = 4096: W = 128^2 * 4096 = 6.7109e7, s = 128, eff = 0.5 * 128/192 = 1/3,
  // t = 6.7109e7 / (1e10 / 3) = 2.01327e-2 s.
  EXPECT_NEAR(models.seconds(shape(ht::KERNEL_TRSM, 128, 4096, 0)), 3.0 * 128.0 * 128.0 * 4096.0 / 1e10,
              1e-12);
}

TEST(KernelModels, LaswpIsPricedByBytes) {
  hm::KernelCalibration c;
  *c.add_kernels() = memory_record("gpu.laswp.bf16", 1e12, 5e-6);
  const hm::KernelModels models(c);
  // 384 rows x 10000 columns of bf16, each read and written: 2 * 2 * 384 * 1e4 = 1.536e7 B;
  // t = 5e-6 + 1.536e7 / 1e12 = 2.036e-5 s.
  EXPECT_NEAR(models.seconds(shape(ht::KERNEL_LASWP, 384, 10000, 0, ht::GPU, ht::BF16)), 2.036e-5, 1e-15);
}

TEST(KernelModels, ThreadedComputeBoundKernelsFollowAmdahl) {
  hm::KernelCalibration c;
  *c.add_kernels() = compute_record("cpu.trsm.fp64", 1e10, 0.5, 64.0, 1e-6);
  const hm::KernelModels models(c);
  const auto s = shape(ht::KERNEL_TRSM, 128, 4096, 0);
  const double one = models.seconds(s);
  // 16 threads, serial fraction 0.05: speed-up 1/(0.05 + 0.95/16) = 9.1429 on
  // the work; the launch overhead (1e-6 s) is paid once.
  const double sixteen = models.seconds(s, hm::CpuThreading{16, 0.05, 0.0});
  EXPECT_NEAR(sixteen, 1e-6 + (one - 1e-6) / 9.142857142857, 1e-12);
  // One thread = the unthreaded price.
  EXPECT_DOUBLE_EQ(models.seconds(s, hm::CpuThreading{1, 0.05, 1e12}), one);
}

TEST(KernelModels, ThreadedMemoryBoundKernelsShareTheSocketBandwidth) {
  hm::KernelCalibration c;
  *c.add_kernels() = memory_record("cpu.gemv.fp64", 2e10, 0.0);
  *c.add_kernels() = memory_record("gpu.gemv.fp64", 2e12, 0.0);
  const hm::KernelModels models(c);
  const auto s = shape(ht::KERNEL_GEMV, 10000, 1000, 0);
  const double one = models.seconds(s);
  // 4 threads x 20 GB/s = 80 GB/s under a 100 GB/s cap: 4x faster.
  EXPECT_NEAR(models.seconds(s, hm::CpuThreading{4, 0.0, 1e11}), one / 4.0, 1e-12 * one);
  // 52 threads would stream 1.04 TB/s; the rank's share of the socket caps it at 100 GB/s: 5x.
  EXPECT_NEAR(models.seconds(s, hm::CpuThreading{52, 0.0, 1e11}), one / 5.0, 1e-12 * one);
  // No socket bandwidth given: the one-core rate, whatever the threads.
  EXPECT_DOUBLE_EQ(models.seconds(s, hm::CpuThreading{52, 0.0, 0.0}), one);
  // GPU kernels ignore CPU threading.
  const auto g = shape(ht::KERNEL_GEMV, 10000, 1000, 0, ht::GPU);
  EXPECT_DOUBLE_EQ(models.seconds(g, hm::CpuThreading{52, 0.0, 1e11}), models.seconds(g));
}

TEST(KernelModels, PfactColumnWorkedNumber) {
  hm::KernelCalibration c;
  *c.add_kernels() = compute_record("cpu.pfact.fp64", 4e10, 0.25, 10.0, 1e-7);
  const hm::KernelModels models(c);
  // m = 1000, n = 8, k = 2: W = 1000 + 2*1000*5 = 11000 flops; s = 2/(1/1000 + 1/8) = 15.873;
  // eff = 0.25 * 15.873/25.873 = 0.153374; t = 1e-7 + 11000/(4e10 * 0.153374) = 1.8930e-6 s.
  const double s = 2.0 / (1.0 / 1000.0 + 1.0 / 8.0);
  const double expected = 1e-7 + 11000.0 / (4e10 * 0.25 * s / (s + 10.0));
  EXPECT_NEAR(models.seconds(shape(ht::KERNEL_PFACT_COLUMN, 1000, 8, 2)), expected, 1e-15);
  EXPECT_NEAR(expected, 1.8930e-6, 1e-9);
}

TEST(KernelModels, ZeroSizeCallsAreFree) {
  const hm::KernelModels models(all_cpu_fp64());
  // Zero in any dimension the kernel uses: 0 s, no launch overhead.
  EXPECT_EQ(models.seconds(shape(ht::KERNEL_GEMM, 0, 100, 100)), 0.0);
  EXPECT_EQ(models.seconds(shape(ht::KERNEL_GEMM, 100, 0, 100)), 0.0);
  EXPECT_EQ(models.seconds(shape(ht::KERNEL_GEMM, 100, 100, 0)), 0.0);
  EXPECT_EQ(models.seconds(shape(ht::KERNEL_TRSM, 0, 100, 0)), 0.0);
  EXPECT_EQ(models.seconds(shape(ht::KERNEL_TRSM, 100, 0, 0)), 0.0);
  EXPECT_EQ(models.seconds(shape(ht::KERNEL_PFACT_COLUMN, 0, 8, 0)), 0.0);
  EXPECT_EQ(models.seconds(shape(ht::KERNEL_LASWP, 0, 100, 0)), 0.0);
  EXPECT_EQ(models.seconds(shape(ht::KERNEL_LASWP, 100, 0, 0)), 0.0);
  EXPECT_EQ(models.seconds(shape(ht::KERNEL_GEMV, 100, 0, 0)), 0.0);
  EXPECT_EQ(models.seconds(shape(ht::KERNEL_TRSV, 0, 1, 0)), 0.0);
  EXPECT_EQ(models.seconds(shape(ht::KERNEL_IDAMAX, 0, 0, 0)), 0.0);
  EXPECT_EQ(models.seconds(shape(ht::KERNEL_GETRF_DIAG, 0, 0, 0)), 0.0);
  // A non-empty call pays at least its overhead.
  EXPECT_GE(models.seconds(shape(ht::KERNEL_IDAMAX, 1, 0, 0)), 1e-7);
}

TEST(KernelModels, RejectsNegativeDimension) {
  const hm::KernelModels models(all_cpu_fp64());
  EXPECT_THROW(models.seconds(shape(ht::KERNEL_GEMM, -1, 10, 10)), std::invalid_argument);
  EXPECT_THROW(models.seconds(shape(ht::KERNEL_GEMM, 10, -1, 10)), std::invalid_argument);
  EXPECT_THROW(models.seconds(shape(ht::KERNEL_GEMM, 10, 10, -1)), std::invalid_argument);
}

TEST(KernelModels, RejectsPfactColumnOutsideThePanel) {
  const hm::KernelModels models(all_cpu_fp64());
  EXPECT_THROW(models.seconds(shape(ht::KERNEL_PFACT_COLUMN, 100, 8, 8)), std::invalid_argument);
  EXPECT_NO_THROW(models.seconds(shape(ht::KERNEL_PFACT_COLUMN, 100, 8, 7)));
}

TEST(KernelModels, MissingRecordIsOutOfRange) {
  const hm::KernelModels models(all_cpu_fp64());
  EXPECT_THROW(models.seconds(shape(ht::KERNEL_GEMM, 10, 10, 10, ht::GPU)), std::out_of_range);
  EXPECT_FALSE(models.has("gpu.gemm.fp64"));
  EXPECT_TRUE(models.has("cpu.gemm.fp64"));
  EXPECT_EQ(models.record_names().size(), 8u);
}

TEST(KernelModels, RejectsEfficiencyAboveOne) {
  hm::KernelCalibration c;
  *c.add_kernels() = compute_record("cpu.gemm.fp64", 1e10, 1.2, 0.0, 0.0);
  try {
    const hm::KernelModels models(c);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("max_efficiency"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("kernels[0]"), std::string::npos) << e.what();
  }
}

TEST(KernelModels, RejectsComputeRecordWithoutPeak) {
  hm::KernelCalibration c;
  hm::KernelParams p = compute_record("cpu.gemm.fp64", 1e10, 0.5, 0.0, 0.0);
  p.clear_peak_flops_per_s();
  *c.add_kernels() = p;
  EXPECT_THROW(hm::KernelModels{c}, std::invalid_argument);
}

TEST(KernelModels, RejectsMemoryRecordWithoutBandwidth) {
  hm::KernelCalibration c;
  *c.add_kernels() = compute_record("cpu.gemv.fp64", 1e10, 0.5, 0.0, 0.0);
  EXPECT_THROW(hm::KernelModels{c}, std::invalid_argument);
}

TEST(KernelModels, RejectsNegativeOverhead) {
  hm::KernelCalibration c;
  *c.add_kernels() = memory_record("cpu.gemv.fp64", 1e10, -1e-6);
  EXPECT_THROW(hm::KernelModels{c}, std::invalid_argument);
}

TEST(KernelModels, RejectsDuplicateRecord) {
  hm::KernelCalibration c;
  *c.add_kernels() = memory_record("cpu.gemv.fp64", 1e10, 0.0);
  *c.add_kernels() = memory_record("cpu.gemv.fp64", 2e10, 0.0);
  EXPECT_THROW(hm::KernelModels{c}, std::invalid_argument);
}

TEST(KernelModels, RejectsMalformedRecordName) {
  for (const char* bad : {"gpu.gemm", "tpu.gemm.fp64", "gpu.gemx.fp64", "gpu.gemm.fp8", "gpu.gemm.fp64.x"}) {
    hm::KernelCalibration c;
    *c.add_kernels() = memory_record(bad, 1e10, 0.0);
    EXPECT_THROW(hm::KernelModels{c}, std::invalid_argument) << bad;
  }
}

TEST(KernelModels, TimeIsMonotoneInEveryDimension) {
  // Every kernel, sweeping one dimension at a time over 0..4096 with the others
  // fixed at small and large values; pfact's k is a column index, not a size
  // (its work m + 2m(n-k-1) shrinks with k), so only m and n are swept for it.
  const hm::KernelModels models(all_cpu_fp64());
  const std::vector<std::int64_t> others = {1, 7, 64, 1000};
  for (ht::Kernel k : {ht::KERNEL_GEMM, ht::KERNEL_TRSM, ht::KERNEL_PFACT_COLUMN, ht::KERNEL_LASWP,
                       ht::KERNEL_GEMV, ht::KERNEL_TRSV, ht::KERNEL_IDAMAX, ht::KERNEL_GETRF_DIAG}) {
    for (int dim = 0; dim < 3; ++dim) {
      if (k == ht::KERNEL_PFACT_COLUMN && dim == 2) continue;
      for (std::int64_t a : others)
        for (std::int64_t b : others) {
          double previous = 0.0;
          for (std::int64_t v = 0; v <= 4096; v = v < 16 ? v + 1 : v + v / 3) {
            std::int64_t d[3] = {a, b, k == ht::KERNEL_PFACT_COLUMN ? 0 : a};
            d[dim] = v;
            if (dim != 0) d[0] = a;
            if (dim != 1) d[1] = b;
            const double t = models.seconds(shape(k, d[0], d[1], d[2]));
            EXPECT_GE(t, previous) << hm::kernel_record_name(shape(k, 0, 0, 0)) << " dim " << dim << " = "
                                   << v << " others " << a << "," << b;
            previous = t;
          }
        }
    }
  }
}

TEST(KernelCostTerms, ParsesRecordNames) {
  const hm::KernelShape s = hm::shape_from_record_name("gpu.laswp.bf16", 3, 4, 5);
  EXPECT_EQ(s.kernel, ht::KERNEL_LASWP);
  EXPECT_EQ(s.resource, ht::GPU);
  EXPECT_EQ(s.precision, ht::BF16);
  EXPECT_EQ(hm::kernel_record_name(s), "gpu.laswp.bf16");
  EXPECT_EQ(s.m, 3);
}

TEST(KernelCostTerms, GemvAndTrsvBytes) {
  // gemv 100 x 50 fp32: 4 * (5000 + 50 + 200) = 21000 B.
  EXPECT_DOUBLE_EQ(hm::kernel_bytes(shape(ht::KERNEL_GEMV, 100, 50, 0, ht::CPU, ht::FP32)), 21000.0);
  // trsv m = 10, n = 0 (one right-hand side): 8 * (55 + 20) = 600 B.
  EXPECT_DOUBLE_EQ(hm::kernel_bytes(shape(ht::KERNEL_TRSV, 10, 0, 0)), 600.0);
}
