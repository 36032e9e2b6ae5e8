// hplsim run --trials (docs/faults.md, "Trials"): the Monte Carlo against the
// closed forms of exponential failures, reproducibility (the same bytes for
// the same seed and K; trial i the same whatever K and the jobs), and the
// flags' errors.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/sim/cli/cli_runner.hpp"

namespace hplsim::sim::testing {
namespace {

// small-dragonfly with its kernels file made absolute and `faults` appended.
std::string with_faults(const std::string& faults) {
  return scenario_text("scenarios/small-dragonfly.textproto") + faults;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    out.push_back(l);
  return out;
}

// The most significant digits of any decimal number in `text` (leading zeros
// not counted): stdout's figures go through sim/report/format.hpp, 4 at most.
int most_significant_digits(const std::string& text) {
  int most = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.'))
      ++end;
    const std::string number = text.substr(i, end - i);
    if (number.find('.') != std::string::npos) {
      int digits = 0;
      bool leading = true;
      for (char c : number) {
        if (c == '.') continue;
        leading = leading && c == '0';
        if (!leading) ++digits;
      }
      most = std::max(most, digits);
    }
    i = end;
  }
  return most;
}

// Exponential node failures alone, analytic mode, N 1,228,800 (a fault-free
// run of ~167 s): at 0.311 failures per node-hour on 48 nodes,
// exp(-Lambda T) = 0.50. 4,000 trials estimate it with a standard error of
// sqrt(p (1 - p) / K) = 0.0079; the test allows 4 of them. The expected time
// to a result against (e^{Lambda T} - 1)(1/Lambda + R), R = 600 s: over five
// seeds at 2,000 trials the estimate was +1.2% to +5.5% off (and +1.2% at
// 20,000 trials), so 6% is allowed.
TEST(Trials, ExponentialFailuresAgreeWithTheClosedForms) {
  TempDir dir;
  write_text(dir / "exp.textproto",
             with_faults("faults {\n  failure_process { law: EXPONENTIAL rate_per_node_per_hour: 0.311 }\n"
                         "  restart_setup_s: 600\n}\n"));
  const CliResult r = run_hplsim({"run", (dir / "exp.textproto").string(), "--mode", "analytic", "--N",
                                  "1228800", "--trials", "4000", "--out", (dir / "out").string()},
                                 dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(read_text(dir / "out" / "outcome.json"));
  const double p = j["closed_form"]["p_complete"].get<double>();
  EXPECT_NEAR(p, 0.5, 0.01); // the scenario was tuned for it
  const double sigma = std::sqrt(p * (1 - p) / 4000.0);
  EXPECT_NEAR(j["p_complete"].get<double>(), p, 4 * sigma);
  const double e = j["closed_form"]["time_to_result_s"].get<double>();
  EXPECT_NEAR(j["expected_time_to_result_s"].get<double>(), e, 0.06 * e);
  const auto ci = j["p_complete_95"];
  EXPECT_LT(ci[0].get<double>(), j["p_complete"].get<double>());
  EXPECT_GT(ci[1].get<double>(), j["p_complete"].get<double>());
  EXPECT_EQ(lines(read_text(dir / "out" / "trials.csv")).size(), 4001u);
  // What a person reads: one interval format, one rate unit, 4 significant digits at most.
  const std::string figures = r.out.substr(0, r.out.find("outputs:"));
  EXPECT_NE(figures.find("(95%: ["), std::string::npos) << figures;
  EXPECT_LE(most_significant_digits(figures), 4) << figures;
  EXPECT_EQ(figures.find("TF/s"), std::string::npos) << figures; // 48 nodes: ~7.4 PF/s, every rate in PF/s
  EXPECT_NE(figures.find("PF/s"), std::string::npos) << figures;
}

// Node failures and global-link flaps drawn on small-dragonfly.
std::string failures_and_global_flaps() {
  return with_faults("faults {\n  failure_process { law: EXPONENTIAL rate_per_node_per_hour: 150 }\n"
                     "  flap_process { classes { link_class: GLOBAL rate_per_link_per_hour: 1000\n"
                     "    duration { law: FIXED mean_s: 1.0 } } }\n}\n");
}

// Fast mode with node failures and global-link flaps drawn, at N 8,192 (3
// trials: 2.7 s against 18.6 s at the scenario's 12,288; 30 links at 1000 per
// hour: ~1.05 flaps per 0.126 s run; adaptive routing re-routes them, so a
// flap does not stretch the run into more flaps, as a 4 s retry wait under
// minimal routing would), each in windows of its own: the
// same seed and K give the same bytes, and trial i is the same row with 2 or
// 3 trials and with 1 or 2 jobs.
TEST(Trials, TrialIIsTheSameWhateverKAndTheJobs) {
  TempDir dir;
  write_text(dir / "mix.textproto", failures_and_global_flaps());
  const auto run = [&](const char* out, const char* k, const char* jobs) {
    const CliResult r = run_hplsim({"run", (dir / "mix.textproto").string(), "--mode", "fast", "--N", "8192",
                                    "--set", "machine.topology.routing=ADAPTIVE", "--trials", k, "--jobs",
                                    jobs, "--out", (dir / out).string()},
                                   dir);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return lines(read_text(dir / out / "trials.csv"));
  };
  const auto a = run("a", "2", "1"), b = run("b", "2", "2"), c = run("c", "3", "2");
  EXPECT_EQ(a, b);
  EXPECT_EQ(read_text(dir / "a" / "outcome.json"), read_text(dir / "b" / "outcome.json"));
  ASSERT_EQ(c.size(), 4u);
  for (std::size_t i = 0; i < a.size(); ++i)
    EXPECT_EQ(a[i], c[i]) << "row " << i;
  // Some trial met a flap (flaps_reached, the 9th column, > 0), so the windows ran.
  bool flapped = false;
  for (std::size_t i = 1; i < c.size(); ++i) {
    std::vector<std::string> cols;
    std::istringstream row(c[i]);
    for (std::string col; std::getline(row, col, ',');)
      cols.push_back(col);
    flapped = flapped || (cols.size() > 8 && cols[8] != "0");
  }
  EXPECT_TRUE(flapped);
}

// A CSV row's fields (quoted fields hold no quotes in hplsim's files).
std::vector<std::string> fields(const std::string& row) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (const char c : row) {
    if (c == '"')
      quoted = !quoted;
    else if (c == ',' && !quoted)
      out.emplace_back();
    else
      out.back() += c;
  }
  return out;
}

// --strategies runs its strategies side by side, their windows sharing the
// --jobs worker tokens (docs/studies.md): each strategy's rows are those of
// its own study run alone, whichever windows ran when. The scenario above
// (fast mode: flaps met, so fault windows and baselines ran).
TEST(Trials, StrategiesSideBySideGiveEachStrategysOwnRows) {
  TempDir dir;
  write_text(dir / "mix.textproto", failures_and_global_flaps());
  const auto run = [&](const char* out, std::vector<std::string> extra) {
    std::vector<std::string> args{
        "run",   (dir / "mix.textproto").string(),    "--mode",   "fast", "--N",   "8192",
        "--set", "machine.topology.routing=ADAPTIVE", "--trials", "2",    "--out", (dir / out).string()};
    args.insert(args.end(), extra.begin(), extra.end());
    const CliResult r = run_hplsim(args, dir);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return lines(read_text(dir / out / "trials.csv"));
  };
  const auto both = run("both", {"--strategies", "P2P,COLLECTIVE", "--jobs", "2"});
  const auto p2p = run("p2p", {"--set", "workload.hpl.panel_exchange=P2P", "--jobs", "1"});
  const auto coll = run("coll", {"--set", "workload.hpl.panel_exchange=COLLECTIVE", "--jobs", "1"});
  ASSERT_EQ(both.size(), 5u);
  ASSERT_EQ(p2p.size(), 3u);
  ASSERT_EQ(coll.size(), 3u);
  for (std::size_t t = 1; t <= 2; ++t) {
    const std::vector<std::string> a = fields(both[t]), b = fields(both[t + 2]);
    EXPECT_EQ(std::vector<std::string>(a.begin() + 1, a.end()), fields(p2p[t])) << "trial " << t - 1;
    EXPECT_EQ(std::vector<std::string>(b.begin() + 1, b.end()), fields(coll[t])) << "trial " << t - 1;
  }
}

// trial-faults.csv: trial 0 draws from the stream of a plain run (run 0 of
// the same seed), so its rows are faults.csv's reached rows, event by event
// (delays included), with the trial and its stream in front; each trial's
// delays add up to its flap_delay_s in trials.csv; and the file is the same
// with one or two jobs. The scenario of the test above.
TEST(Trials, TrialFaultsAreAPlainRunsFaultsForTrialZero) {
  TempDir dir;
  write_text(dir / "mix.textproto", failures_and_global_flaps());
  const auto run = [&](const char* out, std::vector<std::string> extra) {
    std::vector<std::string> args = {"run",    (dir / "mix.textproto").string(),
                                     "--mode", "fast",
                                     "--N",    "8192",
                                     "--set",  "machine.topology.routing=ADAPTIVE",
                                     "--out",  (dir / out).string()};
    args.insert(args.end(), extra.begin(), extra.end());
    const CliResult r = run_hplsim(args, dir);
    EXPECT_EQ(r.exit_code, 0) << r.err;
  };
  run("plain", {});
  run("one", {"--trials", "3", "--jobs", "1"});
  run("two", {"--trials", "3", "--jobs", "2"});
  const auto trial_faults = lines(read_text(dir / "one" / "trial-faults.csv"));
  EXPECT_EQ(trial_faults, lines(read_text(dir / "two" / "trial-faults.csv")));
  const auto faults = lines(read_text(dir / "plain" / "faults.csv"));
  ASSERT_FALSE(trial_faults.empty());
  ASSERT_FALSE(faults.empty());
  EXPECT_EQ(trial_faults[0], "trial,stream," + faults[0]);
  std::vector<std::string> plain_reached, trial_zero;
  for (std::size_t i = 1; i < faults.size(); ++i)
    if (fields(faults[i]).at(5) == "true") plain_reached.push_back(faults[i]); // reached
  const std::string zero = "0,1:0,";                                           // the scenario's seed is 1
  std::map<std::string, double> delay_s;
  for (std::size_t i = 1; i < trial_faults.size(); ++i) {
    const auto f = fields(trial_faults[i]);
    EXPECT_EQ(f.at(7), "true") << "only reached events: " << trial_faults[i];
    if (!f.at(13).empty()) delay_s[f[0]] += std::stod(f[13]);
    if (trial_faults[i].rfind(zero, 0) == 0) trial_zero.push_back(trial_faults[i].substr(zero.size()));
  }
  EXPECT_FALSE(trial_zero.empty()) << "the draws reach no event in trial 0: change the rates";
  EXPECT_EQ(trial_zero, plain_reached);
  const auto trials = lines(read_text(dir / "one" / "trials.csv"));
  ASSERT_EQ(trials.size(), 4u);
  for (std::size_t i = 1; i < trials.size(); ++i) {
    const auto t = fields(trials[i]);
    if (t.at(13).empty()) continue; // not known
    EXPECT_NEAR(std::stod(t[13]), delay_s[t[0]], 1e-9 * (1.0 + std::stod(t[13]))) << trials[i];
  }
}

// Reference mode simulates each trial whole, in a process of its own: the
// same rows with 1 or 2 jobs, and a trial a node failure ends is cut at its
// time (below the fault-free 0.094 s of N 6,144).
TEST(Trials, ReferenceModeTrialsAreTheSameWithOneOrTwoJobs) {
  TempDir dir;
  write_text(
      dir / "fail.textproto",
      with_faults("faults {\n  failure_process { law: EXPONENTIAL rate_per_node_per_hour: 150 }\n}\n"));
  const auto run = [&](const char* out, const char* jobs) {
    const CliResult r = run_hplsim({"run", (dir / "fail.textproto").string(), "--mode", "reference", "--N",
                                    "6144", "--trials", "3", "--jobs", jobs, "--out", (dir / out).string()},
                                   dir);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return read_text(dir / out / "trials.csv");
  };
  const std::string one = run("one", "1");
  EXPECT_EQ(one, run("two", "2"));
  EXPECT_EQ(lines(one).size(), 4u);
  const auto j = nlohmann::json::parse(read_text(dir / "one" / "outcome.json"));
  EXPECT_EQ(j["mode"], "reference");
  EXPECT_TRUE(j["fault_free"].is_null()); // reference mode simulates the trials only
}

TEST(Trials, BadFlagsAreErrorsNamingTheFlag) {
  TempDir dir;
  for (const char* bad : {"0", "-3", "many"}) {
    const CliResult r = run_hplsim({"run", source_path("scenarios/small-dragonfly.textproto"), "--trials",
                                    bad, "--out", (dir / "out").string()},
                                   dir);
    EXPECT_NE(r.exit_code, 0) << bad;
    EXPECT_NE(r.err.find("--trials"), std::string::npos) << r.err;
  }
  const CliResult j = run_hplsim({"run", source_path("scenarios/small-dragonfly.textproto"), "--trials", "2",
                                  "--jobs", "0", "--out", (dir / "out").string()},
                                 dir);
  EXPECT_NE(j.exit_code, 0);
  EXPECT_NE(j.err.find("--jobs"), std::string::npos) << j.err;
}

// --strategies: every strategy's trials on the same draws (common random
// numbers). Reference mode, NIC cable flaps (1 s) and node failures drawn on
// small-dragonfly: each trial ends by the same node failure, or completes,
// under every strategy, and outcome.json's paired difference is the mean of
// the rows' differences (recomputed here from trials.csv).
TEST(Trials, StrategiesAreComparedOnTheSameDraws) {
  TempDir dir;
  write_text(dir / "mix.textproto",
             with_faults("faults {\n  failure_process { law: EXPONENTIAL rate_per_node_per_hour: 100 }\n"
                         "  flap_process { classes { link_class: NIC_PORT rate_per_link_per_hour: 40\n"
                         "    duration { law: FIXED mean_s: 0.5 } } }\n}\n"));
  const CliResult r = run_hplsim({"run", (dir / "mix.textproto").string(), "--N", "8192", "--trials", "4",
                                  "--strategies", "P2P,COLLECTIVE", "--out", (dir / "out").string()},
                                 dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto rows = lines(read_text(dir / "out" / "trials.csv"));
  ASSERT_EQ(rows.size(), 9u);
  EXPECT_EQ(rows[0].rfind("panel_exchange,trial,", 0), 0u);
  const auto cols = [&](std::size_t i) {
    std::vector<std::string> c;
    std::istringstream in(rows[i]);
    for (std::string x; std::getline(in, x, ',');)
      c.push_back(x);
    return c;
  };
  double sum = 0.0;
  int both = 0;
  for (std::size_t t = 1; t <= 4; ++t) {
    const auto p2p = cols(t), coll = cols(t + 4);
    EXPECT_EQ(p2p[0], "p2p");
    EXPECT_EQ(coll[0], "collective");
    EXPECT_EQ(p2p[1], coll[1]);
    EXPECT_EQ(p2p[7], coll[7]) << "trial " << t - 1 << ": the same run-ending event"; // ending_event
    if (p2p[3] == "true" && coll[3] == "true") {
      sum += std::stod(p2p[4]) - std::stod(coll[4]);
      ++both;
    }
  }
  const auto j = nlohmann::json::parse(read_text(dir / "out" / "outcome.json"));
  ASSERT_EQ(j["strategies"].size(), 2u);
  ASSERT_EQ(j["differences"].size(), 1u);
  const auto d = j["differences"][0];
  EXPECT_EQ(d["a"], "p2p");
  EXPECT_EQ(d["time_s"]["pairs"].get<int>(), both);
  if (both > 0) {
    EXPECT_NEAR(d["time_s"]["mean"].get<double>(), sum / both, 1e-12);
  }
  EXPECT_NE(r.out.find("p2p - collective (paired, 95%)"), std::string::npos) << r.out;
}

TEST(Trials, StrategiesNeedTrialsAndKnownNames) {
  TempDir dir;
  const std::string sc = source_path("scenarios/small-dragonfly.textproto");
  const CliResult no_trials =
      run_hplsim({"run", sc, "--strategies", "P2P,HYBRID", "--out", (dir / "o").string()}, dir);
  EXPECT_EQ(no_trials.exit_code, 1);
  EXPECT_NE(no_trials.err.find("--strategies"), std::string::npos) << no_trials.err;
  const CliResult bad = run_hplsim(
      {"run", sc, "--trials", "2", "--strategies", "P2P,hybrid", "--out", (dir / "o").string()}, dir);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--strategies"), std::string::npos) << bad.err;
  // Refused before anything is simulated (fast mode here: the analytic mode
  // refuses HPL-MxP itself).
  const CliResult mxp =
      run_hplsim({"run", source_path("scenarios/aurora-mxp-sc24.textproto"), "--trials", "2", "--strategies",
                  "P2P", "--mode", "fast", "--out", (dir / "o").string()},
                 dir);
  EXPECT_EQ(mxp.exit_code, 1);
  EXPECT_NE(mxp.err.find("--strategies: only HPL"), std::string::npos) << mxp.err;
}

} // namespace
} // namespace hplsim::sim::testing
