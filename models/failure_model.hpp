#pragma once
// Node failures, correlated domain failures and link flaps over a run's horizon,
// drawn from seeded streams; and the closed forms the tests and the planning
// code use (models/README.md, "Failure and flap processes").
//
// Processes (all times in seconds from the run's start; rates per hour):
//   node     each node's failures form a renewal process started new at t = 0,
//            repair time 0 (a failed node is replaced, as good as new):
//              Exponential  inter-failure times ~ Exp(lambda_node): a Poisson process;
//                           lambda_node = rate_per_hour, or sum_c count_c * rate_c over
//                           the component classes (competing risks: an event is of class
//                           c with probability count_c * rate_c / lambda_node)
//              Weibull      inter-failure times ~ Weibull(k, eta): survival exp(-(t/eta)^k)
//   domain   each domain (chassis, cabinet, dragonfly group) fails as a Poisson
//            process of its own rate; one event takes all its nodes down at once
//   link     each link of a class flaps as a Poisson process of the class's rate;
//            a flap lasts a duration drawn per flap: fixed d, Exp(mean) or
//            lognormal(mean, cv). Flap starts are Poisson whatever the durations,
//            so two flaps of one link may overlap: they are returned as drawn and
//            the caller composes them (the link is down on the union of
//            [start, start + duration)). A duration may run past the horizon.
//
// Closed forms (exponential laws; Lambda = N * lambda_node + sum_d lambda_d):
//   P(no failure in T)       = exp(-Lambda T)
//   Weibull nodes            = exp(-N (T/eta)^k) * exp(-sum_d lambda_d T)
//   mean time to first       = 1/Lambda;  Weibull nodes, no domains: eta N^(-1/k) Gamma(1 + 1/k)
//                              (the minimum of N iid Weibull(k, eta) is Weibull(k, eta N^(-1/k)))
//   expected wall time to the first completed run of length T, restart set-up R
//   before every attempt but the first, failures Poisson of rate Lambda:
//                            E = (e^{Lambda T} - 1) (1/Lambda + R)           -> T as Lambda -> 0
//   (+ R when the first attempt pays the set-up too). Derivation [D] (renewal
//   argument, Wald's identity): an attempt succeeds with p = e^{-Lambda T}; the
//   number F of failed attempts is geometric, E[F] = (1 - p)/p = e^{Lambda T} - 1;
//   a failed attempt lasts X, its time to failure given X < T,
//   E[X | X < T] = 1/Lambda - T e^{-Lambda T} / (1 - e^{-Lambda T}), then pays R;
//   the successful one lasts T. E = E[F] (E[X | X < T] + R) + T, and
//   E[F] T e^{-Lambda T} / (1 - e^{-Lambda T}) = T, so E = (e^{Lambda T} - 1)/Lambda
//   + (e^{Lambda T} - 1) R. Assumes no failure strikes during R (R is a downtime).
//   It agrees with the expected completion time e^{lambda R'} (1/lambda + D)
//   (e^{lambda (W + C)} - 1) of Bougeret, Casanova, Rabie, Robert and Vivien,
//   "Checkpointing strategies for parallel jobs", SC'11, for work W = T, no
//   checkpoint (C = 0), no recovery (R' = 0) and downtime D = R (formula as
//   recalled; the paper was not at hand: the derivation above stands alone and
//   is what the tests check, by a Monte Carlo of restarts).
//
// Figures (copied here from arXiv 2604.09517, "Sustaining Exascale Performance:
// Lessons from HPL and HPL-MxP on Aurora") [P]: more than 350,000 failure events
// per week across more than 63,000 GPUs and 21,000 CPUs; mean time between
// failures of days at petascale, hours at exascale; correlated events can take out
// thousands of nodes; not every full-scale attempt completed. The event count must
// include non-fatal events [D]: as job-fatal failures it would give a machine MTBF
// of 604,800 s / 350,000 = 1.7 s [D], incompatible with the completed ~4.4 h HPL
// run. The fatal rates are not published: no default here, every rate is an input
// [U] (models/README.md gives the arithmetic for an MTBF of hours).
//
// Determinism: the events of run i depend only on (seed, i) and the inputs
// (RandomStreams(seed, i)). Node j draws from its own generator, seeded
// RandomStreams::seed(NodeFailures, j); domain d from seed(DomainFailures, d);
// link l of class c from item_seed(seed(LinkFlaps, c), l). So adding nodes,
// domains, links or classes (at the end) changes no existing item's draws, and
// a longer horizon keeps a shorter one's events. Draw order per item: the next
// inter-event time, then (if the event is inside the horizon) its class or
// duration. Generators are std::mt19937_64 with random_draws.hpp's transforms.
//
// Pure functions of typed inputs: no SimGrid, no globals, no scenario types.
#include <cstdint>
#include <string>
#include <vector>

#include "models/random_streams.hpp"

namespace hplsim::models {

/// Law of one node's time between failures.
enum class NodeFailureLaw { Exponential, Weibull };

/// A kind of component whose failure takes its node down (Exponential law).
struct ComponentFailureClass {
  std::string name;           ///< e.g. "gpu", "cpu", "nic", "memory", "other": unique, not empty
  int count_per_node = 0;     ///< components of this class in one node (>= 0)
  double rate_per_hour = 0.0; ///< failures per component per hour (finite, >= 0)
};

struct NodeFailureParams {
  NodeFailureLaw law = NodeFailureLaw::Exponential;
  /// Exponential: failures per node per hour (finite, >= 0; 0 = none). Must be 0
  /// when `components` are given.
  double rate_per_hour = 0.0;
  /// Exponential only: lambda_node = sum of count_per_node * rate_per_hour.
  std::vector<ComponentFailureClass> components;
  double weibull_shape = 0.0;       ///< Weibull only: k (> 0; < 1 = decreasing hazard)
  double weibull_scale_hours = 0.0; ///< Weibull only: eta in hours (> 0)
};

/// A set of nodes that fail together (a chassis, a cabinet, a dragonfly group).
struct FailureDomain {
  std::string name;           ///< for messages and reports; may be empty
  std::vector<int> nodes;     ///< node indices in [0, nodes), not empty, no duplicates
  double rate_per_hour = 0.0; ///< events per domain per hour (finite, >= 0)
};

struct FailureParams {
  NodeFailureParams node;
  std::vector<FailureDomain> domains;
};

enum class FailureKind { Node, Domain };

struct FailureEvent {
  double time_s = 0.0; ///< in [0, horizon)
  FailureKind kind = FailureKind::Node;
  int node = -1;         ///< the failed node; a domain event: the domain's first listed node
  int domain = -1;       ///< the domain's index in FailureParams::domains; -1 for a node event
  std::string component; ///< the failed component's class; empty without classes and for domains
  bool operator==(const FailureEvent&) const = default;
};

/// Throws std::invalid_argument naming the first bad field ("failures.node.rate_per_hour
/// must be finite and >= 0, got -1"): nodes < 0; a negative or non-finite rate; a
/// component with an empty or repeated name or a negative count; components together
/// with rate_per_hour > 0 or with the Weibull law; a Weibull shape or scale <= 0 or
/// non-finite; Weibull fields set for the Exponential law; a domain with no nodes, a
/// node out of [0, nodes) or listed twice.
void validate_failures(const FailureParams& params, int nodes);

/// Every failure event in [0, horizon_s) on `nodes` nodes, sorted by (time, kind
/// (node first), node, domain). Only the first matters to a run without checkpoint;
/// the caller decides. Validates as validate_failures, and horizon_s finite, >= 0.
std::vector<FailureEvent> draw_failures(const FailureParams& params, int nodes, double horizon_s,
                                        const RandomStreams& streams);

/// Law of a flap's duration.
enum class FlapDurationLaw { Fixed, Exponential, Lognormal };

/// Links that flap alike (NIC ports, switch-local links, global links).
struct LinkFlapClass {
  std::string name;           ///< for messages and reports; may be empty
  int links = 0;              ///< links in the class (>= 0)
  double rate_per_hour = 0.0; ///< flaps per link per hour (finite, >= 0)
  FlapDurationLaw duration_law = FlapDurationLaw::Fixed;
  double duration_mean_s = 0.0; ///< Fixed: the duration; else its mean (finite, > 0)
  double duration_cv = 0.0;     ///< Lognormal only: coefficient of variation (finite, >= 0; 0 = fixed)
};

struct FlapEvent {
  double start_s = 0.0;    ///< in [0, horizon)
  double duration_s = 0.0; ///< >= 0 (0 only for an exponential draw of U = 1); may pass the horizon
  int link_class = -1;     ///< index in the classes given
  int link = -1;           ///< index within the class, in [0, links)
  bool operator==(const FlapEvent&) const = default;
};

/// Throws std::invalid_argument naming the first bad field ("flaps.classes[2].duration_cv
/// must be finite and >= 0, got -0.5"): links < 0; a negative or non-finite rate; a
/// duration mean <= 0 or non-finite; a cv < 0 or non-finite, or non-zero for a law
/// other than Lognormal.
void validate_link_flaps(const std::vector<LinkFlapClass>& classes);

/// Every flap starting in [0, horizon_s), sorted by (start, class, link, duration).
/// Repeated flaps of one link may overlap (see the top of this file).
std::vector<FlapEvent> draw_link_flaps(const std::vector<LinkFlapClass>& classes, double horizon_s,
                                       const RandomStreams& streams);

/// lambda_node of the Exponential law: rate_per_hour, or sum of count * rate over the
/// components. Throws std::invalid_argument for the Weibull law or bad fields.
double node_failure_rate_per_hour(const NodeFailureParams& params);

/// Lambda = nodes * lambda_node + sum of the domains' rates (Exponential law).
double total_failure_rate_per_hour(const FailureParams& params, int nodes);

/// P(no failure event, node or domain, in [0, duration_s)) on `nodes` nodes, either law.
double survival_probability(const FailureParams& params, int nodes, double duration_s);

/// Expected time to the first failure event, in seconds; +infinity when nothing can
/// fail. Exponential: 3600 / Lambda. Weibull: eta N^(-1/k) Gamma(1 + 1/k) (hours, times
/// 3600), only without failing domains (throws std::invalid_argument otherwise).
double mean_time_to_first_failure_s(const FailureParams& params, int nodes);

/// Whether the restart set-up R is paid before the first attempt too.
enum class SetupCost { RestartsOnly, EveryAttempt };

/// Expected number of failed attempts before a run of run_s completes: e^{Lambda T} - 1.
double expected_failed_attempts(double total_rate_per_hour, double run_s);

/// Expected wall time (s) to the first completed run of run_s seconds without
/// checkpoint, each restart paying restart_s (failure-free), failures Poisson of
/// total_rate_per_hour: (e^{Lambda T} - 1)(1/Lambda + R), plus R with EveryAttempt;
/// run_s (+ R) at Lambda = 0. Inputs finite and >= 0, else std::invalid_argument;
/// +infinity when e^{Lambda T} overflows.
double expected_time_to_success_s(double total_rate_per_hour, double run_s, double restart_s,
                                  SetupCost setup = SetupCost::RestartsOnly);

} // namespace hplsim::models
