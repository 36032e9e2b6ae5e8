// HPL.dat input on the command line (docs/studies.md, "HPL.dat input"): one
// run, several runs as a sweep, and the errors naming the line or the flag.
#include <algorithm>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "tests/sim/cli/cli_runner.hpp"

namespace hplsim::sim::testing {
namespace {

// workstation-n12000.dat cut to one run: N 2000, NB 128, 1 x 2.
std::string one_run_dat(const TempDir& dir) {
  std::string text = read_text(source_path("scenarios/hpl-dat/workstation-n12000.dat"));
  const auto replace = [&](const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  replace("12000        Ns", "2000         Ns");
  replace("4            # of NBs\n32 64 128 256 NBs", "1            # of NBs\n128          NBs");
  replace("2            # of process grids (P x Q)\n1 2          Ps\n2 1          Qs",
          "1            # of process grids (P x Q)\n1            Ps\n2            Qs");
  const std::string path = (dir / "HPL.dat").string();
  std::ofstream(path) << text;
  return path;
}

TEST(HplDatCli, OneRunIsARun) {
  TempDir dir;
  const std::string dat = one_run_dat(dir);
  const CliResult r =
      run_hplsim({"run", "--hpl-dat", dat, "--machine", source_path("scenarios/workstation-cpu.textproto"),
                  "--out", (dir / "o").string()},
                 dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: " + dat + ": read, not simulated"), std::string::npos) << r.err;
  const std::string summary = read_text(dir / "o" / "summary.json");
  EXPECT_NE(summary.find("\"n\": 2000"), std::string::npos) << summary;
  EXPECT_NE(summary.find("\"nb\": 128"), std::string::npos) << summary;
  EXPECT_NE(summary.find("\"q\": 2"), std::string::npos) << summary;
}

TEST(HplDatCli, NetlibsSampleRunsAsASweep) {
  TempDir dir;
  const CliResult r =
      run_hplsim({"run", "--hpl-dat", source_path("scenarios/hpl-dat/netlib-hpl-2.3-sample.dat"), "--machine",
                  source_path("scenarios/small-dragonfly.textproto"), "--out", (dir / "o").string()},
                 dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("lists 288 runs: they run as a sweep"), std::string::npos) << r.out;
  const std::string csv = read_text(dir / "o" / "sweep.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 289); // header + 288 runs
  EXPECT_EQ(csv.rfind("PxQ,N,NB,rfact,nbmin,benchmark,", 0), 0u) << csv.substr(0, 100);
}

TEST(HplDatCli, SweepTakesAnHplDatOnTheScenariosMachine) {
  TempDir dir;
  const auto run = [&](const std::string& out) {
    const CliResult r = run_hplsim({"sweep", source_path("scenarios/small-dragonfly.textproto"), "--hpl-dat",
                                    source_path("scenarios/hpl-dat/workstation-n12000.dat"), "--mode",
                                    "analytic", "--out", (dir / out).string()},
                                   dir);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return read_text(dir / out / "sweep.csv");
  };
  const std::string csv = run("a");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 9); // 2 grids x 4 NBs + header
  EXPECT_NE(csv.find("\n2x1,256,hpl,analytic,1,12000,256,2,1,1,"), std::string::npos) << csv;
  EXPECT_EQ(csv, run("b"));
}

TEST(HplDatCli, ErrorsNameTheLineOrTheFlag) {
  TempDir dir;
  std::string bad = read_text(source_path("scenarios/hpl-dat/workstation-n12000.dat"));
  bad.replace(bad.find("4            NBMINs"), 20, "four         NBMINs");
  const std::string bad_path = (dir / "bad.dat").string();
  std::ofstream(bad_path) << bad;
  const std::string dat = source_path("scenarios/hpl-dat/workstation-n12000.dat");
  const std::string machine = source_path("scenarios/workstation-cpu.textproto");
  struct Case {
    std::vector<std::string> args;
    int code;
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"run", "--hpl-dat", bad_path, "--machine", machine},
       1,
       "bad.dat:17: NBMINs: \"four\" is not a whole number"},
      {{"sweep", machine, "--hpl-dat", bad_path}, 1, "bad.dat:17: NBMINs"},
      {{"run", "--hpl-dat", dat}, 1, "give the machine with --machine SCENARIO"},
      {{"run", "--machine", machine}, 1, "--machine goes with --hpl-dat"},
      {{"run"}, 1, "give a scenario, or --hpl-dat"},
      {{"run", "--hpl-dat", dat, "--machine", machine, "--NB", "64"}, 1, "--NB is the HPL.dat's to give"},
      {{"run", "--hpl-dat", dat, "--machine", machine, "--trials", "2"}, 1, "lists 8 runs; trials take one"},
      {{"sweep", machine, "--hpl-dat", dat, "--vary", "NB=64"},
       1,
       "--vary, --grids and --fixed-N are not taken with it"},
      {{"sweep", machine, "--hpl-dat", dat, "--fixed-N"},
       1,
       "--vary, --grids and --fixed-N are not taken with it"},
      {{"run", "--hpl-dat", (dir / "none.dat").string(), "--machine", machine}, 2, "--hpl-dat"},
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
