#pragma once
// Point-to-point protocol model (SMPI-like piecewise corrections).
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
  double send_overhead_s(double bytes) const;
  double recv_overhead_s(double bytes) const;
  bool is_eager(double bytes) const;
  const ProtocolParams& params() const { return params_; }

private:
  ProtocolParams params_;
};

} // namespace hplsim::models
