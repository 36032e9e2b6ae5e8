// `hplsim run` on scenarios outside the source tree and on broken ones: a
// shipped scenario copied elsewhere runs unchanged (its calibration found
// under the data root), a misspelled field gets a suggestion, and every broken
// combination of fields is listed at once, by `run` and by `run --dry-run`.
#include <filesystem>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "tests/sim/cli/cli_runner.hpp"

namespace hplsim::sim::testing {
namespace {

TEST(CliScenarioFiles, AShippedScenarioCopiedElsewhereRunsUnchanged) {
  TempDir dir;
  fs::create_directories(dir / "x");
  const std::string copy = (dir / "x" / "aurora-hpl-1node.textproto").string();
  fs::copy_file(source_path("scenarios/aurora-hpl-1node.textproto"), copy);
  // The file as shipped; --N 38400 (100 panel steps instead of 780) only keeps the run short.
  const CliResult r = run_hplsim({"run", copy, "--N", "38400", "--out", (dir / "out").string()}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(read_text(dir / "out" / "summary.json").find("\"n\": 38400"), std::string::npos);
}

TEST(CliScenarioFiles, AMisspelledFieldGetsTheNearestName) {
  TempDir dir;
  std::string text = scenario_text("scenarios/small-dragonfly.textproto");
  const std::string from = "    gpus_per_socket: 3";
  text.replace(text.find(from), from.size(), "    gpus_per_sockt: 3");
  const std::string path = (dir / "typo.textproto").string();
  write_text(path, text);
  const CliResult r = run_hplsim({"run", path, "--dry-run"}, dir);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find(path + ":"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("has no field named \"gpus_per_sockt\""), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("(did you mean \"gpus_per_socket\"?)"), std::string::npos) << r.err;
}

TEST(CliScenarioFiles, EveryBrokenCombinationIsListedByRunAndDryRun) {
  // small-dragonfly (48 nodes of a 6 x 4 x 16 / 8 = 48-node machine, 6 GPUs,
  // 104 cores) with 49 nodes, 7 ranks per node and Q 25: the grid, the nodes
  // and the GPUs broken at once.
  TempDir dir;
  std::string text = scenario_text("scenarios/small-dragonfly.textproto");
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"  nodes: 48", "  nodes: 49"},
                                 {"  ranks_per_node: 6", "  ranks_per_node: 7"},
                                 {"  q: 24", "  q: 25"}})
    text.replace(text.find(from), from.size(), to);
  const std::string path = (dir / "broken.textproto").string();
  write_text(path, text);
  for (const bool dry : {false, true}) {
    std::vector<std::string> args = {"run", path, "--out", (dir / "out").string()};
    if (dry) args.push_back("--dry-run");
    const CliResult r = run_hplsim(args, dir);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("error: " + path + ":"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(": workload: p*q = 300 must equal nodes*ranks_per_node = 343"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find(": workload.nodes = 49 exceeds the machine's nodes = 48"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find(": workload: ranks_per_node*gpus_per_rank = 7*1 = 7 exceeds the node's GPUs"),
              std::string::npos)
        << r.err;
    // One error line per problem, each located in the scenario.
    std::size_t lines = 0;
    std::istringstream in(r.err);
    for (std::string line; std::getline(in, line); ++lines)
      EXPECT_EQ(line.rfind("hplsim: error: " + path + ":", 0), 0u) << line;
    EXPECT_EQ(lines, 3u) << r.err;
    EXPECT_FALSE(fs::exists(dir / "out" / "summary.json"));
  }
}

} // namespace
} // namespace hplsim::sim::testing
