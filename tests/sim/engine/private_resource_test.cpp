// A rank's private resource against the closed forms of equal sharing on one
// resource (what SimGrid's max-min solver gives for one constraint). That the
// replay gets SimGrid's own times from it is checked through the command line
// (tests/sim/cli/private_resources_test.cpp).
#include <gtest/gtest.h>

#include <stdexcept>

#include "sim/engine/private_resource.hpp"

namespace hplsim::sim {
namespace {

// Every expected time below is a closed form; 1e-12 s covers the rounding of a
// few additions and divisions at these magnitudes.
constexpr double kTol = 1e-12;

TEST(PrivateResource, ALoneJobTakesItsLatencyThenItsAmountAtFullRate) {
  PrivateResource r(100.0);
  const auto job = r.start(1.0, 50.0, 0.25);
  EXPECT_NEAR(r.finish_s(job), 1.0 + 0.25 + 0.5, kTol);
}

TEST(PrivateResource, TwoJobsStartedTogetherShareTheRateEqually) {
  PrivateResource r(10.0);
  const auto a = r.start(0.0, 10.0, 0.0);
  const auto b = r.start(0.0, 30.0, 0.0);
  // Both at 5/s until a is done at 2 s (b has 20 left), then b alone at 10/s.
  EXPECT_NEAR(r.finish_s(a), 2.0, kTol);
  EXPECT_NEAR(r.finish_s(b), 4.0, kTol);
}

TEST(PrivateResource, AJobStartedLaterSlowsTheOneInProgress) {
  PrivateResource r(10.0);
  const auto a = r.start(0.0, 20.0, 0.0);
  const auto b = r.start(1.0, 5.0, 0.0); // a has 10 left at 1 s
  // From 1 s both at 5/s: b done at 2 s, a has 5 left, alone: done at 2.5 s.
  EXPECT_NEAR(r.finish_s(b), 2.0, kTol);
  EXPECT_NEAR(r.finish_s(a), 2.5, kTol);
}

TEST(PrivateResource, AJobInItsLatencyDoesNotShare) {
  PrivateResource r(10.0);
  const auto a = r.start(0.0, 10.0, 0.0);
  const auto b = r.start(0.0, 10.0, 0.5);
  // a alone until 0.5 s (5 done), then both at 5/s: a done at 1.5 s; b has 5
  // left at 1.5 s, alone: done at 2 s.
  EXPECT_NEAR(r.finish_s(b), 2.0, kTol);
  EXPECT_NEAR(r.finish_s(a), 1.5, kTol); // asked for after b: remembered
}

TEST(PrivateResource, ABoundedJobLeavesTheRestToTheOthers) {
  PrivateResource r(12.0);
  const auto slow = r.start(0.0, 3.0, 0.0, 3.0); // at most 3/s
  const auto fast = r.start(0.0, 9.0, 0.0);
  // Fair share 6/s is above the bound: slow at 3/s, fast at 9/s; both done at 1 s.
  EXPECT_NEAR(r.finish_s(fast), 1.0, kTol);
  EXPECT_NEAR(r.finish_s(slow), 1.0, kTol);
}

TEST(PrivateResource, ABoundAboveTheFairShareDoesNotBind) {
  PrivateResource r(10.0);
  const auto a = r.start(0.0, 10.0, 0.0, 8.0);
  const auto b = r.start(0.0, 10.0, 0.0);
  EXPECT_NEAR(r.finish_s(a), 2.0, kTol);
  EXPECT_NEAR(r.finish_s(b), 2.0, kTol);
}

TEST(PrivateResource, AnEmptyJobEndsAfterItsLatency) {
  PrivateResource r(10.0);
  EXPECT_NEAR(r.finish_s(r.start(3.0, 0.0, 0.0)), 3.0, kTol);
  EXPECT_NEAR(r.finish_s(r.start(3.0, 0.0, 0.125)), 3.125, kTol);
}

TEST(PrivateResource, RefusesAJobStartingInItsPastAndAJobAskedForTwice) {
  PrivateResource r(10.0);
  const auto a = r.start(0.0, 10.0, 0.0);
  EXPECT_NEAR(r.finish_s(a), 1.0, kTol);
  EXPECT_THROW(r.start(0.5, 1.0, 0.0), std::logic_error);
  EXPECT_THROW(r.finish_s(a), std::logic_error);
  EXPECT_THROW(PrivateResource(0.0), std::invalid_argument);
}

} // namespace
} // namespace hplsim::sim
