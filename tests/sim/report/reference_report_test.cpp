// A run held against its scenario's published figure (sim/report/reference_report.hpp):
// what stdout and summary.json say for a fit target, a prediction, a run that
// did not complete, a sourced-only run, and another run than the published one.
#include "sim/report/reference_report.hpp"

#include <sstream>

#include <gtest/gtest.h>

namespace hplsim::sim {
namespace {

RunResult with_reference(bool fit_target) {
  RunResult r;
  r.rmax_flops_per_s = 1.0134e18;
  r.calibration = "calibrated";
  r.calibration_files = {"cal/fitted.textproto"};
  r.reference = ReferenceFigure{"published-rmax", "a list", 1.012e18, fit_target, "", ""};
  return r;
}

std::string printed(const RunResult& r) {
  std::ostringstream out;
  print_reference(r, out);
  return out.str();
}

TEST(ReferenceReport, AnotherRunThanThePublishedOneIsNotCompared) {
  RunResult r = with_reference(true);
  r.reference->reference_run = "9,234 nodes";
  r.reference->this_run = "16 nodes";
  EXPECT_FALSE(reference_difference_fraction(r).has_value());
  const std::string text = printed(r);
  EXPECT_NE(
      text.find("Reference: 1.012 EF/s published; reference run: 9,234 nodes; this run differs (16 nodes): "
                "no comparison"),
      std::string::npos)
      << text;
  EXPECT_EQ(text.find('%'), std::string::npos) << text;
  nlohmann::ordered_json j;
  add_reference_json(r, j);
  EXPECT_EQ(j["reference"]["comparable"], false);
  EXPECT_TRUE(j["reference"]["difference_fraction"].is_null());
  EXPECT_EQ(j["reference"]["reference_run"], "9,234 nodes");
  EXPECT_EQ(j["reference"]["this_run"], "16 nodes");
}

TEST(ReferenceReport, AFitTargetAgreesByConstruction) {
  const RunResult r = with_reference(true);
  // 1.0134 / 1.012 - 1 = +0.138%, printed to one decimal.
  ASSERT_TRUE(reference_difference_fraction(r).has_value());
  EXPECT_NEAR(*reference_difference_fraction(r), 0.0013834, 1e-6);
  const std::string text = printed(r);
  EXPECT_NE(text.find("Calibration: fitted parameters from cal/fitted.textproto"), std::string::npos) << text;
  EXPECT_NE(text.find("Reference: 1.012 EF/s published; this run +0.1%, by construction"), std::string::npos)
      << text;
  EXPECT_NE(text.find("(a list)"), std::string::npos) << text;
  nlohmann::ordered_json j;
  add_reference_json(r, j);
  EXPECT_EQ(j["calibration"], "calibrated");
  EXPECT_EQ(j["calibration_files"][0], "cal/fitted.textproto");
  EXPECT_EQ(j["reference"]["id"], "published-rmax");
  EXPECT_EQ(j["reference"]["fit_target"], true);
  EXPECT_NEAR(j["reference"]["difference_fraction"].get<double>(), 0.0013834, 1e-6);
}

TEST(ReferenceReport, AnythingElseIsAPrediction) {
  const std::string text = printed(with_reference(false));
  EXPECT_NE(text.find("a prediction: no parameter in effect was fitted"), std::string::npos) << text;
  EXPECT_EQ(text.find("by construction"), std::string::npos) << text;
}

TEST(ReferenceReport, ARunThatDidNotCompleteHasNoDifference) {
  RunResult r = with_reference(false);
  r.completed = false;
  EXPECT_FALSE(reference_difference_fraction(r).has_value());
  EXPECT_NE(printed(r).find("did not complete, so it has no Rmax to compare"), std::string::npos);
  nlohmann::ordered_json j;
  add_reference_json(r, j);
  EXPECT_TRUE(j["reference"]["difference_fraction"].is_null());
}

TEST(ReferenceReport, SourcedOnlyNamesTheFileItLeftOutAndNoReferenceWritesNone) {
  RunResult r;
  r.calibration = "sourced only";
  r.calibration_files = {"cal/fitted.textproto"};
  EXPECT_NE(printed(r).find("sourced figures only (--sourced-only left out the fitted "
                            "cal/fitted.textproto)"),
            std::string::npos)
      << printed(r);
  nlohmann::ordered_json j;
  add_reference_json(r, j);
  EXPECT_EQ(j["calibration"], "sourced only");
  EXPECT_FALSE(j.contains("reference"));
  // A scenario without fitted files or a reference prints nothing at all.
  EXPECT_EQ(printed(RunResult{}), "");
}

} // namespace
} // namespace hplsim::sim
