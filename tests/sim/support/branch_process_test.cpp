// A window process's paused copy (sim/support/branch_process.hpp): what it
// sees, where its answer goes, and what becomes of a copy never let go.
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "sim/support/branch_process.hpp"
#include "sim/support/child_process.hpp"
#include "sim/support/job_tokens.hpp"

namespace hplsim::sim {
namespace {

std::string drain(ChildProcess& p) {
  while (!p.read_some()) {
  }
  return p.answer();
}

// The copy goes on from the fork with the state as it was then, and its
// answer comes back to the original, which sends both to the window's parent.
TEST(Branch, TheCopyGoesOnFromTheForkAndAnswersTheOriginal) {
  ChildProcess p([]() {
    int step = 1;
    Branch b(nullptr);
    EXPECT_TRUE(b.forked());
    if (b.copy()) return "copy saw step " + std::to_string(step);
    step = 2;
    return "original at step " + std::to_string(step) + ", " + b.resume_and_wait();
  });
  EXPECT_EQ(drain(p), "original at step 2, copy saw step 1");
}

// A copy never let go ends with the original: the parent gets the original's
// answer alone, and reads it to its end (the copy does not hold its pipe).
TEST(Branch, ACopyNotLetGoEndsAndTheOriginalAnswersAlone) {
  ChildProcess p([]() -> std::string {
    Branch b(nullptr);
    if (b.copy()) return "copy";
    return "original";
  });
  EXPECT_EQ(drain(p), "original");
}

TEST(Branch, WhatTheCopyThrewIsThrownInTheOriginal) {
  ChildProcess p([]() -> std::string {
    Branch b(nullptr);
    if (b.copy()) throw std::runtime_error("the baseline's schedule is broken");
    try {
      return "no exception: " + b.resume_and_wait();
    } catch (const std::runtime_error& e) {
      return e.what();
    }
  });
  EXPECT_EQ(drain(p), "the baseline's schedule is broken");
}

// The copy counts the wall time it waited for the original (a window's
// measured time leaves it out): the original sleeps 0.2 s before it lets the
// copy go, which started waiting within a few ms of the fork (0.1 s of slack
// on a loaded machine).
TEST(Branch, TheCopyKnowsHowLongItWaited) {
  ChildProcess p([]() -> std::string {
    Branch b(nullptr);
    if (b.copy()) return std::to_string(branch_paused_s() >= 0.1 && b.paused_s() == branch_paused_s());
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    return b.resume_and_wait() + " " + std::to_string(branch_paused_s());
  });
  EXPECT_EQ(drain(p), "1 0.000000");
}

// With a worker token free the copy goes on at once, beside the original
// (it waited for nothing), holding the token until it has ended.
TEST(Branch, ACopyGoesOnAtOnceOnAFreeTokenAndGivesItBackWhenItEnds) {
  ChildProcess p([]() -> std::string {
    JobTokens tokens(1);
    Branch b(&tokens);
    if (b.copy()) return "copy waited " + std::to_string(branch_paused_s());
    const bool held = !tokens.try_take(), beside = b.beside();
    const std::string answer = b.resume_and_wait();
    const bool back = tokens.try_take();
    return answer + (beside ? ", beside" : ", paused") + (held ? ", token held" : ", token free") +
           (back ? ", given back" : ", not given back");
  });
  EXPECT_EQ(drain(p), "copy waited 0.000000, beside, token held, given back");
}

// A copy beside the original that it drops gives the token back too.
TEST(Branch, ADroppedCopyGivesItsTokenBack) {
  ChildProcess p([]() -> std::string {
    JobTokens tokens(1);
    {
      Branch b(&tokens);
      if (b.copy()) return "copy";
    }
    return tokens.try_take() ? "given back" : "not given back";
  });
  EXPECT_EQ(drain(p), "given back");
}

} // namespace
} // namespace hplsim::sim
