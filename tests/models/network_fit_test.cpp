// Protocol-model fit to OSU outputs: recovery from synthetic OSU text made by
// a known model, threshold detection, and the shipped presets.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "models/calibration_io.hpp"
#include "models/network_fit.hpp"
#include "models/osu_prediction.hpp"
#include "models/protocol_model.hpp"
#include "test_files.hpp"

namespace hm = hplsim::models;

namespace {

constexpr double kPathLatency = 1.5e-6;   // s, the "topology's" nominal path
constexpr double kPathBandwidth = 12.5e9; // B/s

hm::ProtocolParams truth() {
  hm::ProtocolParams p;
  p.set_send_overhead_s(0.4e-6);
  p.set_recv_overhead_s(0.4e-6);
  p.set_eager_threshold_bytes(16384);
  auto* s0 = p.add_segments();
  s0->set_min_bytes(0);
  s0->set_latency_factor(0.8);
  s0->set_bandwidth_factor(0.5);
  auto* s1 = p.add_segments();
  s1->set_min_bytes(16384);
  s1->set_latency_factor(3.0);
  s1->set_bandwidth_factor(0.92);
  return p;
}

// OSU-formatted text (2 decimals, as OMB prints) generated from the model.
std::string osu_latency_text(const hm::ProtocolParams& p) {
  std::string out =
      "# OSU MPI Latency Test v5.6.2 (synthetic, from a known model)\n# Size          Latency (us)\n";
  char line[64];
  for (long b = 0; b <= (4L << 20); b = b == 0 ? 1 : 2 * b) {
    std::snprintf(line, sizeof line, "%-10ld%18.2f\n", b,
                  1e6 *
                      hm::osu_latency_prediction_s(p, kPathLatency, kPathBandwidth, static_cast<double>(b)));
    out += line;
  }
  return out;
}

std::string osu_bw_text(const hm::ProtocolParams& p) {
  std::string out = "# OSU MPI Bandwidth Test v5.6.2 (synthetic)\n# Size      Bandwidth (MB/s)\n";
  char line[64];
  for (long b = 1; b <= (4L << 20); b *= 2) {
    std::snprintf(
        line, sizeof line, "%-10ld%18.2f\n", b,
        1e-6 * hm::osu_bw_prediction_bytes_per_s(p, kPathLatency, kPathBandwidth, static_cast<double>(b)));
    out += line;
  }
  return out;
}

hm::OsuTable parse(const std::string& text) {
  std::istringstream in(text);
  return hm::parse_osu_output(in, "synthetic");
}

} // namespace

TEST(NetworkFit, RecoversKnownModelFromSyntheticOsuText) {
  const hm::OsuTable lat = parse(osu_latency_text(truth()));
  const hm::OsuTable bw = parse(osu_bw_text(truth()));
  const hm::ProtocolFit fit = hm::fit_protocol(lat, &bw, kPathLatency, kPathBandwidth);
  const hm::ProtocolParams& p = fit.params;
  EXPECT_TRUE(fit.threshold_detected);
  EXPECT_EQ(p.eager_threshold_bytes(), 16384);
  // OMB prints 2 decimals (0.005 us rounding): overhead within 0.02 us, factors within 2%.
  EXPECT_NEAR(p.send_overhead_s(), 0.4e-6, 0.02e-6);
  EXPECT_NEAR(p.recv_overhead_s(), 0.4e-6, 0.02e-6);
  ASSERT_EQ(p.segments_size(), 2);
  EXPECT_EQ(p.segments(1).min_bytes(), 16384);
  EXPECT_NEAR(p.segments(0).latency_factor(), 0.8, 0.02 * 0.8);
  EXPECT_NEAR(p.segments(0).bandwidth_factor(), 0.5, 0.02 * 0.5);
  EXPECT_NEAR(p.segments(1).latency_factor(), 3.0, 0.02 * 3.0);
  EXPECT_NEAR(p.segments(1).bandwidth_factor(), 0.92, 0.02 * 0.92);
  EXPECT_LT(fit.rms_relative_residual, 0.01);
  EXPECT_DOUBLE_EQ(p.reference_path_latency_s(), kPathLatency);
}

TEST(NetworkFit, LatencyOnlyFitPutsOverheadInTheFactor) {
  // Without osu_bw the overheads cannot be told from latency: os = or = 0 and the
  // eager factor absorbs them: (0.8 * 1.5 + 0.8) us / 1.5 us = 1.3333.
  const hm::ProtocolFit fit =
      hm::fit_protocol(parse(osu_latency_text(truth())), nullptr, kPathLatency, kPathBandwidth);
  EXPECT_DOUBLE_EQ(fit.params.send_overhead_s(), 0.0);
  EXPECT_NEAR(fit.params.segments(0).latency_factor(), (0.8 * 1.5 + 0.8) / 1.5, 0.02);
  EXPECT_TRUE(fit.bandwidth_relative_residuals.empty());
}

TEST(NetworkFit, ExtraBreakpointMakesAnotherSegment) {
  hm::ProtocolFitOptions options;
  options.breakpoints_bytes = {1 << 20};
  const hm::ProtocolFit fit =
      hm::fit_protocol(parse(osu_latency_text(truth())), nullptr, kPathLatency, kPathBandwidth, options);
  ASSERT_EQ(fit.params.segments_size(), 3);
  EXPECT_EQ(fit.params.segments(2).min_bytes(), 1 << 20);
  // Same underlying line on both sides of 1 MiB: same bandwidth factor within 2%.
  EXPECT_NEAR(fit.params.segments(2).bandwidth_factor(), fit.params.segments(1).bandwidth_factor(), 0.02);
}

TEST(NetworkFit, DetectsNoThresholdOnASmoothCurve) {
  hm::ProtocolParams smooth = truth();
  smooth.clear_eager_threshold_bytes();
  smooth.mutable_segments()->RemoveLast();
  const hm::OsuTable lat = parse(osu_latency_text(smooth));
  EXPECT_FALSE(hm::detect_eager_threshold(lat.points, 0.3e-6, 0.15).has_value());
  const hm::ProtocolFit fit = hm::fit_protocol(lat, nullptr, kPathLatency, kPathBandwidth);
  EXPECT_FALSE(fit.params.has_eager_threshold_bytes());
  EXPECT_EQ(fit.params.segments_size(), 1);
}

TEST(NetworkFit, RejectsBandwidthTableAsLatency) {
  const hm::OsuTable bw = parse(osu_bw_text(truth()));
  EXPECT_THROW(hm::fit_protocol(bw, nullptr, kPathLatency, kPathBandwidth), std::invalid_argument);
}

TEST(NetworkFit, RejectsNonPositivePath) {
  const hm::OsuTable lat = parse(osu_latency_text(truth()));
  EXPECT_THROW(hm::fit_protocol(lat, nullptr, 0.0, kPathBandwidth), std::invalid_argument);
  EXPECT_THROW(hm::fit_protocol(lat, nullptr, kPathLatency, -1.0), std::invalid_argument);
}

TEST(OsuPrediction, WorkedLatencyNumber) {
  // 16 KiB is rendezvous in truth(): 0.4 + 1.5*3.0 + 16384/(12.5e9*0.92)*1e6 + 0.4 us
  // = 0.4 + 4.5 + 1.42470 + 0.4 = 6.72470 us.
  EXPECT_NEAR(hm::osu_latency_prediction_s(truth(), kPathLatency, kPathBandwidth, 16384), 6.72470e-6, 1e-11);
}

TEST(OsuPrediction, BandwidthApproachesSegmentBandwidth) {
  // 4 MiB stream: gap = 4194304 / (12.5e9 * 0.92) = 364.74 us >> latency, so
  // osu_bw -> 0.92 * 12.5e9 = 11.5e9 B/s within 1%.
  EXPECT_NEAR(hm::osu_bw_prediction_bytes_per_s(truth(), kPathLatency, kPathBandwidth, 4 << 20), 11.5e9,
              0.01 * 11.5e9);
  EXPECT_NEAR(hm::osu_bibw_prediction_bytes_per_s(truth(), kPathLatency, kPathBandwidth, 4 << 20), 23.0e9,
              0.01 * 23.0e9);
}

TEST(ProtocolPresets, Marenostrum4PresetIsTheFitOfThePublishedPoints) {
  // Published MN4 points (BSC performance reports, as cited in the preset):
  // osu_latency 8 B 1.1 us, 8 KiB 3.6 us, 4 MiB 360 us; osu_bw 4 MiB 12.0 GB/s.
  hm::OsuTable lat{hm::OsuKind::Latency, "MN4 published", {{8, 1.1e-6}, {8192, 3.6e-6}, {4194304, 360e-6}}};
  hm::OsuTable bw{hm::OsuKind::Bandwidth, "MN4 published", {{4194304, 12.0e9}}};
  const hm::ProtocolParams preset = hm::load_protocol_params(
      hplsim::models::testing::source_path("models/calibrations/marenostrum4-opa.textproto"));
  hm::ProtocolFitOptions options;
  options.eager_threshold_bytes = preset.eager_threshold_bytes();
  const hm::ProtocolFit fit = hm::fit_protocol(lat, &bw, preset.reference_path_latency_s(),
                                               preset.reference_path_bandwidth_bytes_per_s(), options);
  ASSERT_EQ(fit.params.segments_size(), 2);
  for (int i = 0; i < 2; ++i) { // the preset's 5-6 significant digits: 1e-4 relative
    EXPECT_NEAR(fit.params.segments(i).latency_factor(), preset.segments(i).latency_factor(),
                1e-4 * preset.segments(i).latency_factor());
    EXPECT_NEAR(fit.params.segments(i).bandwidth_factor(), preset.segments(i).bandwidth_factor(),
                1e-4 * preset.segments(i).bandwidth_factor());
  }
  EXPECT_EQ(fit.params.send_overhead_s(), 0.0); // no small-message osu_bw point
  // The threshold sits where the two segment lines cross (continuity), within 1 byte.
  const double a0 = preset.segments(0).latency_factor() * 1e-6,
               a1 = preset.segments(1).latency_factor() * 1e-6;
  const double b0 = 1.0 / (12.5e9 * preset.segments(0).bandwidth_factor());
  const double b1 = 1.0 / (12.5e9 * preset.segments(1).bandwidth_factor());
  EXPECT_NEAR((a1 - a0) / (b0 - b1), static_cast<double>(preset.eager_threshold_bytes()), 2.0);
  // Reproduces the published points within 0.1% (fitted to them) ...
  const double L = preset.reference_path_latency_s(), B = preset.reference_path_bandwidth_bytes_per_s();
  for (const auto& p : lat.points)
    EXPECT_NEAR(hm::osu_latency_prediction_s(preset, L, B, p.bytes), p.value, 1e-3 * p.value) << p.bytes;
  EXPECT_NEAR(hm::osu_bw_prediction_bytes_per_s(preset, L, B, 4194304), 12.0e9, 1e-3 * 12.0e9);
  // ... and the bibw point it was NOT fitted to within 2% (24.0 predicted vs 23.7 published).
  EXPECT_NEAR(hm::osu_bibw_prediction_bytes_per_s(preset, L, B, 4194304), 23.7e9, 0.02 * 23.7e9);
}

TEST(ProtocolPresets, BxiV2PresetMatchesPublishedSaturation) {
  const hm::ProtocolParams p =
      hm::load_protocol_params(hplsim::models::testing::source_path("models/calibrations/bxi-v2.textproto"));
  EXPECT_EQ(p.eager_threshold_bytes(), 16384); // Open MPI eager -> rendezvous switch
  // Saturation: 12.5 GB/s x 0.88 = 11.0 GB/s published; osu_bw at 4 MiB within 1%
  // (latency 1 us assumed only for the prediction: it is not calibrated).
  EXPECT_NEAR(hm::osu_bw_prediction_bytes_per_s(p, 1e-6, p.reference_path_bandwidth_bytes_per_s(), 4 << 20),
              11.0e9, 0.01 * 11.0e9);
  EXPECT_FALSE(p.has_reference_path_latency_s());
}

TEST(ProtocolPresets, InfinibandNdrPresetIsConsistentWithItsSources) {
  // models/calibrations/infiniband-ndr.textproto: UCX's own estimates for NDR rc_mlx5
  // (ConnectX-7) at the protocol switch points `ucx_info -e` prints for Open MPI's
  // MPI_Send; every figure's source is in the file's header.
  const hm::ProtocolParams p = hm::load_protocol_params(
      hplsim::models::testing::source_path("models/calibrations/infiniband-ndr.textproto"));
  const hm::ProtocolModel m(p);
  // Eager threshold: UCX's RNDV_SEND_NBR_THRESH "256k" (a fast-completion send from host memory).
  ASSERT_GT(p.eager_threshold_bytes(), 0);
  EXPECT_EQ(p.eager_threshold_bytes(), 262144);
  // The last segment is the rendezvous one and starts at the threshold; every eager
  // protocol switch (2039, 8247, 16677 B) lies below it.
  ASSERT_GE(p.segments_size(), 2);
  EXPECT_EQ(p.segments(p.segments_size() - 1).min_bytes(), p.eager_threshold_bytes());
  for (int i = 0; i + 1 < p.segments_size(); ++i)
    EXPECT_LT(p.segments(i).min_bytes(), p.eager_threshold_bytes()) << "segment " << i;
  EXPECT_TRUE(m.is_eager(262143.0));
  EXPECT_FALSE(m.is_eager(262144.0));
  EXPECT_GT(p.send_overhead_s(), 0.0);
  EXPECT_GT(p.recv_overhead_s(), 0.0);
  EXPECT_GT(p.rendezvous_extra_latency_s(), 0.0);
  // Every segment runs at UCX's NDR200 rate, `ucx_info -d` "bandwidth: 22873.66/ppn"
  // MB/s (2^20 B) over the 25e9 B/s link (github.com/openucx/ucx/issues/10669): 0.959391; no reference
  // bandwidth, so the fraction carries over to a 400 Gb/s port unchanged.
  for (int i = 0; i < p.segments_size(); ++i)
    EXPECT_NEAR(p.segments(i).bandwidth_factor(), 22873.66 * 1048576.0 / 25e9, 1e-6) << "segment " << i;
  EXPECT_FALSE(p.has_reference_path_bandwidth_bytes_per_s());
  EXPECT_FALSE(m.prices_intra_node()); // UCX uses shared memory inside a node
  // The multi-fragment switch (8247 B) swaps the per-byte copies for one fragment's
  // copy-in and copy-out: continuous within the 5 ns of protocol overhead it adds.
  EXPECT_NEAR(m.extra_latency_s(8247.0), m.extra_latency_s(8246.0), 10e-9);

  // Zero-byte latency on the one-switch reference path (UCX's NDR latency estimate,
  // 600 ns): send 280 ns + path 600 ns + receive 240 ns = 1.12 us.
  const double L = p.reference_path_latency_s(), B = 25e9;
  EXPECT_DOUBLE_EQ(L, 600e-9);
  EXPECT_NEAR(m.message_latency_s(L, 0.0), 1.12e-6, 1e-12);
  // The published NDR MPI latency: Azure HBv4 / HX (ConnectX-7 NDR, HPC-X osu_latency),
  // "RDMA latency & bandwidth | < 2 microseconds (1 byte)"
  // (learn.microsoft.com/azure/virtual-machines/hbv4-performance). An upper bound, not a
  // point, so the tolerance is one-sided plus a floor: 1 B within [0.5, 1] x 2 us.
  const double one_byte = m.message_latency_s(L, 1.0) + 1.0 / (B * m.bandwidth_factor(1.0));
  EXPECT_LE(one_byte, 2e-6);
  EXPECT_GE(one_byte, 0.5 * 2e-6);
}
