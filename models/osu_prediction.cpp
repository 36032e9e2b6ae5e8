// OSU benchmark predictions of the protocol model; equations in osu_prediction.hpp.
#include "models/osu_prediction.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "models/protocol_model.hpp"

namespace hplsim::models {

namespace {

void check_path(double latency_s, double bandwidth) {
  if (!(std::isfinite(latency_s) && latency_s >= 0.0))
    throw std::invalid_argument("OSU prediction: path_latency_s must be >= 0, got " +
                                std::to_string(latency_s));
  if (!(std::isfinite(bandwidth) && bandwidth > 0.0))
    throw std::invalid_argument("OSU prediction: path_bandwidth_bytes_per_s must be > 0, got " +
                                std::to_string(bandwidth));
}

} // namespace

double osu_latency_prediction_s(const ProtocolParams& params, double path_latency_s,
                                double path_bandwidth_bytes_per_s, double bytes) {
  check_path(path_latency_s, path_bandwidth_bytes_per_s);
  const ProtocolModel m(params);
  return m.send_overhead_s(bytes) + path_latency_s * m.latency_factor(bytes) +
         m.rendezvous_extra_latency_s(bytes) +
         bytes / (path_bandwidth_bytes_per_s * m.bandwidth_factor(bytes)) + m.recv_overhead_s(bytes);
}

double osu_message_gap_s(const ProtocolParams& params, double path_bandwidth_bytes_per_s, double bytes) {
  check_path(0.0, path_bandwidth_bytes_per_s);
  const ProtocolModel m(params);
  return std::max({m.send_overhead_s(bytes), m.recv_overhead_s(bytes),
                   bytes / (path_bandwidth_bytes_per_s * m.bandwidth_factor(bytes))});
}

double osu_bw_prediction_bytes_per_s(const ProtocolParams& params, double path_latency_s,
                                     double path_bandwidth_bytes_per_s, double bytes, int window) {
  if (window < 1)
    throw std::invalid_argument("osu_bw prediction: window must be >= 1, got " + std::to_string(window));
  if (!(bytes > 0.0))
    throw std::invalid_argument("osu_bw prediction: bytes must be > 0, got " + std::to_string(bytes));
  const double w = static_cast<double>(window);
  const double elapsed = osu_latency_prediction_s(params, path_latency_s, path_bandwidth_bytes_per_s, bytes) +
                         (w - 1.0) * osu_message_gap_s(params, path_bandwidth_bytes_per_s, bytes) +
                         osu_latency_prediction_s(params, path_latency_s, path_bandwidth_bytes_per_s, 4.0);
  return w * bytes / elapsed;
}

double osu_bibw_prediction_bytes_per_s(const ProtocolParams& params, double path_latency_s,
                                       double path_bandwidth_bytes_per_s, double bytes, int window) {
  return 2.0 *
         osu_bw_prediction_bytes_per_s(params, path_latency_s, path_bandwidth_bytes_per_s, bytes, window);
}

} // namespace hplsim::models
