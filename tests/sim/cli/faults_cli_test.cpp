// Faults through the command line (docs/faults.md): a node failure ends the
// run at its time in reference and fast mode, a link flap delays the run by
// the retry handler's wait, the same scenario gives the same bytes, and what
// a mode cannot simulate is refused naming the field.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/sim/cli/cli_runner.hpp"

namespace hplsim::sim::testing {
namespace {

nlohmann::json summary(const fs::path& dir) {
  return nlohmann::json::parse(read_text(dir / "summary.json"));
}

class NodeFailure : public ::testing::TestWithParam<const char*> {};

// scenarios/faults/small-dragonfly-node-failure.textproto: node 3 fails at
// 0.1 s of a 0.21 s run (small-dragonfly's simulated time in reference mode).
TEST_P(NodeFailure, EndsTheRunAtItsTimeWithItsWorkLost) {
  TempDir dir;
  const CliResult r =
      run_hplsim({"run", source_path("scenarios/faults/small-dragonfly-node-failure.textproto"), "--mode",
                  GetParam(), "--out", (dir / "out").string()},
                 dir);
  ASSERT_EQ(r.exit_code, 0) << r.err; // a simulated failure is a result
  const auto j = summary(dir / "out");
  EXPECT_FALSE(j["completed"].get<bool>());
  EXPECT_NE(j["failure"].get<std::string>().find("node 3 failed at 0.1 s"), std::string::npos);
  EXPECT_DOUBLE_EQ(j["time_s"].get<double>(), 0.1);
  EXPECT_DOUBLE_EQ(j["faults"]["lost_work_s"].get<double>(), 0.1);
  EXPECT_EQ(j["faults"]["ended_by"].get<int>(), 0);
  EXPECT_DOUBLE_EQ(j["faults"]["restart_setup_s"].get<double>(), 600.0);
  EXPECT_NE(read_text(dir / "out" / "faults.csv").find("0,node_failure,\"node 3\",0.1,"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Modes, NodeFailure, ::testing::Values("reference", "fast"));

// scenarios/faults/small-dragonfly-flap.textproto: node 0's NIC 0 down for 1 s
// at 0.05 s. The messages it carries then fail, fail again on the immediate
// retry and go through on the retry 4 s later, so the run ends about 4 s later
// than without the flap: between 4 s less and 4 s more than the fault-free
// run's own time T0 = 0.21 s (the failed transfers restart from nothing; the
// ranks that did not wait overlap part of the wait).
TEST(Flap, DelaysTheRunByTheRetryWait) {
  TempDir dir;
  const CliResult base = run_hplsim(
      {"run", source_path("scenarios/small-dragonfly.textproto"), "--out", (dir / "base").string()}, dir);
  ASSERT_EQ(base.exit_code, 0) << base.err;
  const CliResult r = run_hplsim({"run", source_path("scenarios/faults/small-dragonfly-flap.textproto"),
                                  "--out", (dir / "flap").string()},
                                 dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const double t0 = summary(dir / "base")["time_s"].get<double>();
  const auto j = summary(dir / "flap");
  EXPECT_TRUE(j["completed"].get<bool>());
  const double delay = j["time_s"].get<double>() - t0;
  EXPECT_GT(delay, 4.0 - t0);
  EXPECT_LT(delay, 4.0 + t0);
  // Each failed message waited 0 s then 4 s.
  const int failed = j["faults"]["messages_failed"].get<int>();
  EXPECT_GE(failed, 1);
  EXPECT_EQ(j["faults"]["retries"].get<int>(), 2 * failed);
  EXPECT_DOUBLE_EQ(j["faults"]["retry_wait_s"].get<double>(), 4.0 * failed);
  EXPECT_NE(read_text(dir / "flap" / "steps.csv").find(",fault:0\n"), std::string::npos);
  // The event is marked on the plot, and the fault-free plot has no such marks.
  EXPECT_NE(read_text(dir / "flap" / "phases.svg").find(">F0</text>"), std::string::npos);
  EXPECT_EQ(read_text(dir / "base" / "phases.svg").find("class=\"faults\""), std::string::npos);
}

TEST(Flap, SameScenarioTwiceGivesTheSameBytes) {
  TempDir dir;
  for (const char* out : {"a", "b"})
    ASSERT_EQ(run_hplsim({"run", source_path("scenarios/faults/small-dragonfly-flap.textproto"), "--out",
                          (dir / out).string()},
                         dir)
                  .exit_code,
              0);
  for (const char* file : {"summary.json", "steps.csv", "faults.csv"})
    EXPECT_EQ(read_text(dir / "a" / file), read_text(dir / "b" / file)) << file;
}

TEST(Flap, FastModeRefusesWhatItDoesNotSimulate) {
  TempDir dir;
  const CliResult r = run_hplsim({"run", source_path("scenarios/faults/small-dragonfly-flap.textproto"),
                                  "--mode", "fast", "--out", (dir / "out").string()},
                                 dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("faults.link_flaps"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--mode reference"), std::string::npos) << r.err;
}

TEST(Faults, AFaultFreeScenarioWritesNoFaultOutputs) {
  TempDir dir;
  ASSERT_EQ(run_hplsim({"run", source_path("scenarios/small-dragonfly.textproto"), "--mode", "analytic",
                        "--out", (dir / "out").string()},
                       dir)
                .exit_code,
            0);
  EXPECT_FALSE(fs::exists(dir / "out" / "faults.csv"));
  EXPECT_FALSE(summary(dir / "out").contains("faults"));
}

} // namespace
} // namespace hplsim::sim::testing
