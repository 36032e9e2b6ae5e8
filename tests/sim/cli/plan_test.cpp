// hplsim plan (docs/studies.md, "Capacity planning"): the table, the files,
// their reproducibility, and the flags' errors.
#include <string>

#include <gtest/gtest.h>

#include "tests/sim/cli/cli_runner.hpp"

namespace hplsim::sim::testing {
namespace {

// The scenario is small_dragonfly_with_failures (cli_runner.hpp) in analytic
// mode at N 1,228,800: the plan takes seconds.

std::vector<std::string> plan_args(const std::string& scenario, const std::string& out) {
  return {"plan",   scenario,   "--nodes", "48,24,36",           "--trials",       "40",
          "--mode", "analytic", "--set",   "workload.n=1228800", "--window-hours", "0.08",
          "--out",  out};
}

TEST(Plan, PrintsTheTableAndTheBestNodeCountUnderEachObjective) {
  TempDir dir;
  const std::string sc = small_dragonfly_with_failures(dir);
  const CliResult r = run_hplsim(plan_args(sc, (dir / "a").string()), dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Rule: P x Q: the factorization of the ranks with P <= Q closest (in log) to the "
                       "scenario's P:Q, on the most nodes"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Best under rmax-in-window: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Best under time-to-result: "), std::string::npos) << r.out;
  // The window as given, and intervals as [lo, hi].
  EXPECT_NE(r.out.find("E[Rmax in 0.08 h] PF/s"), std::string::npos) << r.out;
  // Intervals read "[lo, hi]": a comma inside brackets is always followed by a space.
  std::size_t intervals = 0;
  for (auto open = r.out.find('['); open != std::string::npos; open = r.out.find('[', open + 1)) {
    const auto close = r.out.find(']', open);
    const auto comma = r.out.find(',', open);
    if (close == std::string::npos || comma == std::string::npos || comma > close) continue;
    ++intervals;
    EXPECT_EQ(r.out[comma + 1], ' ') << r.out.substr(open, close - open + 1);
  }
  EXPECT_GT(intervals, 0u) << r.out;
  // Rows sorted by node count (nodes, active nodes, idle ranks, ranks, ...); 24 nodes
  // re-derived to 144 ranks, 36 to 216, 48 the scenario's own run; every node active.
  const std::string csv = read_text(dir / "a" / "plan.csv");
  const auto at24 = csv.find("\n24,24,0,144,"), at36 = csv.find("\n36,36,0,216,"),
             at48 = csv.find("\n48,48,0,288,12,24,1228800,");
  ASSERT_NE(at24, std::string::npos) << csv;
  EXPECT_LT(at24, at36);
  EXPECT_LT(at36, at48);
  const std::string svg = read_text(dir / "a" / "plan.svg");
  EXPECT_NE(svg.find("class=\"best\""), std::string::npos);
  // The window as given, and the table's units: 48 nodes do ~7.4 PF/s in ~2.8 min (the README tour's
  // plan scenario, here in analytic mode).
  EXPECT_NE(svg.find("within 0.08 h"), std::string::npos);
  EXPECT_NE(svg.find(">PF/s<"), std::string::npos);
  EXPECT_NE(svg.find(">min<"), std::string::npos);
  // The same seed and trials: the same bytes.
  ASSERT_EQ(run_hplsim(plan_args(sc, (dir / "b").string()), dir).exit_code, 0);
  EXPECT_EQ(csv, read_text(dir / "b" / "plan.csv"));
  EXPECT_EQ(read_text(dir / "a" / "plan.svg"), read_text(dir / "b" / "plan.svg"));
}

TEST(Plan, DryRunPrintsEachNodeCountsRunAndSimulatesNothing) {
  TempDir dir;
  const CliResult r = run_hplsim({"plan", source_path("scenarios/aurora-hpl-sc24.textproto"), "--nodes",
                                  "7000,9234", "--dry-run", "--out", (dir / "o").string()},
                                 dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The re-derived runs of docs/results.md, "Aurora HPL at a machine MTBF of 6 h".
  EXPECT_NE(r.out.find("7000 nodes: 140 x 300, N 25052544, NB 384"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("9234 nodes: 162 x 342, N 28773888, NB 384"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir / "o"));
}

TEST(Plan, BadFlagsAreErrorsThatNameTheFlag) {
  TempDir dir;
  const std::string sc = small_dragonfly_with_failures(dir);
  const std::string out = (dir / "o").string();
  struct Case {
    std::vector<std::string> args;
    int code;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"plan", sc, "--nodes", "24,4800", "--out", out}, 1, "--nodes 4800: more nodes than the machine has"},
      {{"plan", sc, "--nodes", "0", "--out", out}, 1, "--nodes 0: a node count must be >= 1"},
      {{"plan", sc, "--nodes", "24,24", "--out", out}, 1, "--nodes 24: given twice"},
      // 48 nodes: the 12 x 24 grid with N 2,560 = 10 blocks of 256 < 24 columns.
      {{"plan", sc, "--nodes", "48", "--set", "workload.n=2560", "--out", out},
       1,
       "--nodes 48: below the grid's minimum"},
      {{"plan", sc, "--nodes", "24", "--trials", "0", "--out", out}, 2, "--trials"},
      {{"plan", sc, "--nodes", "24", "--objective", "fastest", "--out", out}, 2, "--objective"},
      {{"plan", sc, "--nodes", "24", "--window-hours", "-1", "--out", out}, 2, "--window-hours"},
      {{"plan", sc, "--out", out}, 2, "--nodes"},
  };
  for (const Case& c : cases) {
    const CliResult r = run_hplsim(c.args, dir);
    EXPECT_EQ(r.exit_code, c.code) << c.says << "\n" << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
  }
}

} // namespace
} // namespace hplsim::sim::testing
