// Point-to-point protocol model; equation and sources in protocol_model.hpp
// and models/README.md ("Protocol model"). Validity: message sizes >= 0;
// overheads >= 0; latency factors >= 0; bandwidth factors > 0; segment
// starts strictly increasing from 0.
#include "models/protocol_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace hplsim::models {

namespace {

void require_non_negative(const std::string& field, double v) {
  if (!(std::isfinite(v) && v >= 0.0))
    throw std::invalid_argument("protocol." + field + " must be >= 0 and finite, got " + std::to_string(v));
}

void require_positive(const std::string& field, double v) {
  if (!(std::isfinite(v) && v > 0.0))
    throw std::invalid_argument("protocol." + field + " must be > 0 and finite, got " + std::to_string(v));
}

[[noreturn, gnu::cold, gnu::noinline]] void bad_bytes(double bytes) {
  throw std::invalid_argument("protocol model: message size must be >= 0 bytes, got " +
                              std::to_string(bytes));
}

// Called for every message the priced collectives time: the check inline, its error out of line.
inline void check_bytes(double bytes) {
  if (!(std::isfinite(bytes) && bytes >= 0.0)) [[unlikely]]
    bad_bytes(bytes);
}

} // namespace

ProtocolModel::ProtocolModel(const ProtocolParams& params) : params_(params) {
  require_non_negative("send_overhead_s", params.send_overhead_s());
  require_non_negative("recv_overhead_s", params.recv_overhead_s());
  require_non_negative("send_overhead_per_byte_s", params.send_overhead_per_byte_s());
  require_non_negative("recv_overhead_per_byte_s", params.recv_overhead_per_byte_s());
  require_non_negative("hop_latency_s", params.hop_latency_s());
  require_non_negative("rendezvous_extra_latency_s", params.rendezvous_extra_latency_s());
  if (params.eager_threshold_bytes() < 0)
    throw std::invalid_argument("protocol.eager_threshold_bytes must be >= 0, got " +
                                std::to_string(params.eager_threshold_bytes()));
  if (params.has_reference_path_latency_s())
    require_positive("reference_path_latency_s", params.reference_path_latency_s());
  if (params.has_reference_path_bandwidth_bytes_per_s())
    require_positive("reference_path_bandwidth_bytes_per_s", params.reference_path_bandwidth_bytes_per_s());
  for (int i = 0; i < params.segments_size(); ++i) {
    const ProtocolSegment& s = params.segments(i);
    const std::string at = "segments[" + std::to_string(i) + "].";
    const double start = static_cast<double>(s.min_bytes());
    if (i == 0 && s.min_bytes() != 0)
      throw std::invalid_argument("protocol." + at + "min_bytes must be 0 for the first segment, got " +
                                  std::to_string(s.min_bytes()));
    if (i > 0 && !(start > min_bytes_.back()))
      throw std::invalid_argument("protocol." + at + "min_bytes must be > the previous segment's " +
                                  std::to_string(params.segments(i - 1).min_bytes()) + ", got " +
                                  std::to_string(s.min_bytes()));
    const double lf = s.has_latency_factor() ? s.latency_factor() : 1.0;
    const double bf = s.has_bandwidth_factor() ? s.bandwidth_factor() : 1.0;
    require_non_negative(at + "latency_factor", lf);
    require_positive(at + "bandwidth_factor", bf);
    require_non_negative(at + "extra_latency_s", s.extra_latency_s());
    require_non_negative(at + "time_per_byte_s", s.time_per_byte_s());
    min_bytes_.push_back(start);
    latency_factors_.push_back(lf);
    bandwidth_factors_.push_back(bf);
    extra_latencies_s_.push_back(s.extra_latency_s());
    times_per_byte_s_.push_back(s.time_per_byte_s());
  }
}

double ProtocolModel::latency_factor(double bytes) const {
  check_bytes(bytes);
  if (min_bytes_.empty()) return 1.0;
  const auto it = std::upper_bound(min_bytes_.begin(), min_bytes_.end(), bytes);
  return latency_factors_[static_cast<std::size_t>(it - min_bytes_.begin()) - 1];
}

double ProtocolModel::bandwidth_factor(double bytes) const {
  check_bytes(bytes);
  if (min_bytes_.empty()) return 1.0;
  const auto it = std::upper_bound(min_bytes_.begin(), min_bytes_.end(), bytes);
  return bandwidth_factors_[static_cast<std::size_t>(it - min_bytes_.begin()) - 1];
}

double ProtocolModel::extra_latency_s(double bytes) const {
  check_bytes(bytes);
  if (min_bytes_.empty()) return 0.0;
  const auto it = std::upper_bound(min_bytes_.begin(), min_bytes_.end(), bytes);
  const auto i = static_cast<std::size_t>(it - min_bytes_.begin()) - 1;
  return extra_latencies_s_[i] + bytes * times_per_byte_s_[i];
}

double ProtocolModel::send_overhead_s(double bytes) const {
  check_bytes(bytes);
  return params_.send_overhead_s() + bytes * params_.send_overhead_per_byte_s();
}

double ProtocolModel::recv_overhead_s(double bytes) const {
  check_bytes(bytes);
  return params_.recv_overhead_s() + bytes * params_.recv_overhead_per_byte_s();
}

bool ProtocolModel::is_eager(double bytes) const {
  check_bytes(bytes);
  return !params_.has_eager_threshold_bytes() || bytes < static_cast<double>(params_.eager_threshold_bytes());
}

double ProtocolModel::rendezvous_extra_latency_s(double bytes) const {
  return is_eager(bytes) ? 0.0 : params_.rendezvous_extra_latency_s();
}

double ProtocolModel::message_latency_s(double path_s, double bytes) const {
  const double extra_s = send_overhead_s(bytes) + recv_overhead_s(bytes) + rendezvous_extra_latency_s(bytes) +
                         extra_latency_s(bytes);
  return latency_factor(bytes) * path_s + extra_s;
}

ProtocolParams rescale_protocol(const ProtocolParams& params, double path_latency_s,
                                double path_bandwidth_bytes_per_s) {
  require_positive("(target) path_latency_s", path_latency_s);
  require_positive("(target) path_bandwidth_bytes_per_s", path_bandwidth_bytes_per_s);
  const ProtocolModel check(params);
  ProtocolParams out = params;
  // A factor kind without a reference path was not fitted against one: unchanged.
  const double lscale =
      params.has_reference_path_latency_s() ? params.reference_path_latency_s() / path_latency_s : 1.0;
  const double bscale = params.has_reference_path_bandwidth_bytes_per_s()
                            ? params.reference_path_bandwidth_bytes_per_s() / path_bandwidth_bytes_per_s
                            : 1.0;
  if (out.segments_size() == 0) out.add_segments()->set_min_bytes(0);
  for (ProtocolSegment& s : *out.mutable_segments()) {
    s.set_latency_factor((s.has_latency_factor() ? s.latency_factor() : 1.0) * lscale);
    s.set_bandwidth_factor((s.has_bandwidth_factor() ? s.bandwidth_factor() : 1.0) * bscale);
  }
  if (params.has_reference_path_latency_s()) out.set_reference_path_latency_s(path_latency_s);
  if (params.has_reference_path_bandwidth_bytes_per_s())
    out.set_reference_path_bandwidth_bytes_per_s(path_bandwidth_bytes_per_s);
  return out;
}

} // namespace hplsim::models
