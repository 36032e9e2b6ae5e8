// Failure and flap processes: Monte Carlo against the closed forms, determinism,
// the expected time to success, and one invalid input per validation rule.
//
// Tolerances: a Monte Carlo estimate is held within 4 standard errors of its
// closed form. For a probability p estimated from K independent runs the standard
// error is the binomial sqrt(p (1 - p) / K); for a mean, sd / sqrt(K) with sd known
// from the law (exponential: sd = mean) or estimated from the sample; for a Poisson
// count of mean m, sqrt(m). The seeds are fixed, so each test is deterministic; with
// a fresh seed a correct model would fail a 4-SE check with probability 6e-5.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "models/failure_model.hpp"
#include "models/random_streams.hpp"

namespace hm = hplsim::models;

namespace {

constexpr std::uint64_t kSeed = 20240611;

hm::FailureParams exponential(double rate_per_hour) {
  hm::FailureParams p;
  p.node.rate_per_hour = rate_per_hour;
  return p;
}

hm::FailureParams weibull(double shape, double scale_hours) {
  hm::FailureParams p;
  p.node.law = hm::NodeFailureLaw::Weibull;
  p.node.weibull_shape = shape;
  p.node.weibull_scale_hours = scale_hours;
  return p;
}

// Components (lambda_node = 6e-3 + 1e-3 + 2e-3 = 9e-3 per hour) and 4 domains of 4
// nodes at 0.02 per hour on 16 nodes: Lambda = 16 * 9e-3 + 4 * 0.02 = 0.224 per hour.
hm::FailureParams components_and_domains() {
  hm::FailureParams p;
  p.node.components = {{"gpu", 6, 1e-3}, {"cpu", 2, 5e-4}, {"other", 1, 2e-3}};
  for (int d = 0; d < 4; ++d)
    p.domains.push_back({"chassis" + std::to_string(d), {4 * d, 4 * d + 1, 4 * d + 2, 4 * d + 3}, 0.02});
  return p;
}

// Fraction of K runs (run index i = RandomStreams(kSeed, i)) without any event in T.
double survival_fraction(const hm::FailureParams& p, int nodes, double t_s, int runs) {
  int survived = 0;
  for (int i = 0; i < runs; ++i)
    survived += hm::draw_failures(p, nodes, t_s, hm::RandomStreams(kSeed, i)).empty() ? 1 : 0;
  return static_cast<double>(survived) / runs;
}

double binomial_se(double p, int k) {
  return std::sqrt(p * (1.0 - p) / k);
}

struct Sample {
  double mean = 0.0, sd = 0.0;
  std::size_t n = 0;
};

Sample sample(const std::vector<double>& v) {
  Sample s;
  s.n = v.size();
  for (double x : v)
    s.mean += x;
  s.mean /= static_cast<double>(s.n);
  double ss = 0.0;
  for (double x : v)
    ss += (x - s.mean) * (x - s.mean);
  s.sd = std::sqrt(ss / static_cast<double>(s.n - 1));
  return s;
}

std::vector<hm::LinkFlapClass> three_flap_classes() {
  return {{"nic", 100, 0.5, hm::FlapDurationLaw::Fixed, 30.0, 0.0},
          {"local", 50, 0.2, hm::FlapDurationLaw::Exponential, 60.0, 0.0},
          {"global", 80, 1.0, hm::FlapDurationLaw::Lognormal, 10.0, 2.0}};
}

} // namespace

// ---- (a) exponential survival -------------------------------------------------

TEST(FailureModel, ExponentialSurvivalMatchesMonteCarlo) {
  // 20 nodes at 0.01 per node-hour over 2.5 h: Lambda T = 0.5, p = e^-0.5 = 0.6065.
  const auto p = exponential(0.01);
  const double t_s = 2.5 * 3600.0, expected = std::exp(-20 * 0.01 * 2.5);
  EXPECT_NEAR(hm::survival_probability(p, 20, t_s), expected, 1e-15);
  const int runs = 20000;
  EXPECT_NEAR(survival_fraction(p, 20, t_s, runs), expected, 4.0 * binomial_se(expected, runs));
}

TEST(FailureModel, ComponentsAndDomainsSurvivalMatchesMonteCarlo) {
  // Lambda = 0.224 per hour (see components_and_domains), T = 3 h: p = e^-0.672 = 0.5107.
  const auto p = components_and_domains();
  EXPECT_NEAR(hm::total_failure_rate_per_hour(p, 16), 0.224, 1e-15);
  const double t_s = 3.0 * 3600.0, expected = std::exp(-0.224 * 3.0);
  EXPECT_NEAR(hm::survival_probability(p, 16, t_s), expected, 1e-15);
  const int runs = 20000;
  EXPECT_NEAR(survival_fraction(p, 16, t_s, runs), expected, 4.0 * binomial_se(expected, runs));
}

TEST(FailureModel, EventsAreAttributedInProportionToRates) {
  // Competing risks: a node event is "gpu" with probability 6e-3 / 9e-3 = 2/3; an
  // event is a domain's with probability 0.08 / 0.224. Binomial SE over the events.
  const auto p = components_and_domains();
  int node_events = 0, gpu = 0, domain = 0, total = 0;
  for (int i = 0; i < 2000; ++i)
    for (const hm::FailureEvent& e : hm::draw_failures(p, 16, 10 * 3600.0, hm::RandomStreams(kSeed, i))) {
      ++total;
      if (e.kind == hm::FailureKind::Domain) {
        ++domain;
        EXPECT_EQ(e.node, 4 * e.domain); // the domain's first listed node
        EXPECT_TRUE(e.component.empty());
      } else {
        ++node_events;
        gpu += e.component == "gpu" ? 1 : 0;
        EXPECT_EQ(e.domain, -1);
      }
    }
  ASSERT_GT(total, 1000);
  EXPECT_NEAR(static_cast<double>(gpu) / node_events, 2.0 / 3.0, 4.0 * binomial_se(2.0 / 3.0, node_events));
  const double pd = 0.08 / 0.224;
  EXPECT_NEAR(static_cast<double>(domain) / total, pd, 4.0 * binomial_se(pd, total));
}

// ---- (b) Weibull survival ----------------------------------------------------

TEST(FailureModel, WeibullSurvivalMatchesMonteCarlo) {
  // exp(-N (T/eta)^k): decreasing hazard k = 0.7 and increasing k = 1.5.
  const int runs = 20000;
  {
    // 20 nodes, eta = 1000 h, T = 10 h: 20 * 0.01^0.7 = 0.796, p = 0.451.
    const auto p = weibull(0.7, 1000.0);
    const double t_s = 10 * 3600.0, expected = std::exp(-20 * std::pow(0.01, 0.7));
    EXPECT_NEAR(hm::survival_probability(p, 20, t_s), expected, 1e-15);
    EXPECT_NEAR(survival_fraction(p, 20, t_s, runs), expected, 4.0 * binomial_se(expected, runs));
  }
  {
    // 10 nodes, eta = 50 h, T = 8 h: 10 * 0.16^1.5 = 0.64, p = 0.527.
    const auto p = weibull(1.5, 50.0);
    const double t_s = 8 * 3600.0, expected = std::exp(-10 * std::pow(0.16, 1.5));
    EXPECT_NEAR(hm::survival_probability(p, 10, t_s), expected, 1e-15);
    EXPECT_NEAR(survival_fraction(p, 10, t_s, runs), expected, 4.0 * binomial_se(expected, runs));
  }
}

// ---- (c) mean time to first failure -------------------------------------------

TEST(FailureModel, MeanTimeToFirstFailureMatchesMonteCarlo) {
  const int runs = 20000;
  {
    // Exponential, 20 nodes at 0.01 per hour: 1/Lambda = 5 h = 18,000 s, sd = mean.
    // Horizon 40 means: P(no event) = e^-40, so every run has a first event.
    const auto p = exponential(0.01);
    const double mean_s = hm::mean_time_to_first_failure_s(p, 20);
    EXPECT_NEAR(mean_s, 18000.0, 1e-9);
    std::vector<double> first;
    for (int i = 0; i < runs; ++i) {
      const auto ev = hm::draw_failures(p, 20, 40 * mean_s, hm::RandomStreams(kSeed, i));
      ASSERT_FALSE(ev.empty());
      first.push_back(ev.front().time_s);
    }
    EXPECT_NEAR(sample(first).mean, mean_s, 4.0 * mean_s / std::sqrt(runs));
  }
  {
    // Weibull k = 0.7, eta = 1000 h, 20 nodes: eta 20^(-1/0.7) Gamma(1 + 1/0.7) = 17.02 h.
    // Horizon 10,000 h: 20 * 10^0.7 = 100, P(no event) = e^-100. SE from the sample.
    const auto p = weibull(0.7, 1000.0);
    const double mean_s = hm::mean_time_to_first_failure_s(p, 20);
    EXPECT_NEAR(mean_s, 1000.0 * std::pow(20.0, -1.0 / 0.7) * std::tgamma(1.0 + 1.0 / 0.7) * 3600.0, 1e-6);
    std::vector<double> first;
    for (int i = 0; i < runs; ++i) {
      const auto ev = hm::draw_failures(p, 20, 1e4 * 3600.0, hm::RandomStreams(kSeed, i));
      ASSERT_FALSE(ev.empty());
      first.push_back(ev.front().time_s);
    }
    const Sample s = sample(first);
    EXPECT_NEAR(s.mean, mean_s, 4.0 * s.sd / std::sqrt(runs));
  }
}

TEST(FailureModel, NothingFailsAtZeroRates) {
  hm::FailureParams p = exponential(0.0);
  p.domains.push_back({"cab", {0, 1}, 0.0});
  EXPECT_TRUE(hm::draw_failures(p, 4, 1e9, hm::RandomStreams(kSeed)).empty());
  EXPECT_EQ(hm::survival_probability(p, 4, 1e9), 1.0);
  EXPECT_EQ(hm::mean_time_to_first_failure_s(p, 4), std::numeric_limits<double>::infinity());
}

// ---- (d) link flaps ----------------------------------------------------------

TEST(LinkFlaps, CountsArePoissonWithTheRatePerLinkPerHour) {
  // Per class over 200 runs of 10 h: total count mean = links * rate * 10 * 200
  // (100,000 / 20,000 / 160,000), SE sqrt(mean); per-link count variance = its mean
  // (Poisson), SE of a sample variance sqrt((m + 2 m^2) / n) for n link-runs; starts
  // uniform on [0, T) given the count, mean T/2, SE T / sqrt(12 n).
  const auto classes = three_flap_classes();
  const int runs = 200;
  const double t_s = 10 * 3600.0;
  std::vector<std::vector<double>> per_link(classes.size());
  std::vector<double> start_sum(classes.size(), 0.0), count(classes.size(), 0.0);
  for (std::size_t c = 0; c < classes.size(); ++c)
    per_link[c].assign(static_cast<std::size_t>(classes[c].links) * runs, 0.0);
  for (int i = 0; i < runs; ++i)
    for (const hm::FlapEvent& f : hm::draw_link_flaps(classes, t_s, hm::RandomStreams(kSeed, i))) {
      const auto c = static_cast<std::size_t>(f.link_class);
      ++count[c];
      start_sum[c] += f.start_s;
      ++per_link[c][static_cast<std::size_t>(i) * classes[c].links + f.link];
    }
  for (std::size_t c = 0; c < classes.size(); ++c) {
    const double m = classes[c].rate_per_hour * 10.0; // per link-run
    const double n = static_cast<double>(per_link[c].size());
    EXPECT_NEAR(count[c], m * n, 4.0 * std::sqrt(m * n)) << classes[c].name;
    const Sample s = sample(per_link[c]);
    EXPECT_NEAR(s.sd * s.sd, m, 4.0 * std::sqrt((m + 2 * m * m) / n)) << classes[c].name;
    EXPECT_NEAR(start_sum[c] / count[c], t_s / 2, 4.0 * t_s / std::sqrt(12.0 * count[c])) << classes[c].name;
  }
}

TEST(LinkFlaps, DurationsHaveTheRequestedMean) {
  // Fixed 30 s exactly; exponential mean 60 s (sd 60); lognormal mean 10 s, cv 2
  // (sd 20): SE sd / sqrt(n) over all flaps drawn.
  const auto classes = three_flap_classes();
  std::vector<std::vector<double>> d(classes.size());
  for (int i = 0; i < 200; ++i)
    for (const hm::FlapEvent& f : hm::draw_link_flaps(classes, 10 * 3600.0, hm::RandomStreams(kSeed, i)))
      d[static_cast<std::size_t>(f.link_class)].push_back(f.duration_s);
  for (double x : d[0])
    ASSERT_EQ(x, 30.0);
  const Sample e = sample(d[1]), l = sample(d[2]);
  EXPECT_NEAR(e.mean, 60.0, 4.0 * 60.0 / std::sqrt(e.n));
  EXPECT_NEAR(l.mean, 10.0, 4.0 * 20.0 / std::sqrt(l.n));
  EXPECT_NEAR(l.sd / l.mean, 2.0, 0.2); // heavy tail (sigma^2 = ln 5): sample cv is loose, 10% [U]
}

TEST(LinkFlaps, OverlappingFlapsOfOneLinkAreReturnedAsDrawn) {
  // One link, 60 flaps per hour, 10-minute flaps: consecutive flaps overlap
  // (mean gap 1 min), and none is merged or dropped: count ~ Poisson(600), 4 SE.
  const std::vector<hm::LinkFlapClass> one = {{"x", 1, 60.0, hm::FlapDurationLaw::Fixed, 600.0, 0.0}};
  const auto f = hm::draw_link_flaps(one, 10 * 3600.0, hm::RandomStreams(kSeed));
  EXPECT_NEAR(static_cast<double>(f.size()), 600.0, 4.0 * std::sqrt(600.0));
  int overlaps = 0;
  for (std::size_t i = 1; i < f.size(); ++i)
    overlaps += f[i].start_s < f[i - 1].start_s + f[i - 1].duration_s ? 1 : 0;
  EXPECT_GT(overlaps, 500); // P(gap < 10 min) = 1 - e^-10
}

// ---- (e) determinism ---------------------------------------------------------

TEST(FailureModel, SameSeedAndRunGiveIdenticalEvents) {
  const auto p = components_and_domains();
  const auto a = hm::draw_failures(p, 16, 50 * 3600.0, hm::RandomStreams(kSeed, 3));
  const auto b = hm::draw_failures(p, 16, 50 * 3600.0, hm::RandomStreams(kSeed, 3));
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, b); // bit-identical times
  EXPECT_NE(a, hm::draw_failures(p, 16, 50 * 3600.0, hm::RandomStreams(kSeed, 4)));
  const auto c = three_flap_classes();
  EXPECT_EQ(hm::draw_link_flaps(c, 3600.0, hm::RandomStreams(kSeed, 3)),
            hm::draw_link_flaps(c, 3600.0, hm::RandomStreams(kSeed, 3)));
}

TEST(FailureModel, RunEventsDoNotDependOnOtherRuns) {
  const auto p = components_and_domains();
  std::vector<std::vector<hm::FailureEvent>> in_sequence;
  for (int i = 0; i < 10; ++i)
    in_sequence.push_back(hm::draw_failures(p, 16, 50 * 3600.0, hm::RandomStreams(kSeed, i)));
  EXPECT_EQ(in_sequence[7], hm::draw_failures(p, 16, 50 * 3600.0, hm::RandomStreams(kSeed, 7)));
}

TEST(FailureModel, AddingANodeKeepsTheOtherNodesEvents) {
  for (const auto& p : {exponential(0.05), weibull(0.7, 30.0), components_and_domains()}) {
    const auto small = hm::draw_failures(p, 16, 100 * 3600.0, hm::RandomStreams(kSeed, 2));
    auto big = hm::draw_failures(p, 17, 100 * 3600.0, hm::RandomStreams(kSeed, 2));
    std::erase_if(big, [](const hm::FailureEvent& e) { return e.node == 16; });
    ASSERT_FALSE(small.empty());
    EXPECT_EQ(small, big);
  }
}

TEST(FailureModel, ALongerHorizonKeepsTheShorterOnesEvents) {
  const auto p = components_and_domains();
  const auto shorter = hm::draw_failures(p, 16, 20 * 3600.0, hm::RandomStreams(kSeed, 5));
  auto longer = hm::draw_failures(p, 16, 60 * 3600.0, hm::RandomStreams(kSeed, 5));
  std::erase_if(longer, [](const hm::FailureEvent& e) { return e.time_s >= 20 * 3600.0; });
  EXPECT_EQ(shorter, longer);
}

TEST(FailureModel, DomainRatesLeaveNodeEventsUnchanged) {
  auto p = components_and_domains();
  const auto keep_nodes = [](std::vector<hm::FailureEvent> v) {
    std::erase_if(v, [](const hm::FailureEvent& e) { return e.kind == hm::FailureKind::Domain; });
    return v;
  };
  const auto before = keep_nodes(hm::draw_failures(p, 16, 100 * 3600.0, hm::RandomStreams(kSeed, 1)));
  for (auto& d : p.domains)
    d.rate_per_hour = 0.5;
  EXPECT_EQ(before, keep_nodes(hm::draw_failures(p, 16, 100 * 3600.0, hm::RandomStreams(kSeed, 1))));
}

TEST(LinkFlaps, AddingLinksOrClassesKeepsTheOtherLinksFlaps) {
  const auto classes = three_flap_classes();
  const auto before = hm::draw_link_flaps(classes, 5 * 3600.0, hm::RandomStreams(kSeed, 9));
  auto more = classes;
  more[1].links += 7;
  more.push_back({"extra", 40, 3.0, hm::FlapDurationLaw::Exponential, 5.0, 0.0});
  auto after = hm::draw_link_flaps(more, 5 * 3600.0, hm::RandomStreams(kSeed, 9));
  std::erase_if(after, [&](const hm::FlapEvent& f) {
    return f.link_class == 3 || (f.link_class == 1 && f.link >= classes[1].links);
  });
  ASSERT_FALSE(before.empty());
  EXPECT_EQ(before, after);
}

TEST(FailureModel, EventsAreSortedAndInsideTheHorizon) {
  const auto ev = hm::draw_failures(components_and_domains(), 16, 30 * 3600.0, hm::RandomStreams(kSeed, 6));
  for (std::size_t i = 0; i < ev.size(); ++i) {
    EXPECT_GE(ev[i].time_s, 0.0);
    EXPECT_LT(ev[i].time_s, 30 * 3600.0);
    if (i > 0) {
      EXPECT_LE(ev[i - 1].time_s, ev[i].time_s);
    }
  }
  EXPECT_TRUE(hm::draw_failures(components_and_domains(), 16, 0.0, hm::RandomStreams(kSeed)).empty());
}

// ---- (f) expected time to success ---------------------------------------------

TEST(FailureModel, ExpectedTimeToSuccessMatchesMonteCarloOfRestarts) {
  // 10 nodes at 0.02 per hour (Lambda = 0.2 / h), T = 5 h (Lambda T = 1), R = 1800 s:
  // E = (e - 1)(18,000 + 1,800) = 34,022 s. Monte Carlo: attempt a draws from
  // RandomStreams(kSeed, a); a failed attempt costs its first event's time + R, the
  // completing one T. SE = sample sd / sqrt(completions).
  const auto p = exponential(0.02);
  const double t_s = 5 * 3600.0, r_s = 1800.0;
  const double expected = std::expm1(1.0) * (18000.0 + 1800.0);
  EXPECT_NEAR(hm::expected_time_to_success_s(0.2, t_s, r_s), expected, 1e-9);
  EXPECT_NEAR(hm::expected_time_to_success_s(0.2, t_s, r_s, hm::SetupCost::EveryAttempt), expected + r_s,
              1e-9);
  EXPECT_NEAR(hm::expected_failed_attempts(0.2, t_s), std::expm1(1.0), 1e-15);
  const int completions = 10000;
  std::vector<double> wall;
  std::uint64_t attempt = 0;
  double failed_attempts = 0.0;
  for (int c = 0; c < completions; ++c) {
    double w = 0.0;
    for (;;) {
      const auto ev = hm::draw_failures(p, 10, t_s, hm::RandomStreams(kSeed, attempt++));
      if (ev.empty()) break;
      w += ev.front().time_s + r_s;
      ++failed_attempts;
    }
    wall.push_back(w + t_s);
  }
  const Sample s = sample(wall);
  EXPECT_NEAR(s.mean, expected, 4.0 * s.sd / std::sqrt(completions));
  // Failed attempts per completion: geometric, mean e - 1, variance (1-p)/p^2 = e(e - 1).
  EXPECT_NEAR(failed_attempts / completions, std::expm1(1.0),
              4.0 * std::sqrt(std::exp(1.0) * std::expm1(1.0) / completions));
}

TEST(FailureModel, ExpectedTimeToSuccessTendsToTheRunTime) {
  // Lambda -> 0: (Lambda T + O(Lambda^2))(1/Lambda + R) -> T; the first attempt pays
  // no set-up unless asked.
  EXPECT_EQ(hm::expected_time_to_success_s(0.0, 1000.0, 600.0), 1000.0);
  EXPECT_EQ(hm::expected_time_to_success_s(0.0, 1000.0, 600.0, hm::SetupCost::EveryAttempt), 1600.0);
  EXPECT_NEAR(hm::expected_time_to_success_s(1e-12, 1000.0, 600.0), 1000.0, 1e-6);
  EXPECT_EQ(hm::expected_time_to_success_s(0.5, 0.0, 600.0), 0.0);
}

TEST(FailureModel, AuroraHplWorkedNumber) {
  // models/README.md, "Failure and flap processes": 9,234 nodes at 2e-5 failures per
  // node-hour [U] (machine MTBF 5.41 h), the 15,700 s SC24 HPL run [D], R = 1,800 s [U]:
  // Lambda = 0.18468 / h, Lambda T = 0.80541, P(success) = 0.4469, 1.2376 failed
  // attempts expected, E = 1.2376 (19,493 + 1,800) = 26,352.7 s = 7.32 h (python3).
  const auto p = exponential(2e-5);
  const double lambda = hm::total_failure_rate_per_hour(p, 9234);
  EXPECT_NEAR(lambda, 0.18468, 1e-12);
  EXPECT_NEAR(hm::survival_probability(p, 9234, 15700.0), 0.446905, 1e-6);
  EXPECT_NEAR(hm::expected_failed_attempts(lambda, 15700.0), 1.237614, 1e-6);
  EXPECT_NEAR(hm::expected_time_to_success_s(lambda, 15700.0, 1800.0), 26352.73, 0.01);
}

// ---- (g) one invalid input per rule --------------------------------------------

namespace {

void expect_failures_rejected(const hm::FailureParams& p, int nodes, const std::string& field) {
  try {
    hm::draw_failures(p, nodes, 3600.0, hm::RandomStreams(kSeed));
    ADD_FAILURE() << "accepted; expected an error naming " << field;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
  }
}

void expect_flaps_rejected(const hm::LinkFlapClass& k, const std::string& field) {
  try {
    hm::draw_link_flaps({k}, 3600.0, hm::RandomStreams(kSeed));
    ADD_FAILURE() << "accepted; expected an error naming " << field;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
  }
}

hm::LinkFlapClass good_flaps() {
  return {"nic", 4, 1.0, hm::FlapDurationLaw::Lognormal, 5.0, 0.5};
}

} // namespace

TEST(FailureModelInput, RejectsNegativeNodeCount) {
  expect_failures_rejected(exponential(0.1), -1, "nodes");
}

TEST(FailureModelInput, RejectsNegativeNodeRate) {
  expect_failures_rejected(exponential(-1.0), 4, "failures.node.rate_per_hour");
}

TEST(FailureModelInput, RejectsNonFiniteNodeRate) {
  expect_failures_rejected(exponential(std::numeric_limits<double>::quiet_NaN()), 4,
                           "failures.node.rate_per_hour");
  expect_failures_rejected(exponential(std::numeric_limits<double>::infinity()), 4,
                           "failures.node.rate_per_hour");
}

TEST(FailureModelInput, RejectsNegativeComponentRate) {
  hm::FailureParams p;
  p.node.components = {{"gpu", 6, -1e-3}};
  expect_failures_rejected(p, 4, "failures.node.components[0].rate_per_hour");
}

TEST(FailureModelInput, RejectsNegativeComponentCount) {
  hm::FailureParams p;
  p.node.components = {{"gpu", 6, 1e-3}, {"cpu", -2, 1e-3}};
  expect_failures_rejected(p, 4, "failures.node.components[1].count_per_node");
}

TEST(FailureModelInput, RejectsUnnamedComponent) {
  hm::FailureParams p;
  p.node.components = {{"", 6, 1e-3}};
  expect_failures_rejected(p, 4, "failures.node.components[0].name");
}

TEST(FailureModelInput, RejectsRepeatedComponentName) {
  hm::FailureParams p;
  p.node.components = {{"gpu", 6, 1e-3}, {"gpu", 2, 1e-3}};
  expect_failures_rejected(p, 4, "failures.node.components[1].name");
}

TEST(FailureModelInput, RejectsNodeRateTogetherWithComponents) {
  hm::FailureParams p = exponential(1e-3);
  p.node.components = {{"gpu", 6, 1e-3}};
  expect_failures_rejected(p, 4, "failures.node.rate_per_hour");
}

TEST(FailureModelInput, RejectsComponentsWithTheWeibullLaw) {
  hm::FailureParams p = weibull(0.7, 100.0);
  p.node.components = {{"gpu", 6, 1e-3}};
  expect_failures_rejected(p, 4, "failures.node.components");
}

TEST(FailureModelInput, RejectsNonPositiveWeibullShape) {
  expect_failures_rejected(weibull(0.0, 100.0), 4, "failures.node.weibull_shape");
  expect_failures_rejected(weibull(-0.5, 100.0), 4, "failures.node.weibull_shape");
}

TEST(FailureModelInput, RejectsNonPositiveWeibullScale) {
  expect_failures_rejected(weibull(0.7, 0.0), 4, "failures.node.weibull_scale_hours");
}

TEST(FailureModelInput, RejectsWeibullFieldsForTheExponentialLaw) {
  hm::FailureParams p = exponential(1e-3);
  p.node.weibull_shape = 0.7;
  expect_failures_rejected(p, 4, "failures.node.weibull_shape");
}

TEST(FailureModelInput, RejectsNegativeDomainRate) {
  hm::FailureParams p = exponential(1e-3);
  p.domains.push_back({"cab", {0, 1}, -0.1});
  expect_failures_rejected(p, 4, "failures.domains[0].rate_per_hour");
}

TEST(FailureModelInput, RejectsDomainNodeOutOfRange) {
  hm::FailureParams p = exponential(1e-3);
  p.domains.push_back({"cab", {0, 1}, 0.1});
  p.domains.push_back({"cab", {2, 4}, 0.1});
  expect_failures_rejected(p, 4, "failures.domains[1].nodes[1]");
  p.domains[1].nodes = {-1};
  expect_failures_rejected(p, 4, "failures.domains[1].nodes[0]");
}

TEST(FailureModelInput, RejectsEmptyDomain) {
  hm::FailureParams p = exponential(1e-3);
  p.domains.push_back({"cab", {}, 0.1});
  expect_failures_rejected(p, 4, "failures.domains[0].nodes");
}

TEST(FailureModelInput, RejectsDomainListingANodeTwice) {
  hm::FailureParams p = exponential(1e-3);
  p.domains.push_back({"cab", {0, 2, 0}, 0.1});
  expect_failures_rejected(p, 4, "failures.domains[0].nodes");
}

TEST(FailureModelInput, RejectsBadHorizon) {
  EXPECT_THROW(hm::draw_failures(exponential(1e-3), 4, -1.0, hm::RandomStreams(kSeed)),
               std::invalid_argument);
  EXPECT_THROW(
      hm::draw_link_flaps({good_flaps()}, std::numeric_limits<double>::infinity(), hm::RandomStreams(kSeed)),
      std::invalid_argument);
}

TEST(FailureModelInput, RejectsNegativeLinkCount) {
  auto k = good_flaps();
  k.links = -1;
  expect_flaps_rejected(k, "flaps.classes[0].links");
}

TEST(FailureModelInput, RejectsNegativeFlapRate) {
  auto k = good_flaps();
  k.rate_per_hour = -2.0;
  expect_flaps_rejected(k, "flaps.classes[0].rate_per_hour");
}

TEST(FailureModelInput, RejectsNonPositiveFlapDuration) {
  auto k = good_flaps();
  k.duration_mean_s = 0.0;
  expect_flaps_rejected(k, "flaps.classes[0].duration_mean_s");
}

TEST(FailureModelInput, RejectsNegativeFlapCv) {
  auto k = good_flaps();
  k.duration_cv = -0.5;
  expect_flaps_rejected(k, "flaps.classes[0].duration_cv");
}

TEST(FailureModelInput, RejectsCvForANonLognormalDuration) {
  auto k = good_flaps();
  k.duration_law = hm::FlapDurationLaw::Exponential;
  expect_flaps_rejected(k, "flaps.classes[0].duration_cv");
}

TEST(FailureModelInput, RejectsBadClosedFormInputs) {
  EXPECT_THROW(hm::expected_time_to_success_s(-0.1, 1000.0, 10.0), std::invalid_argument);
  EXPECT_THROW(hm::expected_time_to_success_s(0.1, -1.0, 10.0), std::invalid_argument);
  EXPECT_THROW(hm::expected_time_to_success_s(0.1, 1000.0, std::numeric_limits<double>::quiet_NaN()),
               std::invalid_argument);
  EXPECT_THROW(hm::survival_probability(exponential(0.1), 4, -5.0), std::invalid_argument);
  EXPECT_THROW(hm::node_failure_rate_per_hour(weibull(0.7, 10.0).node), std::invalid_argument);
  hm::FailureParams p = weibull(0.7, 10.0);
  p.domains.push_back({"cab", {0}, 0.1});
  EXPECT_THROW(hm::mean_time_to_first_failure_s(p, 4), std::invalid_argument);
}
