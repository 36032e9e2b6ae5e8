// System noise (models/noise.hpp): closed forms on one core and on a group of
// cores waiting for their slowest, determinism, scopes and traces.
#include "models/noise.hpp"

#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "tests/models/test_files.hpp"

namespace hplsim::models {
namespace {

std::shared_ptr<NoiseConfig> config_with(const NoiseSource& source, CoreLayout layout = {1, 1, 1, 0}) {
  auto c = std::make_shared<NoiseConfig>();
  *c->params.add_sources() = source;
  c->traces.resize(1);
  c->layout = layout;
  return c;
}

NoiseSource periodic(double period_s, double length_s, NoiseSource::Scope scope = NoiseSource::CORE) {
  NoiseSource s;
  s.set_scope(scope);
  s.mutable_periodic()->set_period_s(period_s);
  s.mutable_periodic()->set_length_s(length_s);
  return s;
}

NoiseSource poisson(double rate_per_s, double length_s, NoiseSource::Scope scope = NoiseSource::CORE) {
  NoiseSource s;
  s.set_scope(scope);
  s.mutable_poisson()->set_rate_per_s(rate_per_s);
  s.mutable_poisson()->set_length_s(length_s);
  return s;
}

// The phase of a periodic source on (node, core): its first detour after 0.
double first_detour_s(const NoiseModel& m, int node, int core, double period_s) {
  std::vector<Detour> d;
  m.detours(node, core, 0.0, period_s, d);
  EXPECT_EQ(d.size(), 1U);
  return d.empty() ? 0.0 : d.front().start_s;
}

TEST(Noise, PeriodicDetoursStretchWorkByTheirLength) {
  // A detour of d every T: work of m (T - d) that starts as a detour ends
  // takes m periods less the last detour, m T - d (closed form).
  const double T = 1e-3, d = 1e-4;
  const NoiseModel m(config_with(periodic(T, d)), 7);
  const double phase = first_detour_s(m, 0, 0, T);
  const double start = phase + d;
  for (int periods : {1, 2, 5, 40}) {
    // 1 ns short of the next detour's start, so rounding cannot put it inside.
    const double work = periods * (T - d) - 1e-9;
    EXPECT_NEAR(m.finish_s(0, 0, start, work) - start, periods * T - d - 1e-9, 1e-12) << periods;
  }
  // Work that fits between two detours is not touched.
  EXPECT_NEAR(m.finish_s(0, 0, start, 0.5 * (T - d)), start + 0.5 * (T - d), 1e-15);
}

TEST(Noise, WorkThatStartsInADetourWaitsForItsEnd) {
  const double T = 1e-3, d = 2e-4;
  const NoiseModel m(config_with(periodic(T, d)), 3);
  const double phase = first_detour_s(m, 0, 0, T);
  // Half-way into the detour: its other half, then the work (1e-5 fits before the next).
  EXPECT_NEAR(m.finish_s(0, 0, phase + d / 2, 1e-5), phase + d + 1e-5, 1e-15);
  // No work at all still waits for the core.
  EXPECT_NEAR(m.finish_s(0, 0, phase + d / 2, 0.0), phase + d, 1e-15);
  // ... and none outside a detour costs nothing.
  EXPECT_EQ(m.finish_s(0, 0, phase + d + 1e-6, 0.0), phase + d + 1e-6);
}

TEST(Noise, LongWorkRunsAtTheCoresFreeFraction) {
  // Over many periods the elapsed time is work / (1 - d / T) within one period.
  const double T = 4e-3, d = 1e-4, work = 2.0;
  const NoiseModel m(config_with(periodic(T, d)), 11);
  const double elapsed = m.finish_s(0, 0, 0.123, work) - 0.123;
  EXPECT_NEAR(elapsed, work / (1.0 - d / T), T);
}

TEST(Noise, AGroupWaitsForItsSlowestCore) {
  // Poisson detours of fixed length d at rate r on each of P cores; work s
  // on all of them in step is delayed when any core has a detour in progress
  // at its start or beginning during it: P(delayed) = 1 - exp(-P r (s + d)).
  // 20,000 starts spread over 2,000 s; tolerance 4 binomial sigmas.
  const double r = 2.0, d = 1e-3, s = 2e-4;
  const int P = 16;
  const NoiseModel m(config_with(poisson(r, d), {P, 1, P, 0}), 5);
  const int n = 20000;
  int delayed = 0;
  double delay_sum = 0.0;
  for (int i = 0; i < n; ++i) {
    const double t = 0.1 * i + 0.01;
    const double done = m.finish_s(0, 0, P, t, s);
    if (done > t + s + 1e-15) {
      ++delayed;
      delay_sum += done - t - s;
    }
  }
  const double p = 1.0 - std::exp(-P * r * (s + d));
  const double sigma = std::sqrt(p * (1 - p) / n);
  EXPECT_NEAR(double(delayed) / n, p, 4 * sigma);
  // A delayed start waits between 0 and d (one detour at a time at this rate).
  EXPECT_GT(delay_sum / delayed, 0.3 * d);
  EXPECT_LT(delay_sum / delayed, 1.05 * d);
  // One core of the same group is delayed about P times less often.
  int one = 0;
  for (int i = 0; i < n; ++i) {
    const double t = 0.1 * i + 0.01;
    one += m.finish_s(0, 3, t, s) > t + s + 1e-15 ? 1 : 0;
  }
  const double p1 = 1.0 - std::exp(-r * (s + d));
  EXPECT_NEAR(double(one) / n, p1, 4 * std::sqrt(p1 * (1 - p1) / n) + 1.0 / n);
}

TEST(Noise, PoissonRateAndExponentialLengths) {
  NoiseSource src = poisson(50.0, 2e-4);
  src.mutable_poisson()->set_exponential_length(true);
  const NoiseModel m(config_with(src), 9);
  std::vector<Detour> d;
  m.detours(0, 0, 0.0, 400.0, d); // 20,000 expected
  const double n = static_cast<double>(d.size());
  EXPECT_NEAR(n, 20000.0, 4 * std::sqrt(20000.0));
  double sum = 0.0;
  for (const Detour& x : d)
    sum += x.length_s;
  EXPECT_NEAR(sum / n, 2e-4, 4 * 2e-4 / std::sqrt(n)); // exponential: sd = mean
}

TEST(Noise, SameSeedSameDetoursWhateverWasAskedBefore) {
  const auto cfg = config_with(poisson(100.0, 1e-5), {8, 2, 4, 0});
  const NoiseModel a(cfg, 42), b(cfg, 42), c(cfg, 43);
  std::vector<Detour> x, y, z;
  b.detours(3, 5, 0.0, 1.0, y); // b asks about another core first
  a.detours(2, 1, 0.0, 1.0, x);
  b.detours(2, 1, 0.0, 1.0, y);
  c.detours(2, 1, 0.0, 1.0, z);
  ASSERT_EQ(x.size(), y.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    EXPECT_EQ(x[i].start_s, y[i].start_s);
  EXPECT_FALSE(x.size() == z.size() && !x.empty() && x.front().start_s == z.front().start_s);
  // Two cores of one node do not share detours.
  a.detours(2, 2, 0.0, 1.0, z);
  EXPECT_FALSE(!x.empty() && !z.empty() && x.front().start_s == z.front().start_s);
}

TEST(Noise, NodeDetoursRunOnASpareCoreWhenThereIsOne) {
  // 8 cores, 2 ranks of 3 threads: 2 spare cores absorb every NODE-scope detour.
  EXPECT_FALSE(NoiseModel(config_with(poisson(1000.0, 1e-4, NoiseSource::NODE), {8, 2, 3, 0}), 1).active());
  // No spare core: each detour lands on one of the 8 cores, so a core sees 1/8 of the node's rate.
  const NoiseModel m(config_with(poisson(800.0, 1e-5, NoiseSource::NODE), {8, 2, 4, 0}), 1);
  ASSERT_TRUE(m.active());
  std::vector<Detour> d;
  double total = 0.0;
  for (int core = 0; core < 8; ++core) {
    m.detours(0, core, 0.0, 50.0, d);
    EXPECT_NEAR(static_cast<double>(d.size()), 5000.0, 4 * std::sqrt(5000.0)) << core;
    total += static_cast<double>(d.size());
  }
  EXPECT_NEAR(total, 40000.0, 4 * std::sqrt(40000.0));
  // CORE-scope detours are not absorbed by spare cores.
  EXPECT_TRUE(NoiseModel(config_with(poisson(10.0, 1e-4, NoiseSource::CORE), {8, 2, 3, 0}), 1).active());
}

TEST(Noise, RankDelayUsesTheRanksOwnCores) {
  // Two ranks per node, 2 threads each, 1 OS core: rank 1 of node 0 is on cores 3-4.
  const auto cfg = config_with(periodic(1e-3, 1e-4), {5, 2, 2, 1});
  const NoiseModel m(cfg, 4);
  const double t = 0.0105, w = 5e-4;
  const double by_hand = std::max(m.finish_s(0, 3, t, w), m.finish_s(0, 4, t, w)) - t - w;
  EXPECT_DOUBLE_EQ(m.rank_delay_s(1, 2, t, w), by_hand);
  const double one = m.finish_s(0, 3, t, w) - t - w;
  EXPECT_DOUBLE_EQ(m.rank_delay_s(1, 1, t, w), one);
  // Rank 2 is rank 0 of node 1: its core 1.
  EXPECT_DOUBLE_EQ(m.rank_delay_s(2, 1, t, w), m.finish_s(1, 1, t, w) - t - w);
}

TEST(Noise, TracesReplayPeriodicallyAtAPhasePerCore) {
  const std::string path =
      testing::write_scratch_file(".trace", "# start_s length_s\n0.001 1e-5\n0.004 2e-5\n0.009 1e-6\n");
  const NoiseTrace t = read_noise_trace(path);
  ASSERT_EQ(t.detours.size(), 3U);
  EXPECT_NEAR(t.span_s, 0.009001, 1e-12);
  NoiseSource src;
  src.set_scope(NoiseSource::CORE);
  src.set_trace_file(path);
  auto cfg = config_with(src);
  cfg->traces[0] = t;
  const NoiseModel m(cfg, 2);
  std::vector<Detour> d;
  m.detours(0, 0, 0.0, 100 * t.span_s, d);
  EXPECT_NEAR(static_cast<double>(d.size()), 300.0, 3.0);
  // The same detour one span later.
  for (std::size_t i = 0; i + 3 < d.size(); ++i) {
    EXPECT_NEAR(d[i + 3].start_s - d[i].start_s, t.span_s, 1e-12);
    EXPECT_EQ(d[i + 3].length_s, d[i].length_s);
  }
}

TEST(Noise, BadTraceLinesNameTheFileTheLineAndTheField) {
  const auto error = [](const std::string& text) {
    try {
      read_noise_trace(testing::write_scratch_file(".trace", text));
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error("0.1 1e-5\n0.2 x\n").find(".trace:2: length_s \"x\" is not a number"), std::string::npos);
  EXPECT_NE(error("0.1 -1\n").find(":1: length_s"), std::string::npos);
  EXPECT_NE(error("0.5 1e-5\n0.2 1e-5\n").find(":2: start_s 0.2 is before"), std::string::npos);
  EXPECT_NE(error("0.5\n").find(":1: expected"), std::string::npos);
  EXPECT_NE(error("# nothing\n").find("has no detour"), std::string::npos);
  EXPECT_NE(error("0 1e-9\n").find("it must span at least 1 us"), std::string::npos);
}

} // namespace
} // namespace hplsim::models
