#pragma once
// Point-to-point protocol model (SMPI-like piecewise corrections; Degomme et
// al., "Simulating MPI applications: the SMPI approach", IEEE TPDS 2017):
// a message of b bytes over a path of latency L and bottleneck bandwidth B
// takes, from the send call to the receive completing,
//   os(b) + L * latency_factor(b) + extra_latency(b) + [b >= eager_threshold] * rendezvous_extra
//         + b / (B * bandwidth_factor(b)) + or(b)
// with os(b) = send_overhead_s + b * send_overhead_per_byte_s (or likewise).
// The factors are piecewise constant: a segment applies from its min_bytes up
// to the next segment's. Unset factors mean 1; no segments mean factors 1.
// Sizes below eager_threshold_bytes are eager; no threshold: all eager.
#include <cstdint>
#include <vector>

#include "models/calibration.pb.h"

namespace hplsim::models {

class ProtocolModel {
public:
  /// Validates; throws std::invalid_argument naming the field.
  explicit ProtocolModel(const ProtocolParams& params);
  double latency_factor(double bytes) const;
  double bandwidth_factor(double bytes) const;
  /// The segment's extra_latency_s (a protocol switch's fixed cost; 0 unset)
  /// plus bytes x its time_per_byte_s.
  double extra_latency_s(double bytes) const;
  double send_overhead_s(double bytes) const;
  double recv_overhead_s(double bytes) const;
  bool is_eager(double bytes) const;
  /// rendezvous_extra_latency_s for rendezvous messages, 0 for eager ones.
  double rendezvous_extra_latency_s(double bytes) const;
  /// A message's effective latency on a route whose links' latencies sum to
  /// `path_s`: path_s x latency_factor + both overheads + the rendezvous
  /// handshake (the overheads are latency, not CPU time: docs/departures.md, "MPI software overheads").
  double message_latency_s(double path_s, double bytes) const;
  const ProtocolParams& params() const { return params_; }
  /// Whether the corrections also apply between ranks of one node
  /// (ProtocolParams.intra_node, default true).
  bool prices_intra_node() const { return !params_.has_intra_node() || params_.intra_node(); }

private:
  ProtocolParams params_;
  std::vector<double> min_bytes_; // segment starts, increasing
  std::vector<double> latency_factors_;
  std::vector<double> bandwidth_factors_;
  std::vector<double> extra_latencies_s_;
  std::vector<double> times_per_byte_s_;
};

/// Factors re-expressed for another path, keeping the predicted time of
/// every message: lf' = lf * L_ref / L, bf' = bf * B_ref / B, with L_ref, B_ref
/// the params' reference_path_latency_s / _bandwidth_bytes_per_s. A factor
/// kind whose reference is unset was not fitted against a path and is kept
/// as is. Throws std::invalid_argument if L or B <= 0 or the params are invalid.
ProtocolParams rescale_protocol(const ProtocolParams& params, double path_latency_s,
                                double path_bandwidth_bytes_per_s);

} // namespace hplsim::models
