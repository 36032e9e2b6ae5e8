#pragma once
// A rank's link between its host memory and its GPU, one direction, as a private
// resource (sim/engine/private_resource.hpp): the copies SimGrid would send over it
// are priced as SimGrid prices a transfer on one link: the link's latency and a
// bandwidth bound, both through the protocol model installed in the network model
// (engine_setup.hpp, install_protocol), then the link's bandwidth shared.
#include <memory>

#include "sim/engine/platform_spec.hpp"
#include "sim/engine/private_resource.hpp"

namespace hplsim::sim {

struct PrivateCopyLink {
  std::unique_ptr<PrivateResource> resource; // null until made
  double link_latency_s = 0.0;
  double bandwidth_bytes_per_s = 0.0;

  /// A rank's link in one direction, as the platform describes it (PlatformSpec's
  /// pcie_* figures, which the platform's own CPU <-> GPU links would have).
  static PrivateCopyLink of(const PlatformSpec& spec);
  /// A copy's latency and bandwidth bound, as SimGrid's network model prices them
  /// (engine_setup.hpp, transfer_latency_s).
  double latency_s(double bytes) const;
  double bound_bytes_per_s(double bytes) const;
  /// A copy of `bytes` alone on the link: its latency, then the bytes at the
  /// link's rate under its bound (what the resource gives a job it does not share).
  double alone_s(double bytes) const;
};

} // namespace hplsim::sim
