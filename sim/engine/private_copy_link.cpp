#include "sim/engine/private_copy_link.hpp"

#include "sim/engine/engine_setup.hpp"

#include <algorithm>

namespace hplsim::sim {

PrivateCopyLink PrivateCopyLink::of(const PlatformSpec& spec) {
  PrivateCopyLink l;
  l.link_latency_s = spec.pcie_latency_s;
  l.bandwidth_bytes_per_s = spec.pcie_bandwidth_bytes_per_s;
  l.resource = std::make_unique<PrivateResource>(l.bandwidth_bytes_per_s);
  return l;
}

// As the network model prices a transfer between a GPU host and a CPU host
// (never "on one node": only CPU hosts are mapped to nodes).
double PrivateCopyLink::latency_s(double bytes) const {
  return transfer_latency_s(link_latency_s, bytes);
}

double PrivateCopyLink::bound_bytes_per_s(double bytes) const {
  return transfer_bandwidth_factor(bytes) * bandwidth_bytes_per_s;
}

double PrivateCopyLink::alone_s(double bytes) const {
  return latency_s(bytes) + bytes / std::min(bandwidth_bytes_per_s, bound_bytes_per_s(bytes));
}

} // namespace hplsim::sim
