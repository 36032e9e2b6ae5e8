// The HTML report's assembly (sim/report/html_report.hpp) on hand-written
// output directories: what each file becomes, and the errors naming the file.
#include "sim/report/html_report.hpp"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "sim/support/errors.hpp"

namespace hplsim::sim {
namespace {

namespace fs = std::filesystem;

class HtmlReport : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("hplsim-html-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }
  std::string report() { return html_report(dir_.string()); }
  std::string error() {
    try {
      report();
    } catch (const InputError& e) {
      return e.what();
    }
    return "(no error)";
  }
  fs::path dir_;
};

TEST_F(HtmlReport, ARunsSummaryBecomesCardsAndKeyedCells) {
  write("summary.json", R"({"benchmark": "hpl", "mode": "fast", "n": 1000, "nb": 100, "p": 2, "q": 3,
    "nodes": 1, "time_s": 5400.0, "rmax_flops_per_s": 1.4e18, "rmax_sampling_error_fraction": 0.0035,
    "phase_totals_s": {"gemm": 1.5}, "dominant_phases": [{"phase": "gemm"}], "completed": true,
    "failure": null})");
  write("phases.svg", "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><rect/></svg>\n");
  const std::string page = report();
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(page.find(">1.400 EF/s<"), std::string::npos);                   // 1.4e18 in the unit it reads in
  EXPECT_NE(page.find(">1.500 h<"), std::string::npos);                      // 5400 s
  EXPECT_NE(page.find(">sampling error \u00b10.350 %<"), std::string::npos); // the sampling error
  EXPECT_NE(page.find(">1,000, 100<"), std::string::npos);                   // N, NB
  // The raw values: exact in data-value, rounded in the text.
  EXPECT_NE(page.find("data-key=\"phase_totals_s.gemm\" data-value=\"1.5\">1.5<"), std::string::npos);
  EXPECT_NE(page.find("data-key=\"dominant_phases\" data-value=\"[{&quot;phase&quot;:&quot;gemm&quot;}]\">"
                      "[{&quot;phase&quot;:&quot;gemm&quot;}]<"),
            std::string::npos);
  EXPECT_NE(page.find("data-key=\"failure\" data-value=\"null\">-<"), std::string::npos);
  // Without about.json the title says what kind of output it is.
  EXPECT_NE(page.find("<h1>hplsim run: "), std::string::npos);
  // The SVG is inlined without its XML declaration.
  EXPECT_NE(page.find("<figure>\n<svg xmlns"), std::string::npos);
  EXPECT_EQ(page.find("<?xml"), std::string::npos);
  EXPECT_EQ(page, report()); // deterministic
}

TEST_F(HtmlReport, APublishedReferenceSaysWhetherItWasAFitTarget) {
  // summary.json as `hplsim run` writes it for a scenario that names its
  // published figure: the card shows the difference and what it means.
  const std::string head =
      R"({"benchmark": "hpl", "mode": "fast", "time_s": 100.0, "rmax_flops_per_s": 1.0134e18,
    "completed": true, "failure": null, "calibration": "calibrated", "reference": {"id": "r", "source": "a list",
    "rmax_flops_per_s": 1.012e18, "difference_fraction": 0.001383, "fit_target": )";
  write("summary.json", head + "true}}");
  std::string page = report();
  EXPECT_NE(page.find(">vs published 1.012 EF/s<"), std::string::npos);
  EXPECT_NE(page.find(">+0.1%<"), std::string::npos); // 1.0134 / 1.012 - 1
  EXPECT_NE(page.find("by construction"), std::string::npos);
  write("summary.json", head + "false}}");
  page = report();
  EXPECT_NE(page.find("a prediction"), std::string::npos);
  EXPECT_EQ(page.find("by construction"), std::string::npos);
}

TEST_F(HtmlReport, CsvFilesBecomeTablesQuotedFieldsIncluded) {
  const std::string header =
      "id,kind,target,start_s,duration_s,reached,steps,messages_failed,retries,retry_wait_s,"
      "ended_run,delay_s,panel_exchange\n";
  write("faults.csv",
        header +
            "0,flap,\"a, b\",1,1,true,,0,0,0,false,,\n1,failure,\"say \"\"hi\"\"\",2,0,true,,0,0,0,true,,\n");
  const std::string page = report();
  EXPECT_NE(page.find("<section id=\"faults\">"), std::string::npos);
  EXPECT_NE(page.find("<td>a, b</td>"), std::string::npos);
  EXPECT_NE(page.find("<td>say &quot;hi&quot;</td>"), std::string::npos);
}

TEST_F(HtmlReport, LongTablesAreCutAndSaySo) {
  std::string csv = "trial,completed,time_s\n";
  for (int i = 0; i < 250; ++i)
    csv += std::to_string(i) + ",true,1\n";
  write("trials.csv", csv);
  write("outcome.json", R"({"trials": 250, "completed": 250, "p_complete": 1})");
  const std::string page = report();
  EXPECT_NE(page.find("<td class=\"num\">199</td>"), std::string::npos);
  EXPECT_EQ(page.find("<td class=\"num\">200</td>"), std::string::npos);
  EXPECT_NE(page.find("The first 200 of 250 rows; all are in trials.csv."), std::string::npos);
}

TEST_F(HtmlReport, ASweepIsRankedBestFirst) {
  write("sweep.csv", "NB,benchmark,rmax_flops_per_s,rmax_sampling_error_fraction,rank,below_best_fraction,"
                     "beyond_sampling_error\n"
                     "256,hpl,1.30e18,0.004,2,0.0714,true\n"
                     "384,hpl,1.40e18,0.004,1,0,false\n"
                     "512,hpl,1.39e18,0.004,3,0.0071,false\n");
  const std::string page = report();
  const auto best = page.find("<td>384</td>"), second = page.find("<td>256</td>"),
             third = page.find("<td>512</td>");
  ASSERT_NE(best, std::string::npos);
  EXPECT_LT(best, second);
  EXPECT_LT(second, third);
  EXPECT_NE(page.find("beyond twice the sampling error"), std::string::npos);
  EXPECT_NE(page.find("within twice the sampling error: noise"), std::string::npos);
  EXPECT_NE(page.find("<th class=\"num\">Rmax EF/s</th>"), std::string::npos);
}

TEST_F(HtmlReport, BadFilesAreErrorsNamingThem) {
  EXPECT_NE(error().find("no hplsim output here"), std::string::npos);
  write("summary.json", "{not json");
  EXPECT_NE(error().find("summary.json: not JSON hplsim wrote"), std::string::npos);
  fs::remove(dir_ / "summary.json");
  write("trials.csv", "x\n");
  write("outcome.json", "{}");
  write("faults.csv", "a,b\n\"open,1\n");
  EXPECT_NE(error().find("faults.csv: a quoted field is not closed"), std::string::npos);
  fs::remove(dir_ / "faults.csv");
  write("sweep.csv", "a,b\n1,2\n");
  EXPECT_NE(error().find("sweep.csv: not the columns hplsim sweep writes"), std::string::npos);
  const std::string header = "NB,benchmark,rmax_flops_per_s,rank,below_best_fraction,beyond_sampling_error\n";
  write("sweep.csv", header + "256,hpl,1e18,first,0,false\n");
  EXPECT_NE(error().find("sweep.csv: row 2: rank \"first\" is not a whole number"), std::string::npos)
      << error();
  write("sweep.csv", header + "256,hpl,1e18\n");
  EXPECT_NE(error().find("sweep.csv: row 2 has 3 fields, the header 6"), std::string::npos) << error();
  fs::remove(dir_ / "sweep.csv");
  write("trials.csv", "trial,completed,time_s\n0,true,fast\n");
  EXPECT_NE(error().find("trials.csv: row 2: time_s \"fast\" is not a number"), std::string::npos) << error();
  fs::remove(dir_ / "trials.csv");
  write("plan.csv", "nodes,p_complete\n12,0.5\n");
  EXPECT_NE(error().find("plan.csv: not the columns hplsim plan writes (no best_rmax_in_window)"),
            std::string::npos)
      << error();
}

TEST_F(HtmlReport, ANoiseBenchDirectoryIsReportedUnderItsOwnTitle) {
  write("about.json", R"({"kind": "noise-bench", "scenario": "small", "description": "48 nodes"})");
  // 4 iterations of 1, 1, 1 and 2 ms: median 1000 us (nearest rank), 1 of 4 above 1.1 x it.
  write("iterations.csv", "busy_cores,iteration,time_s\n48,0,0.001\n48,1,0.001\n48,2,0.002\n48,3,0.001\n");
  const std::string page = report();
  EXPECT_NE(page.find("<h1>Noise benchmark on small</h1>"), std::string::npos) << page;
  EXPECT_NE(page.find("<td class=\"num\">1000</td>"), std::string::npos) << page;
  EXPECT_NE(page.find("1 (25.0%)"), std::string::npos) << page;
}

TEST_F(HtmlReport, TheTitleIsTheScenariosDescription) {
  write("about.json", R"({"kind": "run", "scenario": "small", "description": "48 nodes & a dragonfly"})");
  write("summary.json", R"({"mode": "fast", "seed": 3, "completed": true})");
  const std::string page = report();
  EXPECT_NE(page.find("<title>48 nodes &amp; a dragonfly</title>"), std::string::npos);
  EXPECT_NE(page.find("<h1>48 nodes &amp; a dragonfly</h1>"), std::string::npos);
  EXPECT_NE(page.find("One run \u00b7 scenario small \u00b7 fast mode \u00b7 seed 3"), std::string::npos);
}

TEST_F(HtmlReport, AnAbortedRunShowsTheFailureNotARateOrACrossover) {
  write("summary.json", R"({"mode": "analytic", "time_s": 0.1, "rmax_flops_per_s": 0.0, "crossover_step": 4,
    "crossover_fraction": 0.3, "completed": false, "failure": "node 3 failed",
    "faults": {"events": 1, "reached": 1, "ended_by": 0, "lost_work_s": 0.1}})");
  write("faults.csv",
        "id,kind,target,start_s,duration_s,reached,steps,messages_failed,retries,retry_wait_s,"
        "ended_run,delay_s,panel_exchange\n0,node_failure,\"node 3\",0.1,0,true,2-2,0,0,0,true,,\n");
  const std::string page = report();
  EXPECT_NE(page.find(">did not complete<"), std::string::npos);
  EXPECT_NE(page.find(">node 3 failed<"), std::string::npos);
  EXPECT_NE(page.find(">node_failure of node 3 (F0)<"), std::string::npos);
  EXPECT_NE(page.find(">ended at<"), std::string::npos);
  EXPECT_EQ(page.find("F/s<"), std::string::npos); // no rate card
  EXPECT_EQ(page.find(">crossover<"), std::string::npos);
  EXPECT_EQ(page.find(">Rmax<"), std::string::npos);
}

TEST_F(HtmlReport, TrialsShowPCompleteWithItsIntervalAndTheirDistribution) {
  write("outcome.json", R"({"scenario": "s", "mode": "analytic", "seed": 1, "trials": 4, "fault_free": null,
    "completed": 3, "p_complete": 0.75, "p_complete_95": [0.30063, 0.954412],
    "time_s": {"count": 3, "mean": 167.123456789, "p5": 160, "p50": 167, "p95": 175},
    "rmax_flops_per_s": {"count": 3, "mean": 1.5e15, "p5": 1.4e15, "p50": 1.5e15, "p95": 1.6e15},
    "lost_work_s": null, "restart_setup_s": 60, "expected_time_to_result_s": 250.5, "closed_form": null})");
  write("trials.csv",
        "trial,stream,completed,time_s,rmax_flops_per_s,ended_by,ending_event,reached,flaps_reached,"
        "node_failures_reached,messages_failed,retries,retry_wait_s,flap_delay_s,lost_work_s\n"
        "0,1:0,true,50.123456789,1.6e15,,,0,0,0,0,0,0,0,0\n"
        "1,1:1,false,80,0,node_failure,2,1,0,1,0,0,0,0,80\n"
        "2,1:2,true,167,1.5e15,,,0,0,0,0,0,0,0,0\n"
        "3,1:3,true,175,1.4e15,,,0,0,0,0,0,0,0,0\n");
  const std::string page = report();
  EXPECT_NE(page.find(">0.750<"), std::string::npos) << page;
  EXPECT_NE(page.find(">95% interval [0.301, 0.954]<"), std::string::npos);
  EXPECT_NE(page.find(">3 of 4<"), std::string::npos);
  EXPECT_NE(page.find("class=\"ecdf\""), std::string::npos); // the distribution figure
  EXPECT_NE(page.find(">one run, completed trials (3)<"), std::string::npos);
  EXPECT_NE(page.find(">restarts included<"), std::string::npos);
  // Trial 0's 50.12 s with 4 digits in the column's unit, the unit of its largest value (175 s).
  EXPECT_NE(page.find(">0.8354<"), std::string::npos);
  EXPECT_NE(page.find(">run time, min<"), std::string::npos);
  EXPECT_EQ(page.find("50.123"), std::string::npos);
  EXPECT_NE(page.find(">node_failure (event 2)<"), std::string::npos);
}

TEST_F(HtmlReport, AnAnalyticSweepSaysNothingOfSamplingErrors) {
  write("sweep.csv", "NB,benchmark,rmax_flops_per_s,rmax_sampling_error_fraction,rank,below_best_fraction,"
                     "beyond_sampling_error\n"
                     "256,hpl,1.30e18,,2,0.0714285714,true\n"
                     "384,hpl,1.40e18,,1,0,false\n");
  const std::string page = report();
  EXPECT_EQ(page.find("sampling error"), std::string::npos);
  EXPECT_NE(page.find(">-7.1%<"), std::string::npos);
  EXPECT_NE(page.find(">1.400 EF/s<"), std::string::npos); // the best's card
}

TEST_F(HtmlReport, APlanShowsTheBestNodeCountsAndIntervals) {
  write("plan.csv",
        "nodes,ranks,p,q,n,nb,simulated,fault_free_time_s,fault_free_rmax_flops_per_s,"
        "rmax_sampling_error_fraction,trials,completed,p_complete,p_complete_low,p_complete_high,"
        "time_mean_s,rmax_mean_flops_per_s,restart_setup_s,expected_time_to_result_s,"
        "expected_time_to_result_low_s,expected_time_to_result_high_s,p_result_in_window,"
        "p_result_in_window_low,p_result_in_window_high,rmax_in_window_flops_per_s,rmax_in_window_low,"
        "rmax_in_window_high,best_rmax_in_window,best_time_to_result,failure\n"
        "12,144,12,12,614400,256,true,120.5,1.2e15,,50,40,0.8,0.667,0.888,120.5,1.2e15,60,150.25,"
        "140,170,0.9,0.8,0.95,1.08e15,0.96e15,1.14e15,false,true,\"\"\n"
        "24,288,12,24,860160,256,true,90.5,2.1e15,,50,30,0.6,0.461,0.724,90.5,2.1e15,60,160.75,"
        "150,inf,0.8,0.7,0.9,1.68e15,1.47e15,1.89e15,true,false,\"\"\n");
  const std::string page = report();
  EXPECT_NE(page.find(">24 nodes<"), std::string::npos);
  EXPECT_NE(page.find(">12 nodes<"), std::string::npos);
  EXPECT_NE(page.find(">0.800 [0.667, 0.888]<"), std::string::npos);
  // 160.75 s, from 150 s to no bound, in the column's minutes.
  EXPECT_NE(page.find(">2.68 [2.50, inf]<"), std::string::npos);
  EXPECT_NE(page.find(">time to a result, min [95%]<"), std::string::npos);
  EXPECT_NE(page.find(">Rmax in window, PF/s [95%]<"), std::string::npos);
  EXPECT_NE(page.find(">860,160<"), std::string::npos);
}

} // namespace
} // namespace hplsim::sim
