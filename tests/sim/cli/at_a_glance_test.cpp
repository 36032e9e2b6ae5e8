// What a user sees at a glance: a comparison with the published figure only
// when the run is the published run, the CLI's conventions (did-you-mean for
// a flag, `help`, `-V`), refusals instead of silent no-ops, a scenario's
// mistakes in plain words, and a reused --out. Each case runs hplsim as a
// subprocess in analytic mode or on a 1-node scenario: seconds in all.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "tests/sim/cli/cli_runner.hpp"

namespace hplsim::sim::testing {
namespace {

const std::string kAurora = source_path("scenarios/aurora-hpl-sc24.textproto");
const std::string kSmall = source_path("scenarios/small-dragonfly.textproto");

TEST(ReferenceComparison, ARunOfOtherNodesSaysWhyItIsNotCompared) {
  TempDir dir;
  const std::string out = (dir.path() / "out").string();
  const CliResult r = run_hplsim({"run", kAurora, "--nodes", "16", "--mode", "analytic", "--out", out}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The scenario's reference is its 9,234-node run; --nodes 16 also re-derives P x Q and N.
  EXPECT_NE(r.out.find("reference run: 9,234 nodes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("this run differs (16 nodes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("): no comparison"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("by construction"), std::string::npos) << r.out;
  // No percentage against the published figure anywhere in the reference lines.
  const auto at = r.out.find("Reference:");
  ASSERT_NE(at, std::string::npos);
  EXPECT_FALSE(std::regex_search(r.out.substr(at, r.out.find('\n', at) - at), std::regex("[+-][0-9.]+ ?%")))
      << r.out;
  const auto summary = nlohmann::json::parse(read_text(fs::path(out) / "summary.json"));
  EXPECT_EQ(summary["reference"]["comparable"], false);
  EXPECT_TRUE(summary["reference"]["difference_fraction"].is_null());
  EXPECT_EQ(summary["reference"]["reference_run"].get<std::string>().rfind("9,234 nodes", 0), 0u);
}

TEST(ReferenceComparison, TheReferenceRunItselfIsCompared) {
  TempDir dir;
  const std::string out = (dir.path() / "out").string();
  const CliResult r = run_hplsim({"run", kAurora, "--mode", "analytic", "--out", out}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("no comparison"), std::string::npos) << r.out;
  const auto summary = nlohmann::json::parse(read_text(fs::path(out) / "summary.json"));
  EXPECT_EQ(summary["reference"]["comparable"], true);
  EXPECT_TRUE(summary["reference"]["difference_fraction"].is_number());
}

TEST(CliConventions, AMistypedFlagIsNamedWithTheNearestOne) {
  TempDir dir;
  const CliResult r = run_hplsim({"run", kSmall, "--node", "4"}, dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("did you mean --nodes?"), std::string::npos) << r.err;
}

TEST(CliConventions, HelpAndShortVersionSucceed) {
  TempDir dir;
  const CliResult help = run_hplsim({"help"}, dir);
  EXPECT_EQ(help.exit_code, 0) << help.err;
  EXPECT_NE(help.out.find("run"), std::string::npos);
  const CliResult verb_help = run_hplsim({"help", "run"}, dir);
  EXPECT_EQ(verb_help.exit_code, 0) << verb_help.err;
  EXPECT_NE(verb_help.out.find("--nodes"), std::string::npos);
  const CliResult version = run_hplsim({"-V"}, dir);
  EXPECT_EQ(version.exit_code, 0) << version.err;
  EXPECT_EQ(version.out.rfind("hplsim ", 0), 0u) << version.out;
}

TEST(CliConventions, StrategiesInAnalyticModeAreRefused) {
  TempDir dir;
  const CliResult r = run_hplsim({"run", kSmall, "--mode", "analytic", "--trials", "2", "--strategies",
                                  "P2P,HYBRID", "--out", (dir.path() / "out").string()},
                                 dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("--strategies: analytic mode prices every panel-exchange strategy the same"),
            std::string::npos)
      << r.err;
}

TEST(ScenarioWords, AMissingBraceNamesTheBlockLeftOpen) {
  TempDir dir;
  std::string text = small_dragonfly_text();
  text.erase(text.find_last_of('}')); // the last block's closing brace
  const fs::path bad = dir.path() / "bad.textproto";
  write_text(bad, text);
  const CliResult r = run_hplsim({"run", bad.string()}, dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("a closing } is missing for `"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("Expected identifier"), std::string::npos) << r.err;
}

TEST(ScenarioWords, EveryMissingRequiredFieldIsReportedAtOnce) {
  TempDir dir;
  const fs::path bad = dir.path() / "bad.textproto";
  std::string text = small_dragonfly_text();
  for (const char* field : {"  n: ", "  p: ", "  q: "}) {
    const auto at = text.find(field, text.find("workload {"));
    ASSERT_NE(at, std::string::npos) << field;
    text.erase(at, text.find('\n', at) - at + 1);
  }
  write_text(bad, text);
  const CliResult r = run_hplsim({"run", bad.string()}, dir);
  EXPECT_EQ(r.exit_code, 1);
  for (const char* field : {"workload.n is required", "workload.p is required", "workload.q is required"})
    EXPECT_NE(r.err.find(field), std::string::npos) << field << "\n" << r.err;
  EXPECT_NE(r.err.find("inside the workload { } block"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(":1:1:"), std::string::npos) << r.err;
}

TEST(OutputDirectory, AReusedOutLosesTheEarlierRunsFilesAndSaysSo) {
  TempDir dir;
  const fs::path out = dir.path() / "out";
  fs::create_directories(out);
  write_text(out / "trials.csv", "stale\n"); // an earlier trials study's
  write_text(out / "notes.txt", "mine\n");   // the user's
  const CliResult r = run_hplsim({"run", kSmall, "--mode", "analytic", "--out", out.string()}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(out / "trials.csv"));
  EXPECT_TRUE(fs::exists(out / "notes.txt"));
  EXPECT_NE(r.err.find("removed trials.csv"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("also holds notes.txt"), std::string::npos) << r.err;
}

} // namespace
} // namespace hplsim::sim::testing
