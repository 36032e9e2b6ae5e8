// What `hplsim run` refuses before it simulates (issue "Refuse what cannot
// run"): a matrix that does not fit in the declared memory, and an output
// directory that cannot be written. Both are found before the simulation
// starts, so the run ends at once with the documented exit code.
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/sim/cli/cli_runner.hpp"

namespace hplsim::sim::testing {
namespace {

// small-dragonfly at N = 3,000,000 on its 12 x 24 grid: rank (0,0) holds
// 250,112 x 125,184 doubles = 250.5 GB of matrix (numroc, HPL_pdtest.c's
// leading dimension), 252.28 GB with panels and workspace
// (models/memory_model.hpp), against 128e9 B x (1 - 0.5% headroom) = 127.36 GB.
TEST(CliGuards, AMatrixThatDoesNotFitIsRefusedNamingTheBytesPerGpu) {
  TempDir dir;
  const CliResult r = run_hplsim({"run", source_path("scenarios/small-dragonfly.textproto"), "--N", "3000000",
                                  "--out", (dir / "out").string()},
                                 dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("does not fit in memory"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("N = 3,000,000, NB = 256, P x Q = 12 x 24"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("Per GPU needs 252.28 GB"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("of 127.36 GB available"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--allow-oversubscription"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "out")) << "refused before the output directory was made";
}

TEST(CliGuards, WithTheOverrideItRunsAndSaysItDoesNotFit) {
  TempDir dir;
  const CliResult r =
      run_hplsim({"run", source_path("scenarios/small-dragonfly.textproto"), "--N", "3000000", "--mode",
                  "analytic", "--allow-oversubscription", "--out", (dir / "out").string()},
                 dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(read_text(dir / "out" / "summary.json"));
  EXPECT_FALSE(j["fits_in_memory"].get<bool>());
  EXPECT_NE(r.out.find("does NOT fit"), std::string::npos) << r.out;
}

TEST(CliGuards, AFittingRunSaysSo) {
  TempDir dir;
  const CliResult r = run_hplsim({"run", source_path("scenarios/small-dragonfly.textproto"), "--mode",
                                  "analytic", "--out", (dir / "out").string()},
                                 dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(read_text(dir / "out" / "summary.json"));
  EXPECT_TRUE(j["fits_in_memory"].get<bool>());
}

TEST(CliGuards, DryRunPrintsTheMemoryUseWithoutSimulating) {
  TempDir dir;
  const CliResult r = run_hplsim({"run", source_path("scenarios/aurora-hpl-sc24.textproto"), "--dry-run",
                                  "--out", (dir / "out").string()},
                                 dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // tests/models/memory_model_test.cpp derives 122.04 GB for the SC24 grid's rank (0,0).
  EXPECT_NE(r.out.find("Per GPU needs 122.04 GB"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("largest N that fits"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(CliGuards, AnUnwritableOutputDirectoryFailsBeforeSimulatingWithExitCode4) {
  TempDir dir;
  const CliResult r =
      run_hplsim({"run", source_path("scenarios/small-dragonfly.textproto"), "--out", "/proc/nope"}, dir);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("/proc/nope"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("Rmax"), std::string::npos) << "nothing was simulated: " << r.out;
}

TEST(CliGuards, AnOutputPathThatIsAFileFailsWithExitCode4) {
  TempDir dir;
  write_text(dir / "taken", "a file, not a directory\n");
  const CliResult r = run_hplsim(
      {"run", source_path("scenarios/small-dragonfly.textproto"), "--out", (dir / "taken").string()}, dir);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find((dir / "taken").string()), std::string::npos) << r.err;
}

} // namespace
} // namespace hplsim::sim::testing
