// The timer rule (workload.hpl.timer_rule; docs/replay.md, "The timer rule")
// moves a wait for a panel between phase columns and nothing else: one Aurora
// node (aurora-hpl-1node, 6 ranks 2 x 3, host-staged GPU look-ahead) in
// reference mode at N 30,000 (79 panel steps, ~3 s a run), under netlib's
// rule and the asynchronous-broadcast hypothesis.
#include <cstddef>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/sim/cli/cli_runner.hpp"

namespace hplsim::sim::testing {
namespace {

struct RuleRun {
  nlohmann::json summary;
  std::vector<std::vector<std::string>> steps;
  std::string stdout_text;
};

RuleRun run_with(const std::string& rule, const TempDir& dir) {
  const fs::path out = dir / rule;
  const CliResult r =
      run_hplsim({"run", source_path("scenarios/aurora-hpl-1node.textproto"), "--mode", "reference", "--N",
                  "30000", "--set", "workload.hpl.timer_rule=" + rule, "--out", out.string()},
                 dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return {nlohmann::json::parse(read_text(out / "summary.json")), steps_rows(out), r.out};
}

double cell(const std::vector<std::string>& row, std::size_t i) {
  return std::stod(row.at(i));
}

TEST(TimerRuleRun, MovesTheWaitForAPanelFromBcastToSwapAndNoStepTime) {
  TempDir dir;
  const RuleRun netlib = run_with("NETLIB", dir);
  const RuleRun async = run_with("ASYNC_BCAST", dir);
  // Rmax and every step's start, end and length: the same to the last digit.
  EXPECT_EQ(async.summary["rmax_flops_per_s"], netlib.summary["rmax_flops_per_s"]);
  EXPECT_EQ(async.summary["time_s"], netlib.summary["time_s"]);
  ASSERT_EQ(async.steps.size(), netlib.steps.size());
  ASSERT_GT(netlib.steps.size(), 70u);
  // steps.csv: step, matrix_fraction, start_s, end_s, step_s, then pfact bcast swap trsm gemm solve (_s).
  enum { kStart = 2, kEnd = 3, kStep = 4, kPfact = 5, kBcast = 6, kSwap = 7, kTrsm = 8, kGemm = 9 };
  double bcast_netlib = 0, bcast_async = 0, swap_netlib = 0, swap_async = 0;
  for (std::size_t i = 0; i < netlib.steps.size(); ++i) {
    const auto& a = async.steps[i];
    const auto& n = netlib.steps[i];
    for (const int c : {kStart, kEnd, kStep, kPfact, kTrsm, kGemm})
      EXPECT_EQ(a.at(c), n.at(c)) << "step " << i << " column " << c;
    // Only receives move, from BCAST to SWAP.
    EXPECT_LE(cell(a, kBcast), cell(n, kBcast)) << "step " << i;
    EXPECT_GE(cell(a, kSwap), cell(n, kSwap)) << "step " << i;
    bcast_netlib += cell(n, kBcast);
    bcast_async += cell(a, kBcast);
    swap_netlib += cell(n, kSwap);
    swap_async += cell(a, kSwap);
  }
  // The rule moved something: the 2 x 3 grid's non-owner columns wait for the
  // panel beyond their GEMM in most steps (slowest-rank BCAST 0.600 -> 0.404 s,
  // SWAP 0.400 -> 0.887 s, measured 2026-12-06).
  EXPECT_LT(bcast_async, 0.9 * bcast_netlib);
  EXPECT_GT(swap_async, swap_netlib);
  // The output says which rule produced the columns and the phase crossover.
  EXPECT_EQ(netlib.summary["timer_rule"], "netlib");
  EXPECT_EQ(async.summary["timer_rule"], "async_bcast");
  EXPECT_NE(async.stdout_text.find("HYPOTHESIS [I]"), std::string::npos) << async.stdout_text;
  EXPECT_NE(netlib.stdout_text.find("timer rule netlib"), std::string::npos) << netlib.stdout_text;
  EXPECT_TRUE(async.summary.contains("gemm_below_phase_fraction"));
  // crossover_step reads the update's share of the step (TRSM + GEMM), which
  // the rule leaves alone.
  EXPECT_EQ(async.summary["crossover_step"], netlib.summary["crossover_step"]);
}

} // namespace
} // namespace hplsim::sim::testing
