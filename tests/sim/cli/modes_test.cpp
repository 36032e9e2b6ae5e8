// The modes against reference mode, through the command line (cli_runner.hpp):
// analytic on a contention-free case, fast mode's windows, curve, sampling
// error and folds.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/sim/cli/cli_runner.hpp"

namespace hplsim::sim::testing {
namespace {

using nlohmann::json;

const std::string kSmallDragonfly = source_path("scenarios/small-dragonfly.textproto");

json read_summary(const fs::path& dir) {
  return json::parse(read_text(dir / "summary.json"));
}

json read_stats(const fs::path& dir) {
  return json::parse(read_text(dir / "stats.json"));
}

double rmax_of(const TempDir& dir, const std::string& scenario, const std::string& mode,
               double* time_s = nullptr, const std::vector<std::string>& extra = {}) {
  const fs::path out = dir / mode;
  std::vector<std::string> args = {"run", scenario, "--mode", mode, "--out", out.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const CliResult r = run_hplsim(args, dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (r.exit_code != 0) return std::nan("");
  const json s = read_summary(out);
  EXPECT_EQ(s.at("mode").get<std::string>(), mode);
  if (time_s != nullptr) *time_s = s.at("time_s").get<double>();
  return s.at("rmax_tflops").get<double>();
}

TEST(CliModes, AnalyticMatchesReferenceOnAContentionFreeCase) {
  TempDir dir;
  // small-dragonfly's machine, 2 nodes x 1 rank, P 1 x Q 2, no look-ahead:
  // per step one panel broadcast hop (Q = 2), no pivot exchange and no swap
  // messages (P = 1), and nothing to share a link with.
  std::string text = small_dragonfly_text();
  text = text.substr(0, text.find("workload {")) +
         "workload {\n  nodes: 2\n  ranks_per_node: 1\n  n: 4096\n  nb: 256\n  p: 1\n  q: 2\n  depth: 0\n}\n";
  const std::string path = (dir / "two-nodes.textproto").string();
  write_text(path, text);
  double reference_s = 0.0, analytic_s = 0.0;
  rmax_of(dir, path, "reference", &reference_s);
  rmax_of(dir, path, "analytic", &analytic_s);
  // Tolerance 5%. With depth 0 both modes add the phases of a step, and on
  // this case they should differ only by latency terms and by how much the
  // owner's next panel overlaps the other rank's update (both < 1% here). The
  // analytic mode follows the schedule (panel threads, recursive panel,
  // receiver H2D copy, message sizes, GEMM rows) and the replay's CPU
  // threading model, so a mismatch in either shows up here.
  EXPECT_NEAR(analytic_s, reference_s, 0.05 * reference_s);
}

TEST(CliModes, FastAgreesWithReferenceOnSmallDragonfly) {
  TempDir dir;
  const double reference = rmax_of(dir, kSmallDragonfly, "reference");
  // 48 steps are fewer than the default window plan, which fast mode then
  // simulates whole; 2 uniform windows (a 20-step plan) keep the windows, their
  // cool-down step and the interpolation in the test. Every rank kept: this
  // holds the windows and the interpolation; with 2 windows the cost estimate
  // would fold the 288 ranks (+3%, the fold's cost at this size,
  // docs/fast-mode.md point 14), which the fold's own checks cover.
  const double fast = rmax_of(dir, kSmallDragonfly, "fast", nullptr,
                              {"--set", "options.fast.initial_windows=2", "--set", "options.fast.fold=OFF"});
  // Measured: reference 5.891, fast with 2 windows 5.940 TF/s (+0.82%) with the
  // monotone cubic through the windows; 1% is the validation bar for fast vs reference
  // (scripts/validate-fast.sh) and leaves room for model changes without hiding a broken
  // interpolation.
  EXPECT_NEAR(fast, reference, 0.01 * reference);
  // Its own estimate of that error, the jackknife over its 10 interior windows
  // (2 uniform + 8 by bisection): measured 0.88%, the same order as the +0.82%.
  EXPECT_NEAR(read_summary(dir / "fast").at("rmax_sampling_error_fraction").get<double>(), 0.0088, 0.002);
}

TEST(CliModes, FastStepIsNeverShorterThanTheSlowestGpusGemm) {
  // A 16-node Aurora slice (96 ranks, 8 x 12) folded, with a wide GPU spread
  // (cv 5%): each window starts its ranks together, so its end-to-end d(k)
  // misses the slow GPU's pace. Before the resource bound (fast_mode.cpp)
  // steps 1-3 came out at 0.4463 s against a slowest GEMM of 0.4519 s.
  TempDir dir;
  const fs::path out = dir / "slice";
  const CliResult r = run_hplsim({"run", source_path("scenarios/aurora-hpl-sc24.textproto"), "--nodes", "16",
                                  "--P", "8", "--Q", "12", "--N", "1197312", "--set", "options.fast.fold=ON",
                                  "--set", "machine.variability.gpu_rate_cv=0.05", "--out", out.string()},
                                 dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream csv(read_text(out / "steps.csv"));
  std::string line;
  std::getline(
      csv,
      line); // header: step,matrix_fraction,start_s,end_s,step_s,pfact_s,bcast_s,swap_s,trsm_s,gemm_s,...,how
  int simulated = 0;
  while (std::getline(csv, line)) {
    std::vector<std::string> f;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');)
      f.push_back(cell);
    ASSERT_GE(f.size(), 14u) << line;
    const long step = std::stol(f[0]);
    if (f.back() != "simulated" || step == 0 || std::stod(f[9]) <= 0.0) continue;
    ++simulated;
    // The bound is exact (a max), so only rounding separates them.
    EXPECT_GE(std::stod(f[4]), std::stod(f[9]) - 1e-12) << "step " << step;
  }
  EXPECT_GT(simulated, 4);
}

// steps.csv's windows as curve nodes, as fast mode builds them (docs/fast-mode.md, "integrating the curve"):
// the head window's last step, each interior window's mean at its mean step, the tail window's first step.
std::vector<std::pair<double, double>> window_nodes(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::vector<std::size_t>> windows;
  for (std::size_t i = 0; i + 1 < rows.size(); ++i) // the last row is the final solve
    if (rows[i].back() == "simulated") {
      if (windows.empty() || windows.back().back() + 1 != i) windows.emplace_back();
      windows.back().push_back(i);
    }
  std::vector<std::pair<double, double>> nodes;
  for (std::size_t w = 0; w < windows.size(); ++w) {
    const auto& rows_of = windows[w];
    const std::size_t pick = w == 0 ? rows_of.back() : rows_of.front();
    if (w == 0 || w + 1 == windows.size()) {
      nodes.emplace_back(std::stod(rows[pick][0]), std::stod(rows[pick][4]));
      continue;
    }
    double step = 0.0, value = 0.0;
    for (std::size_t i : rows_of) {
      step += std::stod(rows[i][0]) / static_cast<double>(rows_of.size());
      value += std::stod(rows[i][4]) / static_cast<double>(rows_of.size());
    }
    nodes.emplace_back(step, value);
  }
  return nodes;
}

TEST(CliModes, StepsBetweenWindowsLieOnTheCurveThroughTheWindows) {
  // small-dragonfly (48 steps) with 2 uniform windows: 4 nodes and 3 gaps.
  TempDir dir;
  std::vector<std::vector<std::vector<std::string>>> runs;
  for (const std::string rule : {"LINEAR", "MONOTONE_CUBIC"}) {
    const fs::path out = dir / rule;
    const CliResult r = run_hplsim({"run", kSmallDragonfly, "--mode", "fast", "--set",
                                    "options.fast.initial_windows=2", "--set", "options.fast.max_windows=4",
                                    "--set", "options.fast.interpolation=" + rule, "--out", out.string()},
                                   dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    runs.push_back(steps_rows(out));
  }
  int off_the_chord = 0, interpolated = 0;
  for (std::size_t run = 0; run < runs.size(); ++run) {
    const auto& rows = runs[run];
    const auto nodes = window_nodes(rows);
    ASSERT_GE(nodes.size(), 3U);
    for (const auto& row : rows) {
      if (row.back().rfind("interpolated:", 0) != 0) continue;
      const double k = std::stod(row[0]), got = std::stod(row[4]);
      std::size_t i = 0;
      while (i + 2 < nodes.size() && nodes[i + 1].first < k)
        ++i;
      const auto [x0, y0] = nodes[i];
      const auto [x1, y1] = nodes[i + 1];
      ASSERT_TRUE(x0 < k && k < x1) << "step " << k << " outside its nodes";
      const double chord = y0 + (k - x0) / (x1 - x0) * (y1 - y0);
      if (run == 0) {
        EXPECT_NEAR(got, chord, 1e-12 * chord) << "step " << k; // LINEAR: on the chord
      } else {
        ++interpolated;
        // MONOTONE_CUBIC: between its two nodes, and not the chord.
        EXPECT_GE(got, std::min(y0, y1) * (1 - 1e-12)) << "step " << k;
        EXPECT_LE(got, std::max(y0, y1) * (1 + 1e-12)) << "step " << k;
        off_the_chord += std::abs(got - chord) > 1e-6 * chord;
      }
    }
  }
  EXPECT_GT(interpolated, 10);
  EXPECT_GT(off_the_chord, interpolated / 2);
}

TEST(CliModes, SamplingErrorIsNullWhereEveryStepIsSimulated) {
  // 48 steps are fewer than the default window plan: fast mode simulates the
  // run whole, and reference mode always does; neither has windows to leave out.
  TempDir dir;
  for (const std::string mode : {"fast", "reference"}) {
    const fs::path out = dir / mode;
    const CliResult r = run_hplsim({"run", kSmallDragonfly, "--mode", mode, "--out", out.string()}, dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(read_summary(out).at("rmax_sampling_error_fraction").is_null()) << mode;
    EXPECT_EQ(r.out.find("Sampling error"), std::string::npos) << mode;
  }
}

// Fast mode on a 32-node HPL-MxP slice of the Aurora scenario (64 ranks, 8 x 8,
// N 147,456) with the given `--set`s, into dir/name; returns that folder.
fs::path run_mxp_slice(const TempDir& dir, const std::string& name, const std::vector<std::string>& sets) {
  std::vector<std::string> args = {"run",     source_path("scenarios/aurora-mxp-sc24.textproto"),
                                   "--mode",  "fast",
                                   "--nodes", "32",
                                   "--P",     "8",
                                   "--Q",     "8",
                                   "--N",     "147456"};
  for (const std::string& set : sets) {
    args.push_back("--set");
    args.push_back(set);
  }
  const fs::path out = dir / name;
  args.push_back("--out");
  args.push_back(out.string());
  const CliResult r = run_hplsim(args, dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return out;
}

// run_mxp_slice with `sets`, plus `key=value` when a value is given.
fs::path run_mxp_slice_with(const TempDir& dir, const std::string& name, std::vector<std::string> sets,
                            const std::string& key, const std::string& value) {
  if (!value.empty()) sets.push_back(key + "=" + value);
  return run_mxp_slice(dir, name, sets);
}

TEST(CliModes, FinalSolveFoldedAboveTheThresholdLeavesTheStepsUnfolded) {
  // A 32-node HPL-MxP slice (64 ranks, 8 x 8) in fast mode with folding off.
  // fold_above_ranks 8 folds only the refinement's window (at Aurora's MxP
  // grid its unfolded schedule needs ~6 GB, fast_mode.cpp): the step windows
  // must stay exactly what the unfolded run simulates, and the refinement is
  // still simulated, in a window of its own.
  TempDir dir;
  const auto run = [&](const std::string& above) {
    // Every refinement iteration simulated: the fold alone is compared.
    return run_mxp_slice(dir, "above-" + above,
                         {"options.fast.fold=OFF", "options.fast.fold_above_ranks=" + above,
                          "options.fast.refinement_iterations=0"});
  };
  const fs::path whole = run("4096"), folded = run("8");
  const auto a = steps_rows(whole), b = steps_rows(folded);
  ASSERT_EQ(a.size(), b.size());
  ASSERT_GT(a.size(), 2u);
  for (std::size_t i = 0; i + 1 < a.size(); ++i) {
    ASSERT_GE(a[i].size(), 14u);
    EXPECT_EQ(a[i].back(), b[i].back()) << "step " << a[i][0];
    // Same windows, same ranks: equal up to floating-point summation order,
    // except the tail window's last steps (the 4 before the final solve; they
    // are interpolated from its 2 measured ones), which do not share the
    // links with the refinement's first messages: -0.012% at most here.
    const double tol = i + 5 >= a.size() ? 1e-3 : 1e-9;
    EXPECT_NEAR(std::stod(a[i][4]), std::stod(b[i][4]), tol * std::stod(a[i][4])) << "step " << a[i][0];
  }
  EXPECT_EQ(b.back().back(), "simulated");
  const double refinement_s = read_summary(folded)["refinement_s"].get<double>();
  EXPECT_GT(refinement_s, 0.0);
  // The folded refinement can be optimistic (phantoms break the solves'
  // pipeline chain): measured 0.320 s with the scenario's CROSS_BAND, 0.119 s
  // with COLUMN_BAND, against 0.334 s unfolded on this slice (docs/fast-mode.md, "the final solve"). It must
  // not come out longer.
  EXPECT_LE(refinement_s, read_summary(whole)["refinement_s"].get<double>());
}

TEST(CliModes, RefinementIterationsExtrapolatedFromOneFollowAllSimulated) {
  // The same slice with the refinement folded apart: its window simulates one
  // GMRES iteration (the default there), and the other three and GMRES's first
  // residual and solves are extrapolated from it (docs/fast-mode.md, point
  // 13), against all of them simulated. Measured 2026-12-06: 0.121597 s
  // against 0.121514 s (+0.07%), the refinement window's activities 5,638
  // against 24,914; the steps before are the same windows, to the bit.
  TempDir dir;
  const auto run = [&](const std::string& name, const std::string& iterations) {
    return run_mxp_slice_with(dir, name, {"options.fast.fold=OFF", "options.fast.fold_above_ranks=8"},
                              "options.fast.refinement_iterations", iterations);
  };
  const fs::path all = run("all", "0"), one = run("one", "");
  const auto a = steps_rows(all), b = steps_rows(one);
  ASSERT_EQ(a.size(), b.size());
  ASSERT_GT(a.size(), 2u);
  for (std::size_t i = 0; i + 1 < a.size(); ++i)
    EXPECT_EQ(a[i], b[i]) << "step " << a[i][0];
  EXPECT_EQ(a.back().back(), "simulated");
  EXPECT_EQ(b.back().back(), "extrapolated:1");
  const json sa = read_summary(all), sb = read_summary(one);
  EXPECT_EQ(sb["refinement_iterations"].get<int>(), sa["refinement_iterations"].get<int>());
  // Within 1% of the simulated iterations (measured +0.07%).
  EXPECT_NEAR(sb["refinement_s"].get<double>(), sa["refinement_s"].get<double>(),
              0.01 * sa["refinement_s"].get<double>());
  EXPECT_LT(read_stats(one)["activities"].get<double>(), read_stats(all)["activities"].get<double>());
}

TEST(CliModes, BisectionStopsAtTheTargetSamplingError) {
  // The same slice (unfolded) bisects past its 12 uniform windows (23
  // interior windows, jackknife 0.9%, 2026-12-05). A target the uniform
  // windows already meet stops it before the first pass.
  TempDir dir;
  const auto run = [&](const std::string& name, const std::string& target) {
    return run_mxp_slice_with(dir, name, {"options.fast.fold=OFF", "options.fast.refinement_iterations=0"},
                              "options.fast.target_sampling_error", target);
  };
  const fs::path plain = run("plain", ""), loose = run("loose", "0.5");
  const auto windows = [](const fs::path& out) { return read_stats(out)["windows"].size(); };
  // Besides the interior windows: the head, and the tail with the final solve.
  EXPECT_GT(windows(plain), 12u + 2u);
  EXPECT_EQ(windows(loose), 12u + 2u);
  EXPECT_LE(read_summary(loose)["rmax_sampling_error_fraction"].get<double>(), 0.5);
}

TEST(CliModes, CrossBandFoldFollowsTheUnfoldedMxpRun) {
  // The same 64-rank HPL-MxP slice, fast mode: unfolded, then folded with
  // COLUMN_BAND and CROSS_BAND. Measured 2026-12-07 (docs/fast-mode.md, "The
  // bands on HPL-MxP"): unfolded 1519.4 TF/s, CROSS_BAND 1568.4 (+3.2%),
  // COLUMN_BAND 1588.1 (+4.5%). The refinement's solves are pipelined, so
  // COLUMN_BAND's phantoms have no one-message chain of partial sums to cut
  // short (with such a chain, COLUMN_BAND reads about 16% high).
  TempDir dir;
  const auto rmax = [&](const std::string& fold, const std::string& band) {
    // Without the fitted jitter: the fold's own error, not the jitter's draws.
    const fs::path out = run_mxp_slice(
        dir, fold + band,
        {"options.fast.fold=" + fold, "options.fast.band=" + band, "machine.variability.kernel_jitter_cv=0"});
    return read_summary(out)["rmax_tflops"].get<double>();
  };
  const double whole = rmax("OFF", "COLUMN_BAND");
  const double column = rmax("ON", "COLUMN_BAND");
  const double cross = rmax("ON", "CROSS_BAND");
  EXPECT_NEAR(cross, whole, 0.05 * whole);
  EXPECT_NEAR(column, whole, 0.065 * whole);
  EXPECT_LT(cross, column); // the cross band keeps more of the owners' chains
}

TEST(CliErrors, FoldAboveRanksMustBePositive) {
  TempDir dir;
  const CliResult r = run_hplsim({"run", kSmallDragonfly, "--set", "options.fast.fold_above_ranks=0"}, dir);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("options.fast.fold_above_ranks"), std::string::npos) << r.err;
}

} // namespace
} // namespace hplsim::sim::testing
