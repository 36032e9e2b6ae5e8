// Studies under MPI (sim/distributed/world.hpp): `mpirun -n 2 hplsim plan` and
// `mpirun -n 2 hplsim run --trials` on this machine give the same files,
// byte for byte, as one process.
#include <algorithm>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "tests/sim/cli/cli_runner.hpp"

namespace hplsim::sim::testing {
namespace {

#ifdef HPLSIM_MPIEXEC
// mpirun refuses root unless told (CI runs as root); --oversubscribe lets two
// ranks share fewer cores.
CliResult run_mpi(int ranks, std::vector<std::string> args, const TempDir& scratch) {
  ::setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
  ::setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  // Under scripts/sanitize.sh: Open MPI's own leaks cannot be suppressed by
  // name (tests/sanitizer/lsan.supp says why), so the ranks do not check leaks.
  std::string env;
  if (const char* asan = std::getenv("ASAN_OPTIONS"); asan != nullptr)
    env = "ASAN_OPTIONS=" + shell_quote(std::string(asan) + ":detect_leaks=0") + " ";
  std::string command = env + shell_quote(HPLSIM_MPIEXEC) + " -n " + std::to_string(ranks) +
                        " --oversubscribe " + shell_quote(HPLSIM_CLI);
  for (const std::string& a : args)
    command += " " + shell_quote(a);
  const fs::path out = scratch / "mpi.stdout", err = scratch / "mpi.stderr";
  command += " >" + shell_quote(out.string()) + " 2>" + shell_quote(err.string());
  const int status = std::system(command.c_str());
  CliResult r;
  if (status != -1 && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  r.out = read_text(out);
  r.err = read_text(err);
  return r;
}

// `hplsim VERB SCENARIO common...` once alone (--out DIR/local) and once under
// `mpirun -n 2` (--out DIR/mpi); returns the two results.
std::pair<CliResult, CliResult> alone_and_under_mpi(const std::string& verb, const std::string& scenario,
                                                    const std::vector<std::string>& common,
                                                    const TempDir& dir) {
  std::vector<std::string> local = {verb, scenario, "--out", (dir / "local").string()};
  std::vector<std::string> mpi = {verb, scenario, "--out", (dir / "mpi").string()};
  local.insert(local.end(), common.begin(), common.end());
  mpi.insert(mpi.end(), common.begin(), common.end());
  CliResult one = run_hplsim(local, dir);
  return {one, run_mpi(2, mpi, dir)};
}

TEST(Mpi, PlanUnderTwoRanksWritesTheSamePlanAsOneProcess) {
  TempDir dir;
  const std::string sc = small_dragonfly_with_failures(dir);
  const std::vector<std::string> common = {"--nodes", "24,36,48", "--trials", "30",
                                           "--mode",  "analytic", "--set",    "workload.n=1228800"};
  const auto [one, two] = alone_and_under_mpi("plan", sc, common, dir);
  ASSERT_EQ(one.exit_code, 0) << one.err;
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_EQ(read_text(dir / "local" / "plan.csv"), read_text(dir / "mpi" / "plan.csv"));
  EXPECT_EQ(read_text(dir / "local" / "plan.svg"), read_text(dir / "mpi" / "plan.svg"));
  // Only rank 0 prints: the same table (the outputs line names the other directory).
  EXPECT_EQ(one.out.substr(0, one.out.find("outputs:")), two.out.substr(0, two.out.find("outputs:")));
}

TEST(Mpi, TrialsUnderTwoRanksWriteTheSameFilesAsOneProcess) {
  TempDir dir;
  const std::string sc = small_dragonfly_with_failures(dir);
  // An odd count: the ranks' shares differ (rank 0 has one more).
  const std::vector<std::string> common = {"--trials", "41", "--mode", "analytic", "--N", "1228800"};
  const auto [one, two] = alone_and_under_mpi("run", sc, common, dir);
  ASSERT_EQ(one.exit_code, 0) << one.err;
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_EQ(read_text(dir / "local" / "trials.csv"), read_text(dir / "mpi" / "trials.csv"));
  // Each trial's events travel with its row from the rank that ran it.
  const std::string events = read_text(dir / "local" / "trial-faults.csv");
  EXPECT_GT(std::count(events.begin(), events.end(), '\n'), 1) << "no trial reached an event";
  EXPECT_EQ(events, read_text(dir / "mpi" / "trial-faults.csv"));
  EXPECT_EQ(read_text(dir / "local" / "outcome.json"), read_text(dir / "mpi" / "outcome.json"));
}

TEST(Mpi, SweepUnderTwoRanksWritesTheSameSweepAsOneProcess) {
  TempDir dir;
  const std::vector<std::string> common = {"--grids",    "auto:0.2-1", "--vary",
                                           "NB=128,256", "--mode",     "analytic"};
  const auto [one, two] =
      alone_and_under_mpi("sweep", source_path("scenarios/small-dragonfly.textproto"), common, dir);
  ASSERT_EQ(one.exit_code, 0) << one.err;
  ASSERT_EQ(two.exit_code, 0) << two.err;
  EXPECT_EQ(read_text(dir / "local" / "sweep.csv"), read_text(dir / "mpi" / "sweep.csv"));
  EXPECT_EQ(read_text(dir / "local" / "sweep.svg"), read_text(dir / "mpi" / "sweep.svg"));
}

TEST(Mpi, AnErrorOnTheRanksEndsTheJobWithItsExitCode) {
  TempDir dir;
  const CliResult r = run_mpi(
      2, {"plan", small_dragonfly_with_failures(dir), "--nodes", "4800", "--out", (dir / "o").string()}, dir);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--nodes 4800: more nodes than the machine has"), std::string::npos) << r.err;
}
#else
TEST(Mpi, BuiltWithoutMpi) {
  GTEST_SKIP() << "hplsim was configured with -DHPLSIM_MPI=OFF: no MPI test";
}
#endif

} // namespace
} // namespace hplsim::sim::testing
