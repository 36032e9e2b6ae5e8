#pragma once
// What the protocol model (protocol_model.hpp) predicts the OSU
// point-to-point benchmarks report, on an otherwise idle path of latency L
// and bottleneck bandwidth B. For the fit (network_fit.hpp) and for the
// simulator's OSU cross-check.
#include "models/calibration.pb.h"

namespace hplsim::models {

/// osu_latency (half the ping-pong round trip) for `bytes`:
///   os(b) + L*lf(b) + rendezvous_extra(b) + b/(B*bf(b)) + or(b).
double osu_latency_prediction_s(const ProtocolParams& params, double path_latency_s,
                                double path_bandwidth_bytes_per_s, double bytes);

/// Time between consecutive messages of a stream (osu_bw's window):
///   max(os(b), or(b), b/(B*bf(b))).
double osu_message_gap_s(const ProtocolParams& params, double path_bandwidth_bytes_per_s, double bytes);

/// osu_bw: a window of `window` (OMB default 64) back-to-back messages then a
/// 4-byte reply; reports window*b / (latency(b) + (window-1)*gap(b) + latency(4)).
double osu_bw_prediction_bytes_per_s(const ProtocolParams& params, double path_latency_s,
                                     double path_bandwidth_bytes_per_s, double bytes, int window = 64);

/// osu_bibw on full-duplex links without contention: twice osu_bw.
double osu_bibw_prediction_bytes_per_s(const ProtocolParams& params, double path_latency_s,
                                       double path_bandwidth_bytes_per_s, double bytes, int window = 64);

} // namespace hplsim::models
