#include "sim/faults/timeline.hpp"

#include <algorithm>
#include <tuple>

#include "models/failure_model.hpp"
#include "sim/scenario/machine_topology.hpp"

namespace hplsim::sim {

std::optional<NodeFailureEvent> FaultTimeline::first_failure_before(double horizon_s) const {
  if (node_failures.empty() || node_failures.front().time_s >= horizon_s) return std::nullopt;
  return node_failures.front();
}

namespace {

models::FlapDurationLaw law_of(Duration::Law law) {
  switch (law) {
  case Duration::EXPONENTIAL:
    return models::FlapDurationLaw::Exponential;
  case Duration::LOGNORMAL:
    return models::FlapDurationLaw::Lognormal;
  default:
    return models::FlapDurationLaw::Fixed;
  }
}

// The flap process's events (models/failure_model.hpp), on topology link ids.
void draw_flaps(const FlapProcess& process, const topo::Topology& topology,
                const models::RandomStreams& streams, double horizon_s, std::vector<FlapEvent>& out) {
  std::vector<models::LinkFlapClass> classes;
  std::vector<std::vector<int>> links;
  for (const auto& c : process.classes()) {
    links.push_back(links_of_class(topology, c.link_class()));
    classes.push_back({LinkClass_Name(c.link_class()), static_cast<int>(links.back().size()),
                       c.rate_per_link_per_hour(), law_of(c.duration().law()), c.duration().mean_s(),
                       c.duration().cv()});
  }
  for (const auto& e : models::draw_link_flaps(classes, horizon_s, streams)) {
    FlapEvent f;
    f.link_class = process.classes(e.link_class).link_class();
    f.index = e.link;
    f.link = links[static_cast<std::size_t>(e.link_class)][static_cast<std::size_t>(e.link)];
    f.start_s = e.start_s;
    f.duration_s = e.duration_s;
    f.source = "process";
    out.push_back(f);
  }
}

// The failure process's events: per node of the run, and per domain of
// `nodes_per_domain` consecutive nodes.
} // namespace

models::FailureParams failure_params(const FailureProcess& p, int nodes) {
  models::FailureParams params;
  params.node.law = p.law() == FailureProcess::WEIBULL ? models::NodeFailureLaw::Weibull
                                                       : models::NodeFailureLaw::Exponential;
  params.node.rate_per_hour = p.rate_per_node_per_hour();
  for (const auto& c : p.components())
    params.node.components.push_back({c.name(), c.count_per_node(), c.rate_per_hour()});
  params.node.weibull_shape = p.weibull_shape();
  params.node.weibull_scale_hours = p.weibull_scale_hours();
  for (const auto& d : p.domains()) {
    const std::string kind = FailureProcess::Domain::Kind_Name(d.kind());
    for (int first = 0, i = 0; first < nodes; first += d.nodes_per_domain(), ++i) {
      models::FailureDomain domain;
      domain.name = kind + " " + std::to_string(i);
      for (int n = first; n < std::min(nodes, first + d.nodes_per_domain()); ++n)
        domain.nodes.push_back(n);
      domain.rate_per_hour = d.rate_per_domain_per_hour();
      params.domains.push_back(domain);
    }
  }
  return params;
}

namespace {

void draw_node_failures(const FailureProcess& p, int nodes, const models::RandomStreams& streams,
                        double horizon_s, std::vector<NodeFailureEvent>& out) {
  const models::FailureParams params = failure_params(p, nodes);
  for (const auto& e : models::draw_failures(params, nodes, horizon_s, streams)) {
    std::string cause =
        e.kind == models::FailureKind::Domain
            ? params.domains[static_cast<std::size_t>(e.domain)].name
            : (e.component.empty() ? (p.law() == FailureProcess::WEIBULL ? "weibull" : "exponential")
                                   : e.component);
    out.push_back({0, e.node, e.time_s, cause});
  }
}

} // namespace

FaultTimeline build_timeline(const ResolvedScenario& sc, const topo::Topology& topology, std::uint64_t run,
                             double horizon_s) {
  const Faults& f = sc.faults;
  FaultTimeline t;
  const models::RandomStreams streams(sc.options.seed, run);
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
  if (f.has_flap_process()) draw_flaps(f.flap_process(), topology, streams, horizon_s, t.flaps);
  for (const auto& n : f.node_failures())
    t.node_failures.push_back({0, n.node(), n.time_s(), "listed"});
  if (f.has_failure_process())
    draw_node_failures(f.failure_process(), sc.workload.nodes, streams, horizon_s, t.node_failures);
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
  t.retry_timeout_s = f.retry().has_timeout_s() ? f.retry().timeout_s() : kCassiniSptTimeout_s;
  t.collective_recovery_s = f.retry().collective_recovery_s();
  t.restart_setup_s = f.restart_setup_s();
  if (f.has_flap_process() || f.has_failure_process()) t.horizon_s = horizon_s;
  return t;
}

} // namespace hplsim::sim
