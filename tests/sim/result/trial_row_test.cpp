// A trial's row travels between processes as bytes (sim/result/trial_row.hpp):
// it comes back equal, events and all, and a cut or padded answer is an error.
#include <cmath>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "sim/result/trial_row.hpp"

namespace hplsim::sim {
namespace {

RunResult flapped_run() {
  RunResult r;
  r.completed = true;
  r.time_s = 120.5;
  r.rmax_flops_per_s = 3.25e15;
  RunResult::FaultOutcome reached;
  reached.id = 0;
  reached.kind = "link_flap";
  reached.target = "NIC_PORT 12 (link 4031)";
  reached.start_s = 30.0;
  reached.duration_s = 6.0;
  reached.first_step = 4;
  reached.last_step = 7;
  reached.messages_failed = 3;
  reached.retries = 9;
  reached.retry_wait_s = 36.0;
  reached.delay_s = 12.02;
  RunResult::FaultOutcome no_delay = reached;
  no_delay.id = 1;
  no_delay.target = "GLOBAL 3 (link 17)";
  no_delay.delay_s.reset();
  RunResult::FaultOutcome late = reached;
  late.id = 2;
  late.start_s = 500.0;
  late.reached = false;
  late.first_step = late.last_step = -1;
  late.messages_failed = late.retries = 0;
  late.retry_wait_s = 0.0;
  late.delay_s.reset();
  r.faults = {reached, no_delay, late};
  return r;
}

TEST(TrialRow, KeepsTheEventsTheRunReached) {
  const TrialRow t = trial_row(flapped_run(), 5);
  EXPECT_EQ(t.trial, 5);
  ASSERT_EQ(t.events.size(), 2u); // event 2 came after the run's end
  EXPECT_EQ(t.events[0].id, 0);
  EXPECT_EQ(t.events[1].id, 1);
  EXPECT_EQ(t.reached, 2);
  EXPECT_EQ(t.messages_failed, 6);         // 3 + 3
  EXPECT_DOUBLE_EQ(t.flap_delay_s, 12.02); // event 1's delay is not known
}

TEST(TrialRow, ComesBackFromItsBytesEqual) {
  const TrialRow t = trial_row(flapped_run(), 5);
  const TrialRow u = decode_trial_row(encode(t));
  EXPECT_EQ(encode(u), encode(t));
  EXPECT_EQ(u.trial, 5);
  EXPECT_DOUBLE_EQ(u.rmax_flops_per_s, 3.25e15);
  ASSERT_EQ(u.events.size(), 2u);
  EXPECT_EQ(u.events[0].target, "NIC_PORT 12 (link 4031)");
  EXPECT_EQ(u.events[1].target, "GLOBAL 3 (link 17)");
  EXPECT_EQ(u.events[0].steps(), "4-7");
  ASSERT_TRUE(u.events[0].delay_s.has_value());
  EXPECT_DOUBLE_EQ(*u.events[0].delay_s, 12.02);
  EXPECT_FALSE(u.events[1].delay_s.has_value());
  // A reference-mode row: its delay is not known (NaN) and travels as such.
  TrialRow unknown;
  EXPECT_TRUE(std::isnan(decode_trial_row(encode(unknown)).flap_delay_s));
}

TEST(TrialRow, ACutOrPaddedAnswerIsAnError) {
  const std::string bytes = encode(trial_row(flapped_run(), 5));
  EXPECT_THROW(decode_trial_row(bytes.substr(0, bytes.size() - 1)), std::runtime_error);
  EXPECT_THROW(decode_trial_row(bytes.substr(0, 20)), std::runtime_error);
  EXPECT_THROW(decode_trial_row(bytes + "x"), std::runtime_error);
}

} // namespace
} // namespace hplsim::sim
