#include "topologies/topology.hpp"

#include <cstdio>
#include <string>

namespace hplsim::topo {

const char* to_string(LinkKind kind) {
  switch (kind) {
  case LinkKind::Nic:
    return "nic";
  case LinkKind::Local:
    return "local";
  case LinkKind::Global:
    return "global";
  case LinkKind::Leaf:
    return "leaf";
  case LinkKind::Spine:
    return "spine";
  }
  return "?";
}

namespace {

std::string format_bandwidth(double bytes_per_s) {
  char buf[96];
  // A machine's figures in PB/s (with TB/s beside); a small cluster's in the
  // unit that shows them, not as 0.000 PB/s.
  if (bytes_per_s >= 1e14)
    std::snprintf(buf, sizeof buf, "%.3f PB/s (%.1f TB/s)", bytes_per_s / 1e15, bytes_per_s / 1e12);
  else if (bytes_per_s >= 1e12)
    std::snprintf(buf, sizeof buf, "%.3f TB/s", bytes_per_s / 1e12);
  else
    std::snprintf(buf, sizeof buf, "%.1f GB/s", bytes_per_s / 1e9);
  return buf;
}

} // namespace

std::string metrics_text(const Metrics& metrics) {
  std::string text;
  text += "nodes:     " + std::to_string(metrics.nodes) + "\n";
  text += "NICs:      " + std::to_string(metrics.nics) + "\n";
  text += "switches:  " + std::to_string(metrics.switches) + "\n";
  text += "links:     " + std::to_string(metrics.links) + " (cables, all kinds)\n";
  text += "injection: " + format_bandwidth(metrics.injection_bandwidth_bytes_per_s) + ", one direction\n";
  text += "bisection: " + format_bandwidth(metrics.bisection_bandwidth_bytes_per_s) + ", both directions\n";
  text += "diameter:  " + std::to_string(metrics.diameter_switch_hops) + " switch-to-switch hops\n";
  return text;
}

} // namespace hplsim::topo
