// Bad fault inputs (sim/scenario/faults.proto): one test per rule, each
// error naming the file, line and field (sim/scenario/faults_validate.cpp).
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "sim/scenario/scenario_loader.hpp"

namespace hplsim::sim {
namespace {

// The shipped flap scenario without its faults, then `faults`; loaded as if it
// were scenarios/faults/x.textproto (its relative kernels_file resolves).
std::string error_of(const std::string& faults) {
  const std::string path =
      std::string(HPLSIM_SOURCE_DIR) + "/scenarios/faults/small-dragonfly-flap.textproto";
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  text = text.substr(0, text.find("faults {")) + faults;
  try {
    load_scenario_text(text, std::string(HPLSIM_SOURCE_DIR) + "/scenarios/faults/x.textproto");
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

void expect_error(const std::string& faults, const std::string& expected) {
  const std::string e = error_of(faults);
  EXPECT_NE(e.find(expected), std::string::npos) << "error: " << e;
  EXPECT_NE(e.find("x.textproto:"), std::string::npos) << "names the file and line: " << e;
}

TEST(FaultsValidation, AValidFaultBlockLoads) {
  EXPECT_EQ(error_of("faults { link_flaps { link { link_class: GLOBAL index: 3 } start_s: 1 duration_s: 2 } "
                     "node_failures { node: 47 time_s: 5 } degradations { node: 1 gpu: 5 rate_factor: 0.8 } "
                     "retry { waits_s: 0 waits_s: 1 } restart_setup_s: 30 }"),
            "");
}

TEST(FaultsValidation, UnknownLinkIndexNamesTheCountOfTheClass) {
  // 48 nodes x 8 NICs = 384 NIC cables (0..383).
  expect_error("faults { link_flaps { link { link_class: NIC_PORT index: 384 } start_s: 0 duration_s: 1 } }",
               "faults.link_flaps[0].link.index = 384 but the machine has 384 NIC_PORT links (0..383)");
}

TEST(FaultsValidation, LinkWithoutClassIsRefused) {
  expect_error("faults { link_flaps { link { index: 1 } start_s: 0 duration_s: 1 } }",
               "faults.link_flaps[0].link.link_class is required");
}

TEST(FaultsValidation, NonPositiveFlapDurationIsRefused) {
  expect_error("faults { link_flaps { link { link_class: NIC_PORT index: 1 } start_s: 0 duration_s: 0 } }",
               "faults.link_flaps[0].duration_s must be > 0");
}

TEST(FaultsValidation, NegativeFlapStartIsRefused) {
  expect_error("faults { link_flaps { link { link_class: NIC_PORT index: 1 } start_s: -1 duration_s: 1 } }",
               "faults.link_flaps[0].start_s must be >= 0");
}

TEST(FaultsValidation, NegativeFlapRateIsRefused) {
  expect_error("faults { flap_process { classes { link_class: GLOBAL rate_per_link_per_hour: -0.1 "
               "duration { law: FIXED mean_s: 1 } } } }",
               "faults.flap_process.classes[0].rate_per_link_per_hour must be >= 0");
}

TEST(FaultsValidation, AClassGivenTwiceIsRefused) {
  expect_error("faults { flap_process { classes { link_class: GLOBAL rate_per_link_per_hour: 0.1 "
               "duration { law: FIXED mean_s: 1 } } classes { link_class: GLOBAL rate_per_link_per_hour: 0.2 "
               "duration { law: FIXED mean_s: 1 } } } }",
               "GLOBAL is given twice");
}

TEST(FaultsValidation, CvOutsideALognormalDurationIsRefused) {
  expect_error("faults { flap_process { classes { link_class: NIC_PORT rate_per_link_per_hour: 0.1 "
               "duration { law: EXPONENTIAL mean_s: 1 cv: 0.5 } } } }",
               "duration.cv is for LOGNORMAL durations only");
}

TEST(FaultsValidation, NodeFailureOutsideTheRunIsRefused) {
  expect_error("faults { node_failures { node: 48 time_s: 1 } }",
               "faults.node_failures[0].node = 48 but the run has 48 nodes (0..47)");
}

TEST(FaultsValidation, ExponentialFailuresNeedARateOrComponentsNotBoth) {
  expect_error("faults { failure_process { law: EXPONENTIAL } }", "give exactly one of them");
  expect_error("faults { failure_process { law: EXPONENTIAL rate_per_node_per_hour: 1e-4 "
               "components { name: \"gpu\" count_per_node: 6 rate_per_hour: 1e-5 } } }",
               "give exactly one of them");
}

TEST(FaultsValidation, WeibullNeedsAPositiveShape) {
  expect_error("faults { failure_process { law: WEIBULL weibull_shape: 0 weibull_scale_hours: 100 } }",
               "faults.failure_process.weibull_shape must be > 0");
}

TEST(FaultsValidation, ADomainLargerThanTheRunIsRefused) {
  expect_error("faults { failure_process { law: EXPONENTIAL rate_per_node_per_hour: 1e-5 "
               "domains { kind: CABINET nodes_per_domain: 64 rate_per_domain_per_hour: 1e-4 } } }",
               "nodes_per_domain = 64 exceeds the run's 48 nodes");
}

TEST(FaultsValidation, DegradationFactorMustBeAFraction) {
  expect_error("faults { degradations { node: 1 rate_factor: 1.5 } }",
               "faults.degradations[0].rate_factor must be in (0, 1]");
}

TEST(FaultsValidation, DegradationOfAGpuTheNodeDoesNotHaveIsRefused) {
  expect_error("faults { degradations { node: 1 gpu: 6 rate_factor: 0.5 } }",
               "faults.degradations[0].gpu = 6 must be -1 (the whole node) or a GPU 0..5 of the node");
}

TEST(FaultsValidation, PrescreenFractionMustBeBelowOne) {
  expect_error("faults { prescreen { drop_slowest_fraction: 1 } }",
               "faults.prescreen.drop_slowest_fraction must be in [0, 1)");
}

TEST(FaultsValidation, NegativeRetryWaitIsRefused) {
  expect_error("faults { retry { waits_s: 0 waits_s: -4 } }", "faults.retry.waits_s[1] must be >= 0, got -4");
}

TEST(FaultsValidation, NegativeRestartSetupIsRefused) {
  expect_error("faults { restart_setup_s: -1 }", "faults.restart_setup_s must be >= 0");
}

TEST(FaultsValidation, AMisspelledFaultFieldIsRefused) {
  expect_error("faults { node_failure { node: 1 time_s: 1 } }", "has no field named \"node_failure\"");
}

} // namespace
} // namespace hplsim::sim
