// Bad noise inputs (machine.variability.noise, models/calibration.proto): one
// test per rule, each error naming the field (sim/scenario/scenario_validate.cpp).
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "sim/engine/replay_setup.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "sim/scenario/scenario_loader.hpp"

namespace hplsim::sim {
namespace {

// The shipped one-node Aurora scenario with `noise` inside its variability
// block, loaded as if it were scenarios/x.textproto.
std::string scenario_with(const std::string& noise) {
  std::ifstream in(std::string(HPLSIM_SOURCE_DIR) + "/scenarios/aurora-hpl-1node.textproto");
  std::stringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  const std::string anchor = "  variability {\n";
  text.insert(text.find(anchor) + anchor.size(), "    noise { " + noise + " }\n");
  return text;
}
const std::string kPath = std::string(HPLSIM_SOURCE_DIR) + "/scenarios/x.textproto";

std::string error_of(const std::string& noise) {
  try {
    load_scenario_text(scenario_with(noise), kPath);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

void expect_error(const std::string& noise, const std::string& expected) {
  const std::string e = error_of(noise);
  EXPECT_NE(e.find(expected), std::string::npos) << "error: " << e;
}

TEST(NoiseValidation, AValidNoiseBlockLoadsAndLaysOutTheCores) {
  const std::string noise =
      "os_cores_per_node: 2 sources { scope: CORE poisson { rate_per_s: 1 length_s: 1e-3 } } "
      "sources { scope: NODE periodic { period_s: 1 length_s: 1e-4 } }";
  ASSERT_EQ(error_of(noise), "");
  const ResolvedScenario sc = resolve(load_scenario_text(scenario_with(noise), kPath));
  // 104 cores, 2 for the OS, 6 ranks: 17 threads each by default, no idle core.
  EXPECT_EQ(sc.workload.panel_threads, 17);
  const auto config = noise_config(sc);
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(config->layout.spare_cores(), 2);
  EXPECT_EQ(config->layout.first_core(5), 2 + 5 * 17);
  EXPECT_TRUE(config->active());
}

TEST(NoiseValidation, ASourceNeedsAScopeAndAProcess) {
  expect_error("sources { poisson { rate_per_s: 1 length_s: 1e-3 } }",
               "machine.variability.noise.sources[0].scope is required");
  expect_error("sources { scope: CORE }",
               "machine.variability.noise.sources[0] needs one of periodic, poisson or trace_file");
}

TEST(NoiseValidation, DetoursMustLeaveTheCoreSomeTime) {
  expect_error("sources { scope: CORE periodic { period_s: 1e-3 length_s: 1e-3 } }",
               "machine.variability.noise.sources[0].periodic.length_s (0.001) must be below period_s");
  expect_error("sources { scope: CORE poisson { rate_per_s: 2000 length_s: 1e-3 } }",
               "machine.variability.noise.sources[0].poisson.rate_per_s x length_s = 2");
  expect_error("sources { scope: CORE poisson { rate_per_s: -1 length_s: 1e-3 } }",
               "machine.variability.noise.sources[0].poisson.rate_per_s");
  expect_error("sources { scope: CORE periodic { length_s: 1e-3 } }",
               "machine.variability.noise.sources[0].periodic.period_s");
  // At most one detour a microsecond: faster is a slower core, not noise.
  expect_error("sources { scope: CORE periodic { period_s: 1e-9 length_s: 1e-10 } }",
               "machine.variability.noise.sources[0].periodic.period_s");
  expect_error("sources { scope: CORE poisson { rate_per_s: 1e9 length_s: 1e-12 } }",
               "machine.variability.noise.sources[0].poisson.rate_per_s");
}

TEST(NoiseValidation, ATraceFileMustExistAndParse) {
  expect_error("sources { scope: CORE trace_file: \"no-such.trace\" }",
               "machine.variability.noise.sources[0].trace_file \"no-such.trace\": no such file");
  const std::filesystem::path bad = std::filesystem::path(HPLSIM_BINARY_DIR) / "noise_validate_bad.trace";
  std::ofstream(bad) << "0.1 1e-5\n0.2 oops\n";
  expect_error("sources { scope: CORE trace_file: \"" + bad.string() + "\" }",
               "noise_validate_bad.trace:2: length_s \"oops\" is not a number");
}

TEST(NoiseValidation, ReservedCoresMustLeaveTheRanksTheirThreads) {
  // 6 ranks of 17 threads are 102 cores; 4 more for the OS exceed 104.
  const std::string text = scenario_with("os_cores_per_node: 4");
  std::string with_threads = text;
  with_threads.insert(with_threads.find("workload {\n") + 11, "  panel_threads: 17\n");
  try {
    load_scenario_text(with_threads, kPath);
    FAIL() << "expected a ScenarioError";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "machine.variability.noise.os_cores_per_node + "
                  "workload.ranks_per_node*panel_threads = 4 + 6*17 exceeds the node's cores = 104"),
              std::string::npos)
        << e.what();
  }
  expect_error("os_cores_per_node: -1", "machine.variability.noise.os_cores_per_node");
}

TEST(NoiseValidation, TheAnalyticModeRefusesNoiseRatherThanDropIt) {
  ScenarioOverrides o;
  o.mode = "analytic";
  try {
    load_scenario_text(scenario_with("sources { scope: CORE poisson { rate_per_s: 1 length_s: 1e-3 } }"),
                       kPath, o);
    FAIL() << "expected a ScenarioError";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("the analytic mode has no system noise"), std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(load_scenario_text(scenario_with("os_cores_per_node: 0"), kPath, o)); // no source, no noise
}

} // namespace
} // namespace hplsim::sim
