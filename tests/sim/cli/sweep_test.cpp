// hplsim sweep (docs/studies.md, "Sweeps"): the ranking, sweep.csv and its
// reproducibility, and the flags' errors.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "tests/sim/cli/cli_runner.hpp"

namespace hplsim::sim::testing {
namespace {

// small-dragonfly in fast mode at NB 128 and 256 (~13 s on 2 cores): NB 128
// samples windows (its own jackknife), NB 256's 48 steps are all simulated.
TEST(SweepCli, RanksThePointsAndWritesOneRowEach) {
  TempDir dir;
  const std::vector<std::string> args = {"sweep",  source_path("scenarios/small-dragonfly.textproto"),
                                         "--vary", "NB=128,256",
                                         "--mode", "fast",
                                         "--out",  (dir / "a").string()};
  const CliResult r = run_hplsim(args, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Rule: P x Q:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1     NB="), std::string::npos) << r.out;
  // NB varies and N does not: both points' N re-derived (12,288 for both, a
  // multiple of 128 and 256), marked and explained under the table.
  EXPECT_NE(r.out.find(" 12288* "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n* N re-derived for the point by the rule above"), std::string::npos) << r.out;
  // One point samples windows (an error estimate), so the verdict is about significance.
  EXPECT_TRUE(r.out.find("not significant: within twice the sampling error") != std::string::npos ||
              r.out.find("significant: beyond twice the sampling error") != std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("the model's own"), std::string::npos) << r.out;
  const std::string csv = read_text(dir / "a" / "sweep.csv");
  EXPECT_EQ(csv.rfind("NB,benchmark,mode,seed,n,nb,p,q,", 0), 0u) << csv.substr(0, 200);
  EXPECT_NE(csv.find("crossover_fraction"), std::string::npos);
  EXPECT_NE(csv.find("rmax_sampling_error_fraction"), std::string::npos);
  EXPECT_NE(csv.find("\n128,hpl,fast,1,12288,128,12,24,"), std::string::npos) << csv;
  // NB 256: N 12,288 is already a multiple of it.
  EXPECT_NE(csv.find("\n256,hpl,fast,1,12288,256,12,24,"), std::string::npos) << csv;
  EXPECT_NE(read_text(dir / "a" / "sweep.svg").find("class=\"best\""), std::string::npos);
}

TEST(SweepCli, TheSameSweepGivesTheSameBytes) {
  TempDir dir;
  const auto run = [&](const char* out) {
    const CliResult r =
        run_hplsim({"sweep", source_path("scenarios/small-dragonfly.textproto"), "--grids", "auto:0.2-1",
                    "--vary", "bcast=1rg,2rM", "--mode", "analytic", "--out", (dir / out).string()},
                   dir);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return read_text(dir / out / "sweep.csv");
  };
  const std::string a = run("a");
  EXPECT_EQ(a, run("b"));
  // 2 broadcasts x 4 grids of 288 ranks with 0.2 <= P/Q <= 1 (8x36, 9x32, 12x24, 16x18): 8 rows + header.
  EXPECT_EQ(std::count(a.begin(), a.end(), '\n'), 9);
}

TEST(SweepCli, DryRunListsThePointsAndSimulatesNothing) {
  TempDir dir;
  const CliResult r =
      run_hplsim({"sweep", source_path("scenarios/aurora-hpl-sc24.textproto"), "--vary", "NB=256,512",
                  "--grids", "auto:0.25-1", "--dry-run", "--out", (dir / "o").string()},
                 dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 2 NB x the 3 grids of 55,404 ranks with 0.25 <= P/Q <= 1 (docs/results.md, "Aurora at full scale").
  EXPECT_NE(r.out.find("6 points"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("6: NB 512, PxQ 228x243 -> N 28773888 (re-derived), NB 512, 228 x 243 on 9234 nodes"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(dir / "o"));
}

// NB 200 is not a divisor of small-dragonfly's N 12,288: the rule re-derives
// N (the largest multiple of 200 with the scenario's memory per rank, 12,200),
// --fixed-N keeps 12,288.
TEST(SweepCli, FixedNHoldsTheScenariosNForEveryPoint) {
  TempDir dir;
  const std::string sc = source_path("scenarios/small-dragonfly.textproto");
  const CliResult derived = run_hplsim({"sweep", sc, "--vary", "NB=128,200", "--dry-run"}, dir);
  ASSERT_EQ(derived.exit_code, 0) << derived.err;
  EXPECT_NE(derived.out.find("2: NB 200 -> N 12200 (re-derived), NB 200"), std::string::npos) << derived.out;
  const CliResult fixed = run_hplsim({"sweep", sc, "--vary", "NB=128,200", "--fixed-N", "--dry-run"}, dir);
  ASSERT_EQ(fixed.exit_code, 0) << fixed.err;
  EXPECT_NE(fixed.out.find("2: NB 200 -> N 12288, NB 200"), std::string::npos) << fixed.out;
  EXPECT_EQ(fixed.out.find("re-derived"), std::string::npos) << fixed.out;
  const CliResult help = run_hplsim({"sweep", "--help"}, dir);
  EXPECT_NE(help.out.find("--fixed-N"), std::string::npos) << help.out;
}

TEST(SweepCli, BadFlagsAreErrorsNamingTheFlag) {
  TempDir dir;
  const std::string sc = source_path("scenarios/small-dragonfly.textproto");
  struct Case {
    std::vector<std::string> args;
    int code;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"sweep", sc, "--vary", "colour=red"}, 1, "--vary colour=red: unknown name"},
      {{"sweep", sc, "--vary", "NB=abc"}, 1, "--vary NB=abc"},
      {{"sweep", sc, "--grids", "auto:2-3"}, 1, "--grids auto:2-3"},
      {{"sweep", sc}, 1, "nothing varies"},
      {{"sweep", sc, "--vary", "workload.nbb=1"}, 1, "workload.nbb"},
      {{"sweep", sc, "--vary", "NB=128", "--jobs", "0"}, 2, "--jobs"},
  };
  for (const Case& c : cases) {
    auto args = c.args;
    args.insert(args.end(), {"--out", (dir / "o").string()});
    const CliResult r = run_hplsim(args, dir);
    EXPECT_EQ(r.exit_code, c.code) << c.says << "\n" << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
  }
}

} // namespace
} // namespace hplsim::sim::testing
