// The bulk-synchronous noise microbenchmark (sim/bench/noise_bench.hpp) on
// the MareNostrum 4 preset: quiet, with its node daemons on busy cores, and
// with a core left free for them.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/bench/noise_bench.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "sim/support/errors.hpp"
#include "tests/sim/engine/isolated.hpp"

namespace hplsim::sim {
namespace {

ResolvedScenario mn4() {
  return resolve(load_scenario(std::string(HPLSIM_SOURCE_DIR) + "/scenarios/marenostrum4-osu.textproto"));
}

std::vector<double> iterations(const ResolvedScenario& sc, NoiseBench bench) {
  return run_isolated([&]() { return simulate_noise_bench(sc, bench).iteration_s; });
}

TEST(NoiseBench, AQuietMachineRepeatsTheSameIteration) {
  // No noise source: every iteration is the work plus the same allreduce.
  ResolvedScenario quiet = mn4();
  quiet.machine.variability.clear_noise();
  const auto t = iterations(quiet, {2, 8, 50, 1e-3, "allreduce"});
  ASSERT_EQ(t.size(), 50U);
  const auto [lo, hi] = std::minmax_element(t.begin(), t.end());
  EXPECT_GT(*lo, 1e-3);
  EXPECT_LT(*lo, 1e-3 + 50e-6); // 16 ranks: 4 rounds of messages of a few microseconds
  EXPECT_NEAR(*hi, *lo, 1e-12);
}

TEST(NoiseBench, DaemonsSlowAFewIterationsUnlessACoreIsFree) {
  // The preset's node daemons wake every 0.25 s for 2 ms, each node at its
  // own phase: 500 iterations of ~1 ms on 4 nodes see about 2 wakes a node,
  // each slowing the iteration it falls in (or two, across a boundary) by up
  // to 2 ms. With one core free per node they run there.
  const ResolvedScenario sc = mn4();
  const auto busy = iterations(sc, {4, 48, 500, 1e-3, "allreduce"});
  const auto spare = iterations(sc, {4, 47, 500, 1e-3, "allreduce"});
  const auto median = [](std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  const auto slow = [&](const std::vector<double>& v) {
    const double m = median(v);
    return std::count_if(v.begin(), v.end(), [&](double t) { return t > m + 0.5e-3; });
  };
  EXPECT_GE(slow(busy), 6);
  EXPECT_LE(slow(busy), 16);
  EXPECT_GT(*std::max_element(busy.begin(), busy.end()), median(busy) + 1.5e-3);
  EXPECT_EQ(slow(spare), 0);
}

TEST(NoiseBench, TheBarrierSynchronisesToo) {
  const auto t = iterations(mn4(), {4, 48, 200, 1e-3, "barrier"});
  EXPECT_GT(*std::max_element(t.begin(), t.end()), 2.5e-3); // a daemon's 2 ms shows in some iteration
}

TEST(NoiseBench, TooManyCoresOrNodesIsAnErrorNamingTheFlag) {
  // The checks come before the machine is built: no engine is started here.
  const ResolvedScenario sc = mn4();
  const auto error_of = [&](const NoiseBench& bench) {
    try {
      simulate_noise_bench(sc, bench);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of({4, 49, 10, 1e-3, "allreduce"}).find("--busy-cores 49: a node has 48 cores"),
            std::string::npos);
  EXPECT_NE(error_of({1000, 4, 10, 1e-3, "allreduce"}).find("--nodes 1000: the machine has 96 nodes"),
            std::string::npos);
}

} // namespace
} // namespace hplsim::sim
