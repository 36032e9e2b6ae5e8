// hplsim sensitivity (docs/faults.md, "Sensitivity to the flap process"): the
// study at scale x1 is the trials study of the scenario itself, row for row;
// at rate x0 no flap is drawn; the report shows it; bad input is refused.
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/sim/cli/cli_runner.hpp"

namespace hplsim::sim::testing {
namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    out.push_back(l);
  return out;
}

std::vector<std::string> fields(const std::string& row) {
  std::vector<std::string> out;
  std::istringstream in(row);
  for (std::string x; std::getline(in, x, ',');)
    out.push_back(x);
  return out;
}

// small-dragonfly in fast mode with global-link flaps (1 s) and node failures.
std::string flap_scenario() {
  return scenario_text("scenarios/small-dragonfly.textproto") +
         "faults {\n  failure_process { law: EXPONENTIAL rate_per_node_per_hour: 150 }\n"
         "  flap_process { classes { link_class: GLOBAL rate_per_link_per_hour: 1000\n"
         "    duration { law: FIXED mean_s: 1.0 } } }\n}\n";
}

TEST(Sensitivity, ScaleOneIsTheTrialsStudyAndRateZeroDrawsNoFlap) {
  TempDir dir;
  write_text(dir / "s.textproto", flap_scenario());
  const std::vector<std::string> common = {
      "--mode",   "fast", "--set",        "machine.topology.routing=ADAPTIVE",
      "--trials", "2",    "--strategies", "P2P,HYBRID"};
  std::vector<std::string> trials = {"run", (dir / "s.textproto").string(), "--out", (dir / "t").string()};
  trials.insert(trials.end(), common.begin(), common.end());
  const CliResult t = run_hplsim(trials, dir);
  ASSERT_EQ(t.exit_code, 0) << t.err;
  std::vector<std::string> sens = {
      "sensitivity", (dir / "s.textproto").string(), "--rate-scale", "0,1", "--out", (dir / "s").string()};
  sens.insert(sens.end(), common.begin(), common.end());
  const CliResult s = run_hplsim(sens, dir);
  ASSERT_EQ(s.exit_code, 0) << s.err;
  const auto trial_rows = lines(read_text(dir / "t" / "trials.csv"));
  const auto sens_rows = lines(read_text(dir / "s" / "sensitivity-trials.csv"));
  ASSERT_EQ(trial_rows.size(), 5u); // 2 strategies x 2 trials
  ASSERT_EQ(sens_rows.size(), 9u);  // 2 strategies x 2 scales x 2 trials
  std::vector<std::string> at_one;  // the x1 rows without their scale columns
  bool flapped = false;
  for (std::size_t i = 1; i < sens_rows.size(); ++i) {
    const auto f = fields(sens_rows[i]);
    if (f.at(1) == "0") {
      EXPECT_EQ(f.at(11), "0") << "flaps_reached (column 12) at rate x0: " << sens_rows[i];
    } else {
      // "p2p,1,1,<trials.csv's columns>" -> "p2p,<trials.csv's columns>"
      const std::size_t third = f[0].size() + f[1].size() + f[2].size() + 2;
      at_one.push_back(f[0] + sens_rows[i].substr(third));
      flapped = flapped || f.at(11) != "0";
    }
  }
  EXPECT_TRUE(flapped) << "the draws reach no flap at x1: change the rates";
  ASSERT_EQ(at_one.size(), 4u);
  for (std::size_t i = 0; i < at_one.size(); ++i)
    EXPECT_EQ(at_one[i], trial_rows[i + 1]) << "row " << i;
  // What each flap cost: at x1, trial-faults.csv's rows.
  std::vector<std::string> faults_at_one;
  const auto sens_faults = lines(read_text(dir / "s" / "sensitivity-faults.csv"));
  for (std::size_t i = 1; i < sens_faults.size(); ++i)
    if (sens_faults[i].rfind("1,1,", 0) == 0) faults_at_one.push_back(sens_faults[i].substr(4));
  const auto trial_faults = lines(read_text(dir / "t" / "trial-faults.csv"));
  ASSERT_FALSE(faults_at_one.empty());
  EXPECT_EQ(faults_at_one, std::vector<std::string>(trial_faults.begin() + 1, trial_faults.end()));
  // sensitivity.csv: one row per strategy and scale; at x0 no flap.
  const auto cells = lines(read_text(dir / "s" / "sensitivity.csv"));
  ASSERT_EQ(cells.size(), 5u);
  EXPECT_EQ(cells[1].rfind("p2p,0,1,2,0,0,", 0), 0u) << cells[1];
  EXPECT_EQ(lines(read_text(dir / "s" / "sensitivity-differences.csv")).size(), 3u); // header + 2 scales
  EXPECT_NE(s.out.find("p2p - hybrid"), std::string::npos) << s.out;
  // The report's section.
  const CliResult report = run_hplsim({"report", (dir / "s").string()}, dir);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const std::string page = read_text(dir / "s" / "report.html");
  EXPECT_NE(page.find("id=\"sensitivity\""), std::string::npos);
  EXPECT_NE(page.find("A sensitivity study of the flap process"), std::string::npos);
}

TEST(Sensitivity, BadInputIsRefused) {
  TempDir dir;
  const std::string plain = source_path("scenarios/small-dragonfly.textproto");
  const CliResult none = run_hplsim(
      {"sensitivity", plain, "--rate-scale", "1", "--trials", "2", "--out", (dir / "o").string()}, dir);
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find("no flap process"), std::string::npos) << none.err;
  write_text(dir / "s.textproto", flap_scenario());
  const CliResult negative = run_hplsim({"sensitivity", (dir / "s.textproto").string(), "--rate-scale",
                                         "1,-2", "--trials", "2", "--out", (dir / "o").string()},
                                        dir);
  EXPECT_NE(negative.exit_code, 0);
  EXPECT_NE(negative.err.find("--rate-scale"), std::string::npos) << negative.err;
  for (const std::vector<std::string>& bad : {std::vector<std::string>{"--duration-scale", "0"},
                                              {"--rate-scale", "1,2,1"},
                                              {"--mode", "analytic"},
                                              {"--strategies", "P2P,P2P"}}) {
    std::vector<std::string> args = {
        "sensitivity", (dir / "s.textproto").string(), "--trials", "2", "--out", (dir / "o").string()};
    if (bad[0] != "--rate-scale") args.insert(args.end(), {"--rate-scale", "1"});
    args.insert(args.end(), bad.begin(), bad.end());
    const CliResult r = run_hplsim(args, dir);
    EXPECT_EQ(r.exit_code, 1) << bad[0];
    EXPECT_NE(r.err.find(bad[0] == "--mode" ? "analytic" : bad[0]), std::string::npos) << r.err;
  }
  // --dry-run validates and lists the grid without simulating.
  const CliResult dry = run_hplsim({"sensitivity", (dir / "s.textproto").string(), "--rate-scale", "1,4",
                                    "--duration-scale", "1,8", "--trials", "3", "--dry-run"},
                                   dir);
  EXPECT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_NE(dry.out.find("4 flap scales x 3 trials x 1 strategy = 12 runs"), std::string::npos) << dry.out;
  EXPECT_NE(dry.out.find("rate x4, duration x8"), std::string::npos) << dry.out;
  const CliResult one_trial =
      run_hplsim({"sensitivity", (dir / "s.textproto").string(), "--rate-scale", "1", "--trials", "1"}, dir);
  EXPECT_EQ(one_trial.exit_code, 2);
  EXPECT_NE(one_trial.err.find("--trials"), std::string::npos) << one_trial.err;
}

// --collective-recovery-s: every cell again at each value, on the same draws;
// at the scenario's value (0) the rows are the study's without the axis, byte
// for byte; the file of the axis is written only with it.
TEST(Sensitivity, TheRecoveryAxisRunsEveryCellOnTheSameDraws) {
  TempDir dir;
  write_text(dir / "s.textproto", flap_scenario());
  const std::vector<std::string> common = {"sensitivity",  (dir / "s.textproto").string(),
                                           "--rate-scale", "1",
                                           "--mode",       "fast",
                                           "--set",        "machine.topology.routing=ADAPTIVE",
                                           "--set",        "workload.n=8192",
                                           "--trials",     "2",
                                           "--strategies", "HYBRID"};
  std::vector<std::string> plain = common, axis = common;
  plain.insert(plain.end(), {"--out", (dir / "p").string()});
  axis.insert(axis.end(), {"--collective-recovery-s", "3,0", "--out", (dir / "a").string()});
  const CliResult p = run_hplsim(plain, dir);
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const CliResult a = run_hplsim(axis, dir);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  const auto plain_rows = lines(read_text(dir / "p" / "sensitivity-trials.csv"));
  const auto axis_rows = lines(read_text(dir / "a" / "sensitivity-trials.csv"));
  EXPECT_EQ(plain_rows.at(0).rfind("panel_exchange,rate_scale,", 0), 0u) << plain_rows[0];
  EXPECT_EQ(axis_rows.at(0).rfind("panel_exchange,collective_recovery_s,rate_scale,", 0), 0u) << axis_rows[0];
  ASSERT_EQ(plain_rows.size(), 3u); // header + 2 trials
  ASSERT_EQ(axis_rows.size(), 5u);  // header + 2 values x 2 trials, the values ascending
  for (std::size_t i = 1; i < 3; ++i) {
    const auto f = fields(axis_rows[i]);
    EXPECT_EQ(f.at(1), "0");
    EXPECT_EQ(f[0] + axis_rows[i].substr(f[0].size() + f[1].size() + 1), plain_rows[i]) << "trial " << i - 1;
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "p" / "sensitivity-recovery.csv"));
  EXPECT_EQ(lines(read_text(dir / "a" / "sensitivity-recovery.csv")).size(),
            1u); // one strategy, no pair: a header
  // The same draws at both values: each event's id, target, start and duration (columns 7-10 of
  // sensitivity-faults.csv after the recovery column) at 3 s are those at 0 s, where both reached it.
  std::map<std::string, std::string> at_zero;
  std::size_t both = 0;
  const auto faults = lines(read_text(dir / "a" / "sensitivity-faults.csv"));
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t i = 1; i < faults.size(); ++i) {
      const auto f = fields(faults[i]);
      const std::string key = f.at(3) + ":" + f.at(5); // trial, event id
      const std::string draw = f.at(6) + f.at(7) + f.at(8) + f.at(9);
      if (pass == 0 && f[0] == "0") at_zero[key] = draw;
      if (pass == 1 && f[0] == "3" && at_zero.count(key) > 0) {
        EXPECT_EQ(draw, at_zero[key]) << faults[i];
        ++both;
      }
    }
  EXPECT_GT(both, 0u) << "no event reached at both values: change the rates";
  EXPECT_NE(a.out.find("2 collective recovery values"), std::string::npos) << a.out;
  // Bad values are refused naming the flag.
  for (const char* bad : {"-1", "0,2,0", "x", "nan"}) {
    std::vector<std::string> args = common;
    args.insert(args.end(), {"--collective-recovery-s", bad, "--out", (dir / "bad").string()});
    const CliResult r = run_hplsim(args, dir);
    EXPECT_NE(r.exit_code, 0) << bad;
    EXPECT_NE(r.err.find("--collective-recovery-s"), std::string::npos) << bad << ": " << r.err;
  }
}

} // namespace
} // namespace hplsim::sim::testing
