// Reports: summary.json keys and
// determinism, steps.csv shape, stats.json, the human summary, the SVG plot.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sim/report/plot_svg.hpp"
#include "sim/report/report.hpp"

namespace hplsim::sim {
namespace {

StepRecord step(std::int64_t k, double pfact, double bcast, double swap, double gemm) {
  StepRecord r;
  r.step = k;
  r.phase_s[static_cast<int>(PhaseId::Pfact)] = pfact;
  r.phase_s[static_cast<int>(PhaseId::Bcast)] = bcast;
  r.phase_s[static_cast<int>(PhaseId::Swap)] = swap;
  r.phase_s[static_cast<int>(PhaseId::Gemm)] = gemm;
  return r;
}

/// 10 panel steps, N = 2560, NB = 256: gemm_k = 10 - k s, swap 4.5 s,
/// pfact + bcast = 1 s. Communication-bound when 10 - k < 4.5, i.e. k >= 6.
/// Steps last 1 s each and do 2e12 flops (2 TF/s); then a final solve record.
RunResult synthetic() {
  RunResult r;
  r.mode = "reference";
  r.benchmark = "hpl";
  r.n = 2560;
  r.nb = 256;
  r.p = 2;
  r.q = 4;
  r.nodes = 4;
  r.ranks = 8;
  r.depth = 1;
  r.seed = 1;
  r.steps = 10;
  r.time_s = 0.1 + 0.2; // 0.30000000000000004: must survive the round trip
  r.rmax_flops_per_s = 1.5e15;
  for (int k = 0; k < 10; ++k) {
    StepRecord s = step(k, 0.5, 0.5, 4.5, 10.0 - k);
    s.phase_s[static_cast<int>(PhaseId::Trsm)] = 0.25;
    // Rank means: the panel factorization is one column's (Q = 4), the rest as the max.
    s.mean_phase_s = s.phase_s;
    s.mean_phase_s[static_cast<int>(PhaseId::Pfact)] = 0.125;
    s.matrix_fraction = k * 256.0 / 2560.0;
    s.start_s = k;
    s.end_s = k + 1.0;
    s.flops = 2e12;
    r.step_records.push_back(s);
  }
  StepRecord solve;
  solve.step = 10;
  solve.final_solve = true;
  solve.matrix_fraction = 1.0;
  solve.start_s = 10.0;
  solve.end_s = 10.5;
  solve.phase_s[static_cast<int>(PhaseId::Solve)] = 0.5;
  solve.mean_phase_s = solve.phase_s;
  solve.flops = 0.0;
  solve.how = "analytic";
  r.step_records.push_back(solve);
  r.activities = 12345;
  r.wall_s = 2.0;
  r.peak_rss_bytes = 1048576.0;
  return r;
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

class ReportFiles : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("hplsim_report_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::filesystem::path dir_;
};

TEST(DominantPhases, PhasesTradingPlacesStepByStepGiveOneAnswerPerBin) {
  // 200 panel steps (bins of 2 steps): GEMM 2 s on even steps and 0.5 s on odd
  // ones against BCAST 1 s throughout. Step by step they alternate; per bin
  // GEMM sums 2.5 s against 2 s, so GEMM is the largest over the whole run.
  RunResult r;
  for (int k = 0; k < 200; ++k) {
    StepRecord s;
    s.step = k;
    s.mean_phase_s[static_cast<int>(PhaseId::Gemm)] = k % 2 == 0 ? 2.0 : 0.5;
    s.mean_phase_s[static_cast<int>(PhaseId::Bcast)] = 1.0;
    r.step_records.push_back(s);
  }
  const auto runs = dominant_phases(r);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].phase, PhaseId::Gemm);
  EXPECT_EQ(runs[0].first_step, 0);
  EXPECT_EQ(runs[0].last_step, 199);
}

TEST_F(ReportFiles, SummaryHasKeysInOrderAndValues) {
  write_summary_json(synthetic(), path("summary.json"));
  const auto j = nlohmann::ordered_json::parse(read(path("summary.json")));
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it)
    keys.push_back(it.key());
  const std::vector<std::string> expected = {"benchmark",
                                             "mode",
                                             "seed",
                                             "n",
                                             "nb",
                                             "p",
                                             "q",
                                             "nodes",
                                             "ranks",
                                             "depth",
                                             "steps",
                                             "time_s",
                                             "rmax_tflops",
                                             "rmax_flops_per_s",
                                             "rmax_sampling_error_fraction",
                                             "phase_totals_s",
                                             "phase_mean_totals_s",
                                             "dominant_phases",
                                             "crossover_step",
                                             "crossover_fraction",
                                             "rate_drop_step",
                                             "rate_drop_fraction",
                                             "gemm_below_comm_step",
                                             "gemm_below_comm_fraction",
                                             "gemm_below_phase_step",
                                             "gemm_below_phase_fraction",
                                             "gemm_below_phase",
                                             "completed",
                                             "failure",
                                             "fits_in_memory",
                                             "calibration"};
  EXPECT_EQ(keys, expected);
  EXPECT_TRUE(j["rmax_sampling_error_fraction"].is_null());  // not a fast-mode result
  EXPECT_EQ(j["time_s"].get<double>(), 0.1 + 0.2);           // exact: shortest round-trip text
  EXPECT_NEAR(j["rmax_tflops"].get<double>(), 1500.0, 1e-9); // 1.5e15 / 1e12
  // Totals over the 10 panel steps + solve: gemm = 10+9+...+1 = 55, swap = 45,
  // pfact = bcast = 5, trsm = 2.5, solve = 0.5.
  const auto& totals = j["phase_totals_s"];
  EXPECT_NEAR(totals["gemm"].get<double>(), 55.0, 1e-12);
  EXPECT_NEAR(totals["swap"].get<double>(), 45.0, 1e-12);
  EXPECT_NEAR(totals["pfact"].get<double>(), 5.0, 1e-12);
  EXPECT_NEAR(totals["bcast"].get<double>(), 5.0, 1e-12);
  EXPECT_NEAR(totals["trsm"].get<double>(), 2.5, 1e-12);
  EXPECT_NEAR(totals["solve"].get<double>(), 0.5, 1e-12);
  // Rank means as synthetic() sets them: pfact 0.125 per step (10 steps), the rest as the max.
  EXPECT_NEAR(j["phase_mean_totals_s"]["pfact"].get<double>(), 1.25, 1e-12);
  EXPECT_NEAR(j["phase_mean_totals_s"]["gemm"].get<double>(), 55.0, 1e-12);
  // The largest rank-mean phase: gemm (10 - k s) above swap (4.5 s) for k <= 5, then swap.
  const auto& runs = j["dominant_phases"];
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0]["phase"], "gemm");
  EXPECT_EQ(runs[0]["first_step"].get<int>(), 0);
  EXPECT_EQ(runs[0]["last_step"].get<int>(), 5);
  EXPECT_EQ(runs[1]["phase"], "swap");
  EXPECT_EQ(runs[1]["first_step"].get<int>(), 6);
  EXPECT_EQ(runs[1]["last_step"].get<int>(), 9);
  // The crossover's rules are tested in crossover_test.cpp; here, that the keys carry them.
  EXPECT_EQ(j["crossover_step"].get<std::int64_t>(), crossover_step(synthetic()).value());
  EXPECT_TRUE(j["rate_drop_step"].is_null());                           // every step runs at 2 TF/s
  EXPECT_EQ(j["gemm_below_comm_step"].get<int>(), 6);                   // 10 - k < 4.5 from k = 6
  EXPECT_NEAR(j["gemm_below_comm_fraction"].get<double>(), 0.6, 1e-15); // 6 * 256 / 2560
  EXPECT_TRUE(j["failure"].is_null());
  const std::string text = read(path("summary.json"));
  EXPECT_EQ(text.find("wall"), std::string::npos);
  EXPECT_EQ(text.find("activities"), std::string::npos);
}

TEST_F(ReportFiles, SummaryForMxpFailureHasRefinementAndNulls) {
  RunResult r = synthetic();
  r.benchmark = "hpl-mxp";
  r.refinement_s = 1.25;
  r.refinement_iterations = 3;
  r.completed = false;
  r.failure = "node 3 failed at 5.5 s";
  for (StepRecord& s : r.step_records) // the update's share constant: no crossover
    s.phase_s[static_cast<int>(PhaseId::Gemm)] = 1.0;
  write_summary_json(r, path("summary.json"));
  const auto j = nlohmann::ordered_json::parse(read(path("summary.json")));
  EXPECT_TRUE(j["crossover_step"].is_null());
  EXPECT_TRUE(j["crossover_fraction"].is_null());
  EXPECT_FALSE(j["completed"].get<bool>());
  EXPECT_EQ(j["failure"].get<std::string>(), "node 3 failed at 5.5 s");
  EXPECT_EQ(j["refinement_s"].get<double>(), 1.25);
  EXPECT_EQ(j["refinement_iterations"].get<int>(), 3);
  // All simulated (reference mode, or fast mode with every iteration in its window).
  EXPECT_EQ(j["refinement_iterations_simulated"].get<int>(), 3);
  EXPECT_EQ(std::prev(j.end()).key(), "refinement_iterations_simulated");
}

TEST_F(ReportFiles, SameResultGivesByteIdenticalFiles) {
  RunResult a = synthetic();
  RunResult b = synthetic();
  b.wall_s = 99.0; // simulator statistics must not leak into the deterministic files
  b.activities = 1;
  write_summary_json(a, path("a.json"));
  write_summary_json(b, path("b.json"));
  EXPECT_EQ(read(path("a.json")), read(path("b.json")));
  write_steps_csv(a, path("a.csv"));
  write_steps_csv(b, path("b.csv"));
  EXPECT_EQ(read(path("a.csv")), read(path("b.csv")));
  EXPECT_EQ(phase_plot_svg(a), phase_plot_svg(b));
}

TEST_F(ReportFiles, StepsCsvHasOneRowPerRecord) {
  write_steps_csv(synthetic(), path("steps.csv"));
  std::istringstream in(read(path("steps.csv")));
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(in, line))
    lines.push_back(line);
  ASSERT_EQ(lines.size(), 12u); // header + 10 panel steps + final solve
  EXPECT_EQ(lines[0],
            "step,matrix_fraction,start_s,end_s,step_s,pfact_s,bcast_s,swap_s,trsm_s,gemm_s,solve_s,"
            "pfact_mean_s,bcast_mean_s,swap_mean_s,trsm_mean_s,gemm_mean_s,solve_mean_s,"
            "flops,rate_tflops,how");
  for (const std::string& l : lines)
    EXPECT_EQ(std::count(l.begin(), l.end(), ','), 19) << l;
  // Step 3: fraction 3*256/2560 = 0.3, 1 s, gemm 7 s, 2e12 flops / 1 s = 2 TF/s.
  EXPECT_EQ(lines[4], "3,0.3,3,4,1,0.5,0.5,4.5,0.25,7,0,0.125,0.5,4.5,0.25,7,0,2e+12,2,simulated");
  // Final solve: its own step index and how; 0 flops => rate 0.
  EXPECT_EQ(lines[11], "10,1,10,10.5,0.5,0,0,0,0,0,0.5,0,0,0,0,0,0.5,0,0,analytic");
}

TEST_F(ReportFiles, StatsJsonHasSimulatorFigures) {
  write_stats_json(synthetic(), path("stats.json"));
  const auto j = nlohmann::ordered_json::parse(read(path("stats.json")));
  EXPECT_EQ(j["activities"].get<std::uint64_t>(), 12345u);
  EXPECT_NEAR(j["activities_per_s"].get<double>(), 6172.5, 1e-9); // 12345 / 2 s
  EXPECT_NEAR(j["wall_s"].get<double>(), 2.0, 0.0);
  EXPECT_NEAR(j["peak_rss_bytes"].get<double>(), 1048576.0, 0.0);
  EXPECT_FALSE(j.contains("windows")); // not a fast-mode run
}

TEST_F(ReportFiles, StatsJsonHasTheWindowProcesses) {
  RunResult r = synthetic();
  r.window_processes = 2;
  r.window_peak_rss_bytes = 4194304.0;
  r.windows = {{0, 4, 100, 1.5, 3145728.0}, {96, 100, 200, 2.5, 4194304.0}};
  write_stats_json(r, path("stats.json"));
  const auto j = nlohmann::ordered_json::parse(read(path("stats.json")));
  EXPECT_EQ(j["window_processes"].get<int>(), 2);
  // The bound: main 1 MiB + the two largest window peaks, 3 and 4 MiB.
  EXPECT_NEAR(j["peak_rss_bound_bytes"].get<double>(), 8.0 * 1048576.0, 0.0);
  ASSERT_EQ(j["windows"].size(), 2u);
  EXPECT_EQ(j["windows"][1]["first_step"].get<std::int64_t>(), 96);
  EXPECT_EQ(j["windows"][1]["last_step"].get<std::int64_t>(), 100);
  EXPECT_EQ(j["windows"][1]["activities"].get<std::uint64_t>(), 200u);
  EXPECT_NEAR(j["windows"][1]["wall_s"].get<double>(), 2.5, 0.0);
}

// A window's record: RSS peak and, at its end, its anonymous pages shared
// (measured), in MiB.
WindowStat window_mib(double peak_mib, double shared_anonymous_mib) {
  WindowStat w;
  w.peak_rss_bytes = peak_mib * 1048576.0;
  w.shared_measured = true;
  w.shared_anonymous_end_bytes = shared_anonymous_mib * 1048576.0;
  w.shared_end_bytes = w.shared_anonymous_end_bytes + 1048576.0; // a library's pages besides
  return w;
}

TEST(Report, MemoryBoundAddsTheLargestPrivatePeaksAndTheMainProcessFaults) {
  RunResult r = synthetic(); // main process: 1 MiB peak
  r.window_processes = 2;
  r.window_peak_rss_bytes = 5.0 * 1048576.0;
  r.main_fault_bytes_while_windows_ran = 0.5 * 1048576.0;
  // Private peaks 1, 3 and 2 MiB: the largest RSS peak (5 MiB) is mostly
  // shared, so the two largest private peaks are the second and third windows'.
  r.windows = {window_mib(5.0, 4.0), window_mib(4.0, 1.0), window_mib(3.0, 1.0)};
  EXPECT_NEAR(r.windows[0].private_peak_bytes(), 1048576.0, 0.0);
  // 1 MiB main + 0.5 MiB faulted in + 3 + 2 MiB.
  EXPECT_NEAR(peak_rss_bound_bytes(r), 6.5 * 1048576.0, 0.0);
  // One window process at a time: only the largest private peak.
  r.window_processes = 1;
  EXPECT_NEAR(peak_rss_bound_bytes(r), 4.5 * 1048576.0, 0.0);
}

TEST(Report, MemoryBoundCountsAnUnmeasuredWindowWhole) {
  RunResult r = synthetic();
  r.window_processes = 2;
  WindowStat unmeasured;
  unmeasured.peak_rss_bytes = 4.0 * 1048576.0; // /proc unreadable: no shared pages subtracted
  r.windows = {window_mib(5.0, 4.0), unmeasured};
  EXPECT_NEAR(unmeasured.private_peak_bytes(), 4.0 * 1048576.0, 0.0);
  EXPECT_NEAR(peak_rss_bound_bytes(r), (1.0 + 1.0 + 4.0) * 1048576.0, 0.0);
  // Without recorded windows: the largest RSS peak once per window process.
  r.windows.clear();
  r.window_peak_rss_bytes = 5.0 * 1048576.0;
  EXPECT_NEAR(peak_rss_bound_bytes(r), (1.0 + 2 * 5.0) * 1048576.0, 0.0);
}

TEST_F(ReportFiles, StatsJsonSaysWhetherTheWindowsSharedPagesWereMeasured) {
  RunResult r = synthetic();
  r.window_processes = 2;
  r.window_peak_rss_bytes = 5.0 * 1048576.0;
  r.main_fault_bytes_while_windows_ran = 0.5 * 1048576.0;
  r.windows = {window_mib(5.0, 4.0), window_mib(4.0, 1.0)};
  write_stats_json(r, path("stats.json"));
  auto j = nlohmann::ordered_json::parse(read(path("stats.json")));
  EXPECT_TRUE(j["window_shared_measured"].get<bool>());
  EXPECT_NEAR(j["window_private_peak_bytes"].get<double>(), 3.0 * 1048576.0, 0.0); // 4 - 1 MiB
  EXPECT_NEAR(j["main_fault_bytes_while_windows_ran"].get<double>(), 0.5 * 1048576.0, 0.0);
  EXPECT_NEAR(j["peak_rss_bound_bytes"].get<double>(), (1.0 + 0.5 + 3.0 + 1.0) * 1048576.0, 0.0);
  EXPECT_NEAR(j["windows"][0]["private_peak_bytes"].get<double>(), 1048576.0, 0.0);
  EXPECT_NEAR(j["windows"][0]["shared_anonymous_end_bytes"].get<double>(), 4.0 * 1048576.0, 0.0);
  EXPECT_NEAR(j["windows"][0]["shared_end_bytes"].get<double>(), 5.0 * 1048576.0, 0.0);
  std::ostringstream out;
  print_summary(r, out);
  EXPECT_NE(out.str().find("5.0 MiB at most each, 3.0 MiB of it their own (5.5 MiB at most together)"),
            std::string::npos)
      << out.str();
  r.windows[1].shared_measured = false;
  write_stats_json(r, path("stats.json"));
  j = nlohmann::ordered_json::parse(read(path("stats.json")));
  EXPECT_FALSE(j["window_shared_measured"].get<bool>());
  std::ostringstream unmeasured;
  print_summary(r, unmeasured);
  EXPECT_NE(unmeasured.str().find("shared pages not measured"), std::string::npos) << unmeasured.str();
}

TEST(Report, PrintSummaryShowsHplLineRateAndCrossover) {
  RunResult r = synthetic();
  r.rmax_flops_per_s = 1.012e18;
  std::ostringstream out;
  print_summary(r, out);
  const std::string s = out.str();
  EXPECT_NE(s.find("T/V                N    NB     P     Q               Time                 Gflops"),
            std::string::npos);
  // HPL 2.3 column widths: label 10, N 10, NB/P/Q 6, Time 19, Gflops 23.
  EXPECT_NE(s.find("hplsim-ref      2560   256     2     4               0.30             1.0120e+09"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("1.012 EF/s"), std::string::npos) << s;
  EXPECT_NE(s.find("step 6 of 10"), std::string::npos) << s;
  EXPECT_NE(s.find("Outcome: completed"), std::string::npos) << s;
  EXPECT_NE(s.find("6.17e+03 activities/s"), std::string::npos) << s; // 12345 / 2 s
}

TEST(PlotSvg, IsWellFormedWithOnePolylinePerPhase) {
  const std::string svg = phase_plot_svg(synthetic());
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  auto count = [&svg](const std::string& what) {
    std::size_t n = 0;
    for (auto at = svg.find(what); at != std::string::npos; at = svg.find(what, at + 1))
      ++n;
    return n;
  };
  for (const char* phase : {"pfact", "bcast", "swap", "trsm", "gemm"}) {
    EXPECT_EQ(count(std::string("<polyline class=\"phase-") + phase + "\""), 1u) << phase;
    EXPECT_EQ(count(std::string("<polyline class=\"phase-") + phase + "-mean\""), 1u) << phase;
  }
  EXPECT_EQ(count("<polyline"), 11u); // five phases, their rank means, the rate
  EXPECT_EQ(count("<text"), count("</text>"));
  EXPECT_EQ(count("<g"), count("</g>"));
  EXPECT_EQ(count("<svg"), 1u);
  EXPECT_EQ(count("class=\"crossover\""), 1u);
  // No crossover => no marker.
  RunResult r = synthetic();
  for (StepRecord& s : r.step_records) // the update's share constant
    s.phase_s[static_cast<int>(PhaseId::Gemm)] = 1.0;
  EXPECT_EQ(phase_plot_svg(r).find("crossover"), std::string::npos);
}

TEST_F(ReportFiles, WritesPlotFile) {
  write_phase_plot_svg(synthetic(), path("phases.svg"));
  EXPECT_EQ(read(path("phases.svg")), phase_plot_svg(synthetic()));
}

TEST(Report, ThrowsWhenFileCannotBeWritten) {
  EXPECT_THROW(write_summary_json(synthetic(), "/nonexistent-dir/summary.json"), std::runtime_error);
  EXPECT_THROW(write_steps_csv(synthetic(), "/nonexistent-dir/steps.csv"), std::runtime_error);
}

} // namespace
} // namespace hplsim::sim
