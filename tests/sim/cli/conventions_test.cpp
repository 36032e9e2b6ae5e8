// The command line's conventions, run as a subprocess (cli_runner.hpp): the
// version line, one error prefix, one-line range errors in the flag's words,
// flags echoed as typed, "did you mean" for a misspelled flag, verb or --set
// path, --set on repeated fields, and the warning that trials without a fault
// process are all identical. Every case stops before simulating (--dry-run or
// an error), so the file runs in seconds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "tests/sim/cli/cli_runner.hpp"

namespace hplsim::sim::testing {
namespace {

/// The longest run of consecutive digits in `text` (a number printed in full).
std::size_t longest_digit_run(const std::string& text) {
  std::size_t longest = 0, run = 0;
  for (const char c : text) {
    run = std::isdigit(static_cast<unsigned char>(c)) ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

const std::string kSmallDragonfly = source_path("scenarios/small-dragonfly.textproto");

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++n;
  return n;
}

std::size_t line_count(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(CliConventions, VersionPrintsHplsimAndTheLibrariesItWasBuiltWith) {
  TempDir dir;
  const CliResult r = run_hplsim({"--version"}, dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // The project's VERSION in CMakeLists.txt.
  EXPECT_EQ(r.out.rfind("hplsim 0.1.0\n", 0), 0u) << r.out;
  const auto version_after = [&](const std::string& prefix) {
    const auto at = r.out.find(prefix);
    return at != std::string::npos && at + prefix.size() < r.out.size() &&
           std::isdigit(static_cast<unsigned char>(r.out[at + prefix.size()]));
  };
  EXPECT_TRUE(version_after("\nbuilt with SimGrid 3.")) << r.out;
  EXPECT_TRUE(version_after("\nbuilt with Protobuf ")) << r.out;
}

// A noise-bench case checked before its process is forked: an input error
// (exit 1) naming the flag, not an internal error from the child.
TEST(CliConventions, NoiseBenchSizesAreCheckedAgainstTheMachine) {
  TempDir dir;
  const std::string mn4 = source_path("scenarios/marenostrum4-osu.textproto");
  const CliResult r =
      run_hplsim({"noise-bench", mn4, "--busy-cores", "48,49", "--out", (dir / "o").string()}, dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "hplsim: error: --busy-cores 49: a node has 48 cores, 0 of them reserved for the OS "
                   "(machine.variability.noise.os_cores_per_node)\n");
}

// CLI11's own range check prints DBL_MAX in full; every bound is in the flag's words.
TEST(CliConventions, ARangeErrorIsOneReadableLine) {
  TempDir dir;
  const std::string out = (dir / "o").string();
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"run", kSmallDragonfly, "--trials", "0"}, "hplsim: error: --trials: must be at least 1 (got 0)\n"},
      {{"run", kSmallDragonfly, "--jobs", "-2"}, "hplsim: error: --jobs: must be at least 1 (got -2)\n"},
      {{"plan", kSmallDragonfly, "--nodes", "24", "--trials", "0"},
       "hplsim: error: --trials: must be at least 1 (got 0)\n"},
      {{"plan", kSmallDragonfly, "--nodes", "24", "--window-hours", "-1"},
       "hplsim: error: --window-hours: must be greater than 0 (got -1)\n"},
      {{"sweep", kSmallDragonfly, "--vary", "NB=128", "--jobs", "0"},
       "hplsim: error: --jobs: must be at least 1 (got 0)\n"},
      {{"osu", "bw", kSmallDragonfly, "--window", "0"},
       "hplsim: error: --window: must be at least 1 (got 0)\n"},
      {{"noise-bench", kSmallDragonfly, "--work-s", "0"},
       "hplsim: error: --work-s: must be greater than 0 (got 0)\n"},
      {{"run", kSmallDragonfly, "--trials", "two"},
       "hplsim: error: --trials: expects a whole number (got two)\n"},
  };
  for (const auto& [args, expected] : cases) {
    const CliResult r = run_hplsim(args, dir);
    EXPECT_EQ(r.exit_code, 2) << args[0] << " " << args[2];
    EXPECT_EQ(r.err, expected);
    EXPECT_LE(longest_digit_run(r.err), 20u) << r.err;
  }
}

TEST(CliConventions, EveryErrorStartsWithOnePrefix) {
  TempDir dir;
  const std::string missing = (dir / "x.textproto").string();
  const std::string bad = (dir / "bad.textproto").string();
  write_text(bad, "workload { nbb: 3 }\n");
  const std::vector<std::vector<std::string>> cases = {
      {"run", missing},                                    // the scenario cannot be opened
      {"run", bad},                                        // a parse error at file:line:col
      {"run", kSmallDragonfly, "--set", "workload.nb=-1"}, // a validation error at the override
      {"run", kSmallDragonfly, "--bogus"},                 // CLI11's parse error
      {"topo"},                                            // a missing positional
  };
  for (const auto& args : cases) {
    const CliResult r = run_hplsim(args, dir);
    EXPECT_NE(r.exit_code, 0);
    EXPECT_EQ(r.err.rfind("hplsim: error: ", 0), 0u) << r.err;
    EXPECT_EQ(count_of(r.err, "error:"), 1u) << r.err;
    EXPECT_EQ(line_count(r.err), 1u) << r.err;
  }
  // The location is kept: the file, then line:column.
  const CliResult r = run_hplsim({"run", bad}, dir);
  EXPECT_EQ(r.err.rfind("hplsim: error: " + bad + ":1:12: ", 0), 0u) << r.err;
  const CliResult m = run_hplsim({"run", missing}, dir);
  EXPECT_EQ(m.err.rfind("hplsim: error: " + missing + ": cannot open scenario", 0), 0u) << m.err;
}

TEST(CliConventions, AnErrorAboutAFlagNamesItAsTyped) {
  TempDir dir;
  // small-dragonfly's grid is 12 x 24 on 48 nodes x 6 ranks: P 13 breaks P*Q = ranks.
  const CliResult r = run_hplsim({"run", kSmallDragonfly, "--P", "13", "--dry-run"}, dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("hplsim: error: --P 13: ", 0), 0u) << r.err;
  const CliResult n = run_hplsim({"run", kSmallDragonfly, "--NB", "0", "--dry-run"}, dir);
  EXPECT_EQ(n.err.rfind("hplsim: error: --NB 0: ", 0), 0u) << n.err;
  const CliResult m = run_hplsim({"run", kSmallDragonfly, "--set", "options.mode=FAST", "--mode", "fast",
                                  "--set", "workload.depth=3", "--dry-run"},
                                 dir);
  EXPECT_EQ(m.err.rfind("hplsim: error: --set workload.depth=3: ", 0), 0u) << m.err;
}

TEST(CliConventions, AMisspelledFlagOrVerbGetsTheNearestName) {
  TempDir dir;
  const CliResult r = run_hplsim({"run", kSmallDragonfly, "--trails", "3"}, dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(
      r.err,
      "hplsim: error: run: unknown flag --trails; did you mean --trials? (hplsim run --help lists them)\n");
  const CliResult p = run_hplsim({"plan", kSmallDragonfly, "--nodes", "24", "--window-hour", "2"}, dir);
  EXPECT_NE(p.err.find("unknown flag --window-hour; did you mean --window-hours?"), std::string::npos)
      << p.err;
  const CliResult far = run_hplsim({"run", kSmallDragonfly, "--zzzzzzzz"}, dir);
  EXPECT_NE(far.err.find("unknown flag --zzzzzzzz (hplsim run --help"), std::string::npos) << far.err;
  // A nested verb's own flags are known; its misspelled ones are named with it.
  const CliResult missing =
      run_hplsim({"calibrate", "kernels", "--out", (dir / "k.textproto").string()}, dir);
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err, "hplsim: error: calibrate kernels: measurements is required\n");
  const CliResult nested = run_hplsim({"calibrate", "kernels", "m.csv", "--outt", "k.textproto"}, dir);
  EXPECT_NE(nested.err.find("calibrate kernels: unknown flag --outt; did you mean --out?"), std::string::npos)
      << nested.err;
  const CliResult v = run_hplsim({"swep", kSmallDragonfly}, dir);
  EXPECT_EQ(v.exit_code, 2);
  EXPECT_NE(v.err.find("unknown verb swep; did you mean sweep?"), std::string::npos) << v.err;
}

TEST(CliConventions, AMisspelledSetPathGetsTheNearestField) {
  TempDir dir;
  const CliResult r = run_hplsim({"run", kSmallDragonfly, "--set", "machine.nod.gpus=6", "--dry-run"}, dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "hplsim: error: --set machine.nod.gpus=6: Machine has no field nod; did you mean "
                   "machine.node.gpus?\n");
  // At the level where resolution failed: the second step here.
  const CliResult s =
      run_hplsim({"run", kSmallDragonfly, "--set", "workload.hpl.panel_exchang=P2P", "--dry-run"}, dir);
  EXPECT_NE(s.err.find("did you mean workload.hpl.panel_exchange?"), std::string::npos) << s.err;
}

TEST(CliConventions, SetReachesARepeatedFieldByIndex) {
  TempDir dir;
  // One listed flap on node 0's first NIC, then --set changes it and appends a second.
  const std::string path = (dir / "flap.textproto").string();
  write_text(path, scenario_text("scenarios/small-dragonfly.textproto") +
                       "faults {\n  link_flaps { link { link_class: NIC_PORT index: 0 } start_s: 0.01 "
                       "duration_s: 0.02 }\n}\n");
  const CliResult ok = run_hplsim(
      {"run", path, "--set", "faults.link_flaps[0].duration_s=0.03", "--set",
       "faults.link_flaps[1].link.link_class=NIC_PORT", "--set", "faults.link_flaps[1].link.index=1", "--set",
       "faults.link_flaps[1].start_s=0.02", "--set", "faults.link_flaps[1].duration_s=0.01", "--dry-run"},
      dir);
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  // The index one past the last appends an element: one with no link is refused as such.
  const CliResult appended =
      run_hplsim({"run", path, "--set", "faults.link_flaps[1].duration_s=0.01", "--dry-run"}, dir);
  EXPECT_EQ(appended.exit_code, 1);
  EXPECT_NE(appended.err.find("faults.link_flaps[1]"), std::string::npos) << appended.err;
  // A value the validator refuses is located at the --set that gave it.
  const CliResult bad =
      run_hplsim({"run", path, "--set", "faults.link_flaps[0].duration_s=-1", "--dry-run"}, dir);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.err.rfind("hplsim: error: --set faults.link_flaps[0].duration_s=-1: ", 0), 0u) << bad.err;
  const CliResult out =
      run_hplsim({"run", path, "--set", "faults.link_flaps[3].duration_s=1", "--dry-run"}, dir);
  EXPECT_EQ(out.exit_code, 1);
  EXPECT_EQ(out.err, "hplsim: error: --set faults.link_flaps[3].duration_s=1: faults.link_flaps[3] is out of "
                     "range: faults.link_flaps has 1 element in the scenario (give an index from 0 to 1, "
                     "where 1 appends one)\n");
  const CliResult bare =
      run_hplsim({"run", path, "--set", "faults.link_flaps.duration_s=1", "--dry-run"}, dir);
  EXPECT_NE(bare.err.find("faults.link_flaps is a repeated field (1 in the scenario); give an element: "
                          "faults.link_flaps[0].duration_s"),
            std::string::npos)
      << bare.err;
}

TEST(CliConventions, TrialsWithoutAFaultProcessWarnThatTheyAreIdentical) {
  TempDir dir;
  const std::string out = (dir / "o").string();
  const CliResult run = run_hplsim({"run", kSmallDragonfly, "--trials", "5", "--dry-run"}, dir);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err, "hplsim: warning: " + kSmallDragonfly +
                         " has no fault to draw (no faults.failure_process or faults.flap_process): the 5 "
                         "trials are all identical\n");
  const CliResult plan = run_hplsim({"plan", kSmallDragonfly, "--nodes", "24", "--dry-run"}, dir);
  EXPECT_NE(plan.err.find("hplsim: warning: "), std::string::npos) << plan.err;
  EXPECT_NE(plan.err.find("the 50 trials at each node count are all identical"), std::string::npos)
      << plan.err;
  // A failure process: the trials differ, no warning.
  const std::string failures = small_dragonfly_with_failures(dir);
  const CliResult quiet = run_hplsim({"run", failures, "--trials", "5", "--dry-run"}, dir);
  EXPECT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err.find("warning"), std::string::npos) << quiet.err;
  // One run is not a study: no warning either.
  const CliResult one = run_hplsim({"run", kSmallDragonfly, "--dry-run"}, dir);
  EXPECT_EQ(one.err.find("warning"), std::string::npos) << one.err;
}

} // namespace
} // namespace hplsim::sim::testing
