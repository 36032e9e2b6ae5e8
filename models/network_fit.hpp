#pragma once
// Fitting the protocol model (protocol_model.hpp) to OSU point-to-point
// measurements (osu_output.hpp), given the nominal latency L and bandwidth B
// of the path the measurement ran on (the caller's topology model says what
// they are; the factors are relative to them).
//
// Method (models/README.md, "Protocol fit"):
//  1. Eager threshold: given, or detected as the size where the latency jumps:
//     over each interval of consecutive sizes, the latency increase beyond what
//     the steeper of the neighbouring intervals' slopes explains; the largest
//     such excess, if above max(min_jump_s, min_jump_fraction * latency), marks
//     the first rendezvous size (the true threshold lies in (previous, detected]).
//  2. Overheads: from osu_bw at its smallest size b0 (if b0 <= overhead_max_bytes,
//     where the stream is overhead-bound rather than bandwidth-bound), the per-message gap
//     g = (W*b0/bw(b0) - lat(b0) - lat(4)) / (W-1) (inverse of osu_bw_prediction)
//     is the send overhead; OSU cannot separate send from receive overhead, so
//     os = or = g (the receiver must keep the same pace). No osu_bw: os = or = 0.
//  3. Segments start at 0, the threshold and the caller's breakpoints. In each,
//     lat(b) = alpha + beta*b by least squares on relative residuals (Eigen),
//     with alpha >= os + or; a segment with < 2 latency sizes takes beta from
//     osu_bw points inside it (gap/b, inverting osu_bw), else from a neighbour.
//  4. latency_factor = (alpha - os - or) / L, bandwidth_factor = 1 / (beta * B);
//     rendezvous_extra_latency_s = 0: the handshake is a round trip, so it
//     scales with the path latency and belongs in the factor.
#include <cstdint>
#include <optional>
#include <vector>

#include "models/calibration.pb.h"
#include "models/osu_output.hpp"

namespace hplsim::models {

struct ProtocolFitOptions {
  std::optional<std::int64_t> eager_threshold_bytes; // given: no detection
  std::vector<std::int64_t> breakpoints_bytes;       // extra segment starts (e.g. 64 B PIO->DMA)
  int window = 64;                                   // osu_bw window size (OMB default)
  double min_jump_s = 0.3e-6;                        // detection floor, absolute
  double min_jump_fraction = 0.15;                   // detection floor, relative to the latency
  std::int64_t overhead_max_bytes = 64;              // largest osu_bw size used for the overhead
};

struct ProtocolFit {
  ProtocolParams params; // with reference_path_* set to the L and B given
  bool threshold_detected = false;
  std::vector<double> latency_relative_residuals;   // (model - measured)/measured per latency point
  std::vector<double> bandwidth_relative_residuals; // same per osu_bw point (empty without osu_bw)
  double rms_relative_residual = 0.0;               // over both
};

/// Step 1 alone; nullopt when no jump exceeds the floors.
std::optional<std::int64_t> detect_eager_threshold(const std::vector<OsuPoint>& latency, double min_jump_s,
                                                   double min_jump_fraction);

/// Throws std::invalid_argument if `latency` is not a Latency table with >= 2
/// points, `bandwidth` (may be null) is not a Bandwidth table, L or B <= 0, or
/// a segment ends up with no usable slope.
ProtocolFit fit_protocol(const OsuTable& latency, const OsuTable* bandwidth, double path_latency_s,
                         double path_bandwidth_bytes_per_s, const ProtocolFitOptions& options = {});

} // namespace hplsim::models
