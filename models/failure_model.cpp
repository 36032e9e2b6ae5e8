// Node, domain and link-flap processes and their closed forms; model, sources and
// determinism rules in failure_model.hpp and models/README.md ("Failure and flap
// processes"). Validity (enforced): rates finite and >= 0, Weibull k and eta > 0,
// flap durations > 0, cv >= 0, domain nodes in [0, nodes), horizons finite and >= 0.
#include "models/failure_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "models/random_draws.hpp"

namespace hplsim::models {

namespace {

constexpr double kSecondsPerHour = 3600.0;

std::string str(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

[[noreturn]] void fail(const std::string& field, const std::string& what, const std::string& got) {
  throw std::invalid_argument(field + " " + what + ", got " + got);
}

void require_rate(const std::string& field, double v) {
  if (!(std::isfinite(v) && v >= 0.0)) fail(field, "must be finite and >= 0", str(v));
}

void require_positive(const std::string& field, double v) {
  if (!(std::isfinite(v) && v > 0.0)) fail(field, "must be finite and > 0", str(v));
}

void require_horizon(const std::string& field, double v) {
  if (!(std::isfinite(v) && v >= 0.0)) fail(field, "must be finite and >= 0", str(v));
}

void validate_node(const NodeFailureParams& p) {
  const std::string f = "failures.node.";
  require_rate(f + "rate_per_hour", p.rate_per_hour);
  for (std::size_t c = 0; c < p.components.size(); ++c) {
    const ComponentFailureClass& k = p.components[c];
    const std::string cf = f + "components[" + std::to_string(c) + "].";
    if (k.name.empty()) fail(cf + "name", "must not be empty", "''");
    for (std::size_t e = 0; e < c; ++e)
      if (p.components[e].name == k.name)
        fail(cf + "name", "must be unique (also components[" + std::to_string(e) + "])", "'" + k.name + "'");
    if (k.count_per_node < 0) fail(cf + "count_per_node", "must be >= 0", std::to_string(k.count_per_node));
    require_rate(cf + "rate_per_hour", k.rate_per_hour);
  }
  if (p.law == NodeFailureLaw::Exponential) {
    if (!p.components.empty() && p.rate_per_hour > 0.0)
      fail(f + "rate_per_hour", "must be 0 when components are given (their rates sum to the node's)",
           str(p.rate_per_hour));
    if (p.weibull_shape != 0.0)
      fail(f + "weibull_shape", "must be unset (0) for the exponential law", str(p.weibull_shape));
    if (p.weibull_scale_hours != 0.0)
      fail(f + "weibull_scale_hours", "must be unset (0) for the exponential law",
           str(p.weibull_scale_hours));
    return;
  }
  require_positive(f + "weibull_shape", p.weibull_shape);
  require_positive(f + "weibull_scale_hours", p.weibull_scale_hours);
  if (!p.components.empty())
    fail(f + "components", "need the exponential law (per-class rates)",
         std::to_string(p.components.size()) + " classes with the Weibull law");
  if (p.rate_per_hour != 0.0)
    fail(f + "rate_per_hour", "must be unset (0) for the Weibull law", str(p.rate_per_hour));
}

double domain_rate_per_hour(const std::vector<FailureDomain>& domains) {
  double sum = 0.0;
  for (const FailureDomain& d : domains)
    sum += d.rate_per_hour;
  return sum;
}

// Exponential variate of mean 1: -ln U, U in (0, 1].
double unit_exponential(std::mt19937_64& rng) {
  return -std::log(uniform_open0(rng));
}

// Class c with probability weight[c] / total (total > 0); one draw.
std::size_t pick_class(std::mt19937_64& rng, const std::vector<double>& weight, double total) {
  const double u = uniform_open0(rng) * total;
  double cum = 0.0;
  std::size_t last = 0;
  for (std::size_t c = 0; c < weight.size(); ++c) {
    if (weight[c] == 0.0) continue;
    last = c;
    cum += weight[c];
    if (u <= cum) return c;
  }
  return last; // u above the rounded cumulative sum by an ulp
}

void draw_node_events(const NodeFailureParams& p, int nodes, double horizon_s, const RandomStreams& streams,
                      std::vector<FailureEvent>& out) {
  const bool weibull = p.law == NodeFailureLaw::Weibull;
  std::vector<double> weight;
  for (const ComponentFailureClass& k : p.components)
    weight.push_back(k.count_per_node * k.rate_per_hour);
  const double lambda = weibull ? 0.0 : node_failure_rate_per_hour(p);
  if (!weibull && lambda == 0.0) return; // nothing can fail: no draws
  const double mean_s = kSecondsPerHour / lambda;
  const double eta_s = p.weibull_scale_hours * kSecondsPerHour;
  const double inv_k = weibull ? 1.0 / p.weibull_shape : 0.0;
  for (int j = 0; j < nodes; ++j) {
    std::mt19937_64 rng(streams.seed(Stream::NodeFailures, static_cast<std::uint64_t>(j)));
    double t = 0.0;
    for (;;) {
      const double e = unit_exponential(rng);
      // Weibull(k, eta) by inversion: eta * (-ln U)^(1/k).
      t += weibull ? eta_s * std::pow(e, inv_k) : mean_s * e;
      if (!(t < horizon_s)) break;
      FailureEvent ev;
      ev.time_s = t;
      ev.kind = FailureKind::Node;
      ev.node = j;
      if (!weight.empty()) ev.component = p.components[pick_class(rng, weight, lambda)].name;
      out.push_back(std::move(ev));
    }
  }
}

void draw_domain_events(const std::vector<FailureDomain>& domains, double horizon_s,
                        const RandomStreams& streams, std::vector<FailureEvent>& out) {
  for (std::size_t d = 0; d < domains.size(); ++d) {
    if (domains[d].rate_per_hour == 0.0) continue;
    std::mt19937_64 rng(streams.seed(Stream::DomainFailures, d));
    const double mean_s = kSecondsPerHour / domains[d].rate_per_hour;
    for (double t = mean_s * unit_exponential(rng); t < horizon_s; t += mean_s * unit_exponential(rng)) {
      FailureEvent ev;
      ev.time_s = t;
      ev.kind = FailureKind::Domain;
      ev.node = domains[d].nodes.front();
      ev.domain = static_cast<int>(d);
      out.push_back(std::move(ev));
    }
  }
}

double flap_duration_s(const LinkFlapClass& k, std::mt19937_64& rng) {
  switch (k.duration_law) {
  case FlapDurationLaw::Fixed:
    return k.duration_mean_s;
  case FlapDurationLaw::Exponential:
    return k.duration_mean_s * unit_exponential(rng);
  case FlapDurationLaw::Lognormal:
    return k.duration_mean_s * lognormal_mean1(rng, k.duration_cv);
  }
  throw std::logic_error("flap_duration_s: unknown duration law");
}

} // namespace

void validate_failures(const FailureParams& params, int nodes) {
  if (nodes < 0) fail("failures: nodes", "must be >= 0", std::to_string(nodes));
  validate_node(params.node);
  for (std::size_t d = 0; d < params.domains.size(); ++d) {
    const FailureDomain& dom = params.domains[d];
    const std::string df = "failures.domains[" + std::to_string(d) + "].";
    require_rate(df + "rate_per_hour", dom.rate_per_hour);
    if (dom.nodes.empty()) fail(df + "nodes", "must not be empty", "none");
    for (std::size_t i = 0; i < dom.nodes.size(); ++i)
      if (dom.nodes[i] < 0 || dom.nodes[i] >= nodes)
        fail(df + "nodes[" + std::to_string(i) + "]", "must be in [0, " + std::to_string(nodes) + ")",
             std::to_string(dom.nodes[i]));
    std::vector<int> sorted = dom.nodes;
    std::sort(sorted.begin(), sorted.end());
    const auto dup = std::adjacent_find(sorted.begin(), sorted.end());
    if (dup != sorted.end()) fail(df + "nodes", "must not list a node twice", "node " + std::to_string(*dup));
  }
}

std::vector<FailureEvent> draw_failures(const FailureParams& params, int nodes, double horizon_s,
                                        const RandomStreams& streams) {
  validate_failures(params, nodes);
  require_horizon("failures: horizon_s", horizon_s);
  std::vector<FailureEvent> events;
  draw_node_events(params.node, nodes, horizon_s, streams, events);
  draw_domain_events(params.domains, horizon_s, streams, events);
  std::sort(events.begin(), events.end(), [](const FailureEvent& a, const FailureEvent& b) {
    return std::tie(a.time_s, a.kind, a.node, a.domain) < std::tie(b.time_s, b.kind, b.node, b.domain);
  });
  return events;
}

void validate_link_flaps(const std::vector<LinkFlapClass>& classes) {
  for (std::size_t c = 0; c < classes.size(); ++c) {
    const LinkFlapClass& k = classes[c];
    const std::string cf = "flaps.classes[" + std::to_string(c) + "].";
    if (k.links < 0) fail(cf + "links", "must be >= 0", std::to_string(k.links));
    require_rate(cf + "rate_per_hour", k.rate_per_hour);
    require_positive(cf + "duration_mean_s", k.duration_mean_s);
    if (!(std::isfinite(k.duration_cv) && k.duration_cv >= 0.0))
      fail(cf + "duration_cv", "must be finite and >= 0", str(k.duration_cv));
    if (k.duration_law != FlapDurationLaw::Lognormal && k.duration_cv != 0.0)
      fail(cf + "duration_cv", "must be unset (0) unless the duration law is lognormal", str(k.duration_cv));
  }
}

std::vector<FlapEvent> draw_link_flaps(const std::vector<LinkFlapClass>& classes, double horizon_s,
                                       const RandomStreams& streams) {
  validate_link_flaps(classes);
  require_horizon("flaps: horizon_s", horizon_s);
  std::vector<FlapEvent> events;
  for (std::size_t c = 0; c < classes.size(); ++c) {
    const LinkFlapClass& k = classes[c];
    if (k.rate_per_hour == 0.0) continue;
    const std::uint64_t class_seed = streams.seed(Stream::LinkFlaps, c);
    const double mean_gap_s = kSecondsPerHour / k.rate_per_hour;
    for (int l = 0; l < k.links; ++l) {
      std::mt19937_64 rng(RandomStreams::item_seed(class_seed, static_cast<std::uint64_t>(l)));
      for (double t = mean_gap_s * unit_exponential(rng); t < horizon_s;
           t += mean_gap_s * unit_exponential(rng)) {
        FlapEvent ev;
        ev.start_s = t;
        ev.duration_s = flap_duration_s(k, rng);
        ev.link_class = static_cast<int>(c);
        ev.link = l;
        events.push_back(ev);
      }
    }
  }
  std::sort(events.begin(), events.end(), [](const FlapEvent& a, const FlapEvent& b) {
    return std::tie(a.start_s, a.link_class, a.link, a.duration_s) <
           std::tie(b.start_s, b.link_class, b.link, b.duration_s);
  });
  return events;
}

double node_failure_rate_per_hour(const NodeFailureParams& params) {
  validate_node(params);
  if (params.law != NodeFailureLaw::Exponential)
    throw std::invalid_argument("failures.node.law: a constant rate needs the exponential law, got Weibull");
  if (params.components.empty()) return params.rate_per_hour;
  double sum = 0.0;
  for (const ComponentFailureClass& k : params.components)
    sum += k.count_per_node * k.rate_per_hour;
  return sum;
}

double total_failure_rate_per_hour(const FailureParams& params, int nodes) {
  validate_failures(params, nodes);
  return nodes * node_failure_rate_per_hour(params.node) + domain_rate_per_hour(params.domains);
}

double survival_probability(const FailureParams& params, int nodes, double duration_s) {
  validate_failures(params, nodes);
  require_horizon("survival_probability: duration_s", duration_s);
  const double t_h = duration_s / kSecondsPerHour;
  const double domains = domain_rate_per_hour(params.domains) * t_h;
  if (params.node.law == NodeFailureLaw::Exponential)
    return std::exp(-(nodes * node_failure_rate_per_hour(params.node) * t_h + domains));
  const NodeFailureParams& p = params.node;
  return std::exp(-(nodes * std::pow(t_h / p.weibull_scale_hours, p.weibull_shape) + domains));
}

double mean_time_to_first_failure_s(const FailureParams& params, int nodes) {
  validate_failures(params, nodes);
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (params.node.law == NodeFailureLaw::Exponential) {
    const double lambda = total_failure_rate_per_hour(params, nodes);
    return lambda == 0.0 ? inf : kSecondsPerHour / lambda;
  }
  if (domain_rate_per_hour(params.domains) > 0.0)
    throw std::invalid_argument("mean_time_to_first_failure_s: Weibull nodes with failing domains have no "
                                "closed form here (failures.domains rates must be 0)");
  if (nodes == 0) return inf;
  const double k = params.node.weibull_shape;
  return params.node.weibull_scale_hours * std::pow(static_cast<double>(nodes), -1.0 / k) *
         std::tgamma(1.0 + 1.0 / k) * kSecondsPerHour;
}

double expected_failed_attempts(double total_rate_per_hour, double run_s) {
  require_rate("expected_failed_attempts: total_rate_per_hour", total_rate_per_hour);
  require_horizon("expected_failed_attempts: run_s", run_s);
  return std::expm1(total_rate_per_hour / kSecondsPerHour * run_s);
}

double expected_time_to_success_s(double total_rate_per_hour, double run_s, double restart_s,
                                  SetupCost setup) {
  require_rate("expected_time_to_success_s: total_rate_per_hour", total_rate_per_hour);
  require_horizon("expected_time_to_success_s: run_s", run_s);
  require_horizon("expected_time_to_success_s: restart_s", restart_s);
  const double first = setup == SetupCost::EveryAttempt ? restart_s : 0.0;
  const double lambda_s = total_rate_per_hour / kSecondsPerHour;
  if (lambda_s == 0.0) return run_s + first;
  return std::expm1(lambda_s * run_s) * (1.0 / lambda_s + restart_s) + first;
}

} // namespace hplsim::models
