// The shipped calibration records (models/calibrations/*.textproto): they load
// and validate, carry the published figures they cite, and the workstation one
// is reproducible from its CSV.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "models/calibration_io.hpp"
#include "models/kernel_fit.hpp"
#include "models/kernel_model.hpp"
#include "test_files.hpp"
#include "traces/mpi_collectives.hpp"

namespace hm = hplsim::models;
using hplsim::models::testing::source_path;

namespace {

std::map<std::string, hm::KernelParams> by_name(const hm::KernelCalibration& c) {
  std::map<std::string, hm::KernelParams> out;
  for (const auto& k : c.kernels())
    out[k.name()] = k;
  return out;
}

const char* const kKernelFiles[] = {"aurora-node.textproto", "aurora-node-noamx.textproto",
                                    "aurora-node-gpu1500.textproto", "cpu-workstation.textproto"};
const char* const kProtocolFiles[] = {"marenostrum4-opa.textproto", "bxi-v2.textproto",
                                      "infiniband-ndr.textproto"};
const char* const kVariabilityFiles[] = {"aurora-at-scale.textproto", "marenostrum4-noise.textproto"};
const char* const kMpiFiles[] = {"mpich-3.2-collectives.textproto"};

} // namespace

TEST(CalibrationFiles, EveryShippedFileLoadsAndValidates) {
  // Every .textproto of the folder, including ones written later by `hplsim
  // calibrate`: protocol presets and variability files by name, everything else
  // as a KernelCalibration.
  const std::set<std::string> protocol(std::begin(kProtocolFiles), std::end(kProtocolFiles));
  const std::set<std::string> variability(std::begin(kVariabilityFiles), std::end(kVariabilityFiles));
  const std::set<std::string> mpi_tables(std::begin(kMpiFiles), std::end(kMpiFiles));
  std::set<std::string> seen;
  for (const auto& e : std::filesystem::directory_iterator(source_path("models/calibrations"))) {
    if (e.path().extension() != ".textproto") continue;
    const std::string name = e.path().filename().string();
    seen.insert(name);
    if (protocol.count(name)) {
      EXPECT_NO_THROW(hm::load_protocol_params(e.path().string())) << name;
    } else if (mpi_tables.count(name)) {
      hplsim::mpi::MpiCollectives m;
      EXPECT_NO_THROW(hm::read_text_message(e.path().string(), m)) << name;
      EXPECT_NO_THROW(hplsim::mpi::validate_collectives(m)) << name;
    } else if (variability.count(name)) {
      hm::VariabilityParams v;
      EXPECT_NO_THROW(hm::read_text_message(e.path().string(), v)) << name;
    } else {
      EXPECT_NO_THROW(hm::load_kernel_calibration(e.path().string())) << name;
    }
  }
  for (const char* f : kKernelFiles)
    EXPECT_TRUE(seen.count(f)) << f << " missing";
  for (const char* f : kProtocolFiles)
    EXPECT_TRUE(seen.count(f)) << f << " missing";
  for (const char* f : kVariabilityFiles)
    EXPECT_TRUE(seen.count(f)) << f << " missing";
  for (const char* f : kMpiFiles)
    EXPECT_TRUE(seen.count(f)) << f << " missing";
}

TEST(AuroraCalibration, AtScaleFileHoldsOnlyTheFittedNodeFactorMarkedAsFitted) {
  // The Aurora model has one fitted parameter: aurora-at-scale.textproto sets the
  // per-node, per-step GPU factor and nothing else, and says what it was
  // fitted to and by what.
  hm::VariabilityParams v;
  hm::read_text_message(source_path("models/calibrations/aurora-at-scale.textproto"), v);
  EXPECT_GT(v.node_gpu_step_cv(), 0.0);
  hm::VariabilityParams only_factor;
  only_factor.set_node_gpu_step_cv(v.node_gpu_step_cv());
  only_factor.set_source(v.source());
  // ... and names the published figure it was fitted to, by the id the
  // flagship scenario gives its reference (so that run reports it as a fit target).
  ASSERT_EQ(v.fit_targets_size(), 1);
  EXPECT_EQ(v.fit_targets(0), "aurora-hpl-top500-2024-11");
  only_factor.add_fit_targets(v.fit_targets(0));
  EXPECT_EQ(v.SerializeAsString(), only_factor.SerializeAsString());
  EXPECT_NE(v.source().find("FITTED to the SC24 HPL Rmax 1.012 EF/s"), std::string::npos);
  EXPECT_NE(v.source().find("scripts/fit-at-scale.sh"), std::string::npos);
}

TEST(CalibrationFiles, LoaderNamesFileLineAndColumnOfUnknownField) {
  const std::string path =
      hplsim::models::testing::write_scratch_file(".textproto", "date: \"x\"\nbogus: 1\n");
  try {
    hm::load_kernel_calibration(path);
    FAIL();
  } catch (const std::invalid_argument& e) {
    // Protobuf's tokenizer points just past the field name (column 6, 1-based).
    EXPECT_NE(std::string(e.what()).find(path + ":2:6:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bogus"), std::string::npos) << e.what();
  }
}

TEST(CalibrationFiles, LoaderNamesInvalidRecord) {
  const std::string path = hplsim::models::testing::write_scratch_file(
      ".textproto", "kernels { name: \"cpu.gemm.fp64\" peak_flops_per_s: 1e9 max_efficiency: 2 }\n");
  try {
    hm::load_kernel_calibration(path);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("kernels[0] ('cpu.gemm.fp64'): max_efficiency"), std::string::npos)
        << e.what();
  }
}

TEST(AuroraCalibration, GpuFp64PeaksAddUpToThePublishedNodePeak) {
  const auto k =
      by_name(hm::load_kernel_calibration(source_path("models/calibrations/aurora-node.textproto")));
  // Aurora paper (arXiv 2604.09517): 145 TFLOP/s FP64 per node over 6 GPUs; record has 6 digits.
  EXPECT_NEAR(6.0 * k.at("gpu.trsm.fp64").peak_flops_per_s(), 145e12, 1e-5 * 145e12);
  // ALCF's measured Aurora node GEMM rates (argonne-lcf/user-guides, node-performance-overview):
  // BF16GEMM 2645 TFlop/s per node of 6 GPUs; 3 significant digits in the record.
  EXPECT_NEAR(6.0 * k.at("gpu.gemm.bf16").peak_flops_per_s(), 2645e12, 0.002 * 2645e12);
  // The DGEMM ceiling is ALCF's measured DGEMM, 179 TFlop/s per node / 6 GPUs
  // (5 significant digits in the record), not a fit to the 1-node HPL figure:
  // that figure is predicted from it (docs/aurora.md).
  EXPECT_NEAR(6.0 * k.at("gpu.gemm.fp64").peak_flops_per_s(), 179e12, 1e-4 * 179e12);
  EXPECT_EQ(k.at("gpu.gemm.fp64").max_efficiency(), 1.0);
  EXPECT_EQ(k.at("gpu.gemm.fp64").source().rfind("MEASURED", 0), 0u);
}

TEST(AuroraCalibration, HasEveryRecordAnHplRunOnGpusUses) {
  const hm::KernelModels models(
      hm::load_kernel_calibration(source_path("models/calibrations/aurora-node.textproto")));
  for (const char* r : {"gpu.gemm.fp64", "gpu.trsm.fp64", "gpu.laswp.fp64", "cpu.pfact.fp64", "cpu.trsm.fp64",
                        "cpu.gemm.fp64", "cpu.idamax.fp64", "cpu.laswp.fp64", "cpu.gemv.fp64",
                        "cpu.trsv.fp64", "gpu.gemm.bf16", "cpu.gemm.bf16", "cpu.getrf.fp32"})
    EXPECT_TRUE(models.has(r)) << r;
}

TEST(AuroraCalibration, OnlyTheTunedEfficienciesAreProvisional) {
  const auto c = hm::load_kernel_calibration(source_path("models/calibrations/aurora-node.textproto"));
  std::set<std::string> provisional;
  for (const auto& k : c.kernels())
    if (k.provisional()) provisional.insert(k.name());
  // gpu.gemm.fp64 has been fitted to the 1-node figure and gpu.gemm.bf16 takes
  // ALCF's measured BF16GEMM ceiling: nothing is left to tune.
  EXPECT_TRUE(provisional.empty()) << *provisional.begin();
}

TEST(AuroraCalibration, NoAmxFileDiffersOnlyInCpuBf16Kernels) {
  const auto on = hm::load_kernel_calibration(source_path("models/calibrations/aurora-node.textproto"));
  const auto off =
      hm::load_kernel_calibration(source_path("models/calibrations/aurora-node-noamx.textproto"));
  EXPECT_TRUE(on.amx());
  EXPECT_FALSE(off.amx());
  const auto a = by_name(on), b = by_name(off);
  ASSERT_EQ(a.size(), b.size());
  for (const auto& [name, rec] : a) {
    ASSERT_TRUE(b.count(name)) << name;
    if (name == "cpu.gemm.bf16" || name == "cpu.trsm.bf16") continue;
    EXPECT_EQ(rec.SerializeAsString(), b.at(name).SerializeAsString()) << name;
  }
  // Without AMX the BF16 work runs as FP32 AVX-512: the records are the FP32 ones.
  for (const char* k : {"gemm", "trsm"}) {
    const std::string bf16 = std::string("cpu.") + k + ".bf16", fp32 = std::string("cpu.") + k + ".fp32";
    auto x = b.at(bf16), y = b.at(fp32);
    x.clear_name(), y.clear_name(), x.clear_source(), y.clear_source();
    EXPECT_EQ(x.SerializeAsString(), y.SerializeAsString()) << bf16;
  }
  // With AMX, 2x the FP32 rate at every shape (Fixstars' all-core measurement,
  // quoted in the records): at MxP's panel solve (NB 1,536 by a 379,564-row
  // panel) and at a 1,536^3 GEMM, within rounding of the efficiencies.
  const hm::KernelModels amx(on), noamx(off);
  const hm::KernelShape solve{
      hplsim::traces::KERNEL_TRSM, hplsim::traces::CPU, hplsim::traces::BF16, 1536, 379564, 0};
  const hm::KernelShape gemm{
      hplsim::traces::KERNEL_GEMM, hplsim::traces::CPU, hplsim::traces::BF16, 1536, 1536, 1536};
  EXPECT_NEAR(noamx.seconds(solve) / amx.seconds(solve), 2.0, 1e-3);
  EXPECT_NEAR(noamx.seconds(gemm) / amx.seconds(gemm), 2.0, 1e-3);
}

TEST(AuroraCalibration, ProductionGpuSettingFileDiffersOnlyInGpuComputeRecords) {
  // aurora-node-gpu1500.textproto: the GPU compute records at ALCF's production
  // setting of 2026-01-12 (1.5 GHz, one FP64 pipeline); everything else equal.
  const auto pre = hm::load_kernel_calibration(source_path("models/calibrations/aurora-node.textproto"));
  const auto prod =
      hm::load_kernel_calibration(source_path("models/calibrations/aurora-node-gpu1500.textproto"));
  EXPECT_EQ(pre.amx(), prod.amx());
  const auto a = by_name(pre), b = by_name(prod);
  ASSERT_EQ(a.size(), b.size());
  const std::set<std::string> changed = {"gpu.gemm.fp64", "gpu.gemm.bf16", "gpu.gemm.fp16", "gpu.trsm.fp64",
                                         "gpu.gemm.fp32", "gpu.trsm.fp32", "gpu.getrf.fp32"};
  for (const auto& [name, rec] : a) {
    ASSERT_TRUE(b.count(name)) << name;
    auto x = rec, y = b.at(name);
    if (changed.count(name)) {
      x.clear_peak_flops_per_s(), y.clear_peak_flops_per_s();
      x.clear_source(), y.clear_source();
    }
    EXPECT_EQ(x.SerializeAsString(), y.SerializeAsString()) << name;
  }
  // The ratios are ALCF's per-node figures, production / pre-production (the
  // page's two versions): DGEMM 125/179, BF16GEMM 2487/2645, HGEMM 2469/2606,
  // FP64 FMA chain 127/187, FP32 FMA chain 252/267; the files round to 5 digits.
  const auto ratio = [&](const char* n) { return b.at(n).peak_flops_per_s() / a.at(n).peak_flops_per_s(); };
  EXPECT_NEAR(ratio("gpu.gemm.fp64"), 125.0 / 179.0, 1e-3);
  EXPECT_NEAR(ratio("gpu.gemm.bf16"), 2487.0 / 2645.0, 1e-3);
  EXPECT_NEAR(ratio("gpu.gemm.fp16"), 2469.0 / 2606.0, 1e-3);
  EXPECT_NEAR(ratio("gpu.trsm.fp64"), 127.0 / 187.0, 1e-3);
  EXPECT_NEAR(ratio("gpu.getrf.fp32"), 252.0 / 267.0, 1e-3);
}

TEST(AuroraCalibration, AmxBf16GemmWorkedNumber) {
  // cpu.gemm.bf16 with AMX: P = 2.048e12, e = 0.10625, h = 26, o = 1e-6.
  // 1536 x 1536 x 1536 (MxP's NB): s = 1536, eff = 0.10625 * 1536/1562 = 0.1044814,
  // t = 1e-6 + 2 * 1536^3 / (2.048e12 * 0.1044814) = 1e-6 + 3.38715e-2 = 3.38725e-2 s.
  const hm::KernelModels models(
      hm::load_kernel_calibration(source_path("models/calibrations/aurora-node.textproto")));
  const hm::KernelShape s{
      hplsim::traces::KERNEL_GEMM, hplsim::traces::CPU, hplsim::traces::BF16, 1536, 1536, 1536};
  EXPECT_NEAR(models.seconds(s), 3.38725e-2, 1e-7);
}

TEST(WorkstationCalibration, IsTheFitOfItsShippedSamples) {
  // Re-fitting models/calibrations/cpu-workstation.csv with the record's peak
  // must give the shipped records (the fit is deterministic; text format keeps
  // doubles exactly): relative 1e-12.
  const auto shipped =
      by_name(hm::load_kernel_calibration(source_path("models/calibrations/cpu-workstation.textproto")));
  const double peak = shipped.at("cpu.gemm.fp64").peak_flops_per_s();
  const auto refit = by_name(
      hm::fit_kernels_csv(source_path("models/calibrations/cpu-workstation.csv"), {{"cpu.fp64", peak}}));
  ASSERT_EQ(refit.size(), shipped.size());
  for (const auto& [name, rec] : shipped) {
    const auto& r = refit.at(name);
    EXPECT_NEAR(r.max_efficiency(), rec.max_efficiency(), 1e-12) << name;
    EXPECT_NEAR(r.half_efficiency_size(), rec.half_efficiency_size(),
                1e-12 * (1.0 + rec.half_efficiency_size()));
    EXPECT_NEAR(r.launch_overhead_s(), rec.launch_overhead_s(), 1e-18) << name;
    EXPECT_NEAR(r.memory_bandwidth_bytes_per_s(), rec.memory_bandwidth_bytes_per_s(),
                1e-12 * rec.memory_bandwidth_bytes_per_s())
        << name;
  }
  // The compute-bound records that price HPL's CPU phases fit this box within 15% rms.
  for (const char* r : {"cpu.gemm.fp64", "cpu.trsm.fp64", "cpu.pfact.fp64", "cpu.getrf.fp64"})
    EXPECT_LT(std::stod(shipped.at(r).source().substr(shipped.at(r).source().find("residual ") + 9)), 0.15)
        << r;
}
