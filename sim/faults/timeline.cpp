#include "sim/faults/timeline.hpp"

#include <algorithm>
#include <tuple>

#include "sim/scenario/machine_topology.hpp"

namespace hplsim::sim {

std::optional<NodeFailureEvent> FaultTimeline::first_failure_before(double horizon_s) const {
  if (node_failures.empty() || node_failures.front().time_s >= horizon_s) return std::nullopt;
  return node_failures.front();
}

FaultTimeline build_timeline(const ResolvedScenario& sc, const topo::Topology& topology, std::uint64_t /*run*/,
                             double /*horizon_s*/) {
  const Faults& f = sc.faults;
  FaultTimeline t;
  for (const auto& flap : f.link_flaps()) {
    FlapEvent e;
    e.link_class = flap.link().link_class();
    e.index = flap.link().index();
    e.link = links_of_class(topology, e.link_class).at(static_cast<std::size_t>(e.index));
    e.start_s = flap.start_s();
    e.duration_s = flap.duration_s();
    e.source = "listed";
    t.flaps.push_back(e);
  }
  for (const auto& n : f.node_failures())
    t.node_failures.push_back({0, n.node(), n.time_s(), "listed"});
  for (const auto& d : f.degradations())
    t.degradations.push_back({0, d.node(), d.has_gpu() ? d.gpu() : -1, d.rate_factor(), d.from_s()});
  // Stable orders (equal times keep the scenario's order), then ids in that order.
  std::stable_sort(t.flaps.begin(), t.flaps.end(),
                   [](const FlapEvent& a, const FlapEvent& b) { return a.start_s < b.start_s; });
  std::stable_sort(t.node_failures.begin(), t.node_failures.end(),
                   [](const NodeFailureEvent& a, const NodeFailureEvent& b) { return a.time_s < b.time_s; });
  std::stable_sort(t.degradations.begin(), t.degradations.end(),
                   [](const DegradationEvent& a, const DegradationEvent& b) { return a.from_s < b.from_s; });
  int id = 0;
  for (auto& e : t.flaps)
    e.id = id++;
  for (auto& e : t.node_failures)
    e.id = id++;
  for (auto& e : t.degradations)
    e.id = id++;
  t.retry_waits_s = f.retry().waits_s_size() > 0
                        ? std::vector<double>(f.retry().waits_s().begin(), f.retry().waits_s().end())
                        : kCassiniRetryWaits_s;
  t.restart_setup_s = f.restart_setup_s();
  return t;
}

} // namespace hplsim::sim
