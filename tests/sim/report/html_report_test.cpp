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
  EXPECT_NE(page.find(">1.4000 EF/s<"), std::string::npos); // 1.4e18 in the unit it reads in
  EXPECT_NE(page.find(">1.500 h<"), std::string::npos);     // 5400 s
  EXPECT_NE(page.find(">0.35 %<"), std::string::npos);      // the sampling error
  EXPECT_NE(page.find("data-key=\"phase_totals_s.gemm\">1.5<"), std::string::npos);
  EXPECT_NE(page.find("data-key=\"dominant_phases\">[{&quot;phase&quot;:&quot;gemm&quot;}]<"),
            std::string::npos);
  EXPECT_NE(page.find("data-key=\"failure\">null<"), std::string::npos);
  // The SVG is inlined without its XML declaration.
  EXPECT_NE(page.find("<figure>\n<svg xmlns"), std::string::npos);
  EXPECT_EQ(page.find("<?xml"), std::string::npos);
  EXPECT_EQ(page, report()); // deterministic
}

TEST_F(HtmlReport, CsvFilesBecomeTablesQuotedFieldsIncluded) {
  write("faults.csv", "id,kind,note\n0,flap,\"a, b\"\n1,failure,\"say \"\"hi\"\"\"\n");
  const std::string page = report();
  EXPECT_NE(page.find("<section id=\"faults\">"), std::string::npos);
  EXPECT_NE(page.find("<td>a, b</td>"), std::string::npos);
  EXPECT_NE(page.find("<td>say &quot;hi&quot;</td>"), std::string::npos);
}

TEST_F(HtmlReport, LongTablesAreCutAndSaySo) {
  std::string csv = "a\n";
  for (int i = 0; i < 250; ++i)
    csv += std::to_string(i) + "\n";
  write("plan.csv", csv);
  const std::string page = report();
  EXPECT_NE(page.find("<td>199</td>"), std::string::npos);
  EXPECT_EQ(page.find("<td>200</td>"), std::string::npos);
  EXPECT_NE(page.find("The first 200 of 250 rows; all are in plan.csv."), std::string::npos);
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
  EXPECT_NE(page.find("within twice the sampling error: noise, not a ranking"), std::string::npos);
  EXPECT_NE(page.find("<th>Rmax EF/s</th>"), std::string::npos);
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
}

} // namespace
} // namespace hplsim::sim
