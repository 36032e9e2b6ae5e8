// Fast mode's window processes (sim/support/child_process.hpp): what comes back
// through the pipe, and how a window's failure reaches the parent.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <poll.h>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "sim/support/child_process.hpp"

namespace hplsim::sim {
namespace {

std::string drain(ChildProcess& p) {
  while (!p.read_some()) {
  }
  return p.answer();
}

TEST(ChildProcess, AnswerLongerThanAPipeComesBackWhole) {
  // 1 MiB: sixteen times a Linux pipe's buffer, so the child blocks on its
  // write until the parent reads; the parent must not wait for it first.
  std::string big(1 << 20, 'x');
  for (std::size_t i = 0; i < big.size(); i += 4099)
    big[i] = static_cast<char>('a' + i % 26);
  ChildProcess p([&big]() { return big; });
  EXPECT_EQ(drain(p), big);
}

TEST(ChildProcess, WhatTheWindowThrewIsThrownInTheParent) {
  ChildProcess p(
      []() -> std::string { throw std::runtime_error("schedule: rank 7 waits for unknown tag 3"); });
  try {
    drain(p);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "schedule: rank 7 waits for unknown tag 3");
  }
}

TEST(ChildProcess, AProcessThatDiesIsReportedWithItsSignal) {
  ChildProcess p([]() -> std::string {
    std::raise(SIGKILL);
    return "never";
  });
  try {
    drain(p);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("killed by signal 9"), std::string::npos) << e.what();
  }
}

TEST(ChildProcess, SeveralAtOnceEachGiveTheirOwnAnswer) {
  std::vector<ChildProcess> running;
  for (int i = 0; i < 3; ++i)
    running.emplace_back([i]() { return "window " + std::to_string(i); });
  // Taken in reverse order: each pipe holds its own answer.
  for (int i = 2; i >= 0; --i)
    EXPECT_EQ(drain(running[static_cast<std::size_t>(i)]), "window " + std::to_string(i));
}

// A process is gone once /proc has no entry for it or it is a zombie (its
// new parent has not reaped it yet).
bool gone(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string pid_field, name, state;
  if (!(stat >> pid_field >> name >> state)) return true;
  return state == "Z" || state == "X";
}

TEST(ChildProcess, DiesWithTheSimulatorThatStartedIt) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const pid_t simulator = ::fork();
  ASSERT_GE(simulator, 0);
  if (simulator == 0) {
    // A simulator whose window would run 60 s, killed while it does.
    ChildProcess window([&]() -> std::string {
      const pid_t me = ::getpid();
      if (::write(fds[1], &me, sizeof me) != sizeof me) ::_exit(5);
      ::sleep(60);
      return "too late";
    });
    ::pause();
    ::_exit(0);
  }
  pid_t window = -1;
  ASSERT_EQ(::read(fds[0], &window, sizeof window), static_cast<ssize_t>(sizeof window));
  ::close(fds[0]);
  ::close(fds[1]);
  ::kill(simulator, SIGKILL);
  ::waitpid(simulator, nullptr, 0);
  // Within 10 s (it goes at once; the margin is for a loaded machine).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!gone(window) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(gone(window)) << "window process " << window << " outlived its simulator";
  if (!gone(window)) ::kill(window, SIGKILL);
}

TEST(ChildProcess, WorkersDefaultToTheCpusAtMostEight) {
  EXPECT_EQ(window_workers(3), 3);
  const int automatic = window_workers(0);
  EXPECT_GE(automatic, 1);
  EXPECT_LE(automatic, 8);
}

TEST(ChildProcess, PagesTheParentTouchesWhileAChildRunsAreCounted) {
  // The child waits for the parent to touch 8 MiB of fresh pages (a pipe
  // tells it when): each page is a fault between the first fork and the
  // child's reaping.
  constexpr std::size_t kTouched = 8u << 20;
  int go[2];
  ASSERT_EQ(::pipe(go), 0);
  ChildProcess p([&go]() {
    char c = 0;
    return ::read(go[0], &c, 1) == 1 ? std::string("went") : std::string("no word");
  });
  std::vector<char> fresh(kTouched);
  for (std::size_t i = 0; i < fresh.size(); i += 4096)
    fresh[i] = static_cast<char>(i >> 12);
  ASSERT_EQ(::write(go[1], "g", 1), 1);
  EXPECT_EQ(drain(p), "went");
  ::close(go[0]);
  ::close(go[1]);
  EXPECT_GE(fault_bytes_while_children_ran(), static_cast<double>(kTouched));
}

} // namespace
} // namespace hplsim::sim
