// Worker tokens shared across process trees (sim/support/job_tokens.hpp): the
// pools of several processes together never run more workers than tokens.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>

#include "sim/support/child_process.hpp"
#include "sim/support/job_tokens.hpp"

namespace hplsim::sim {
namespace {

TEST(JobTokens, HoldsAsManyTokensAsItWasGiven) {
  JobTokens tokens(2);
  EXPECT_TRUE(tokens.try_take());
  EXPECT_TRUE(tokens.try_take());
  EXPECT_FALSE(tokens.try_take());
  {
    const JobTokens::Held held(&tokens); // gives one back as it goes
  }
  EXPECT_TRUE(tokens.try_take());
  EXPECT_FALSE(tokens.try_take());
  EXPECT_THROW(JobTokens(0), std::invalid_argument);
}

TEST(JobTokens, SideBySideIsOneMoreThanTheTokens) {
  EXPECT_EQ(studies_side_by_side(3, 2), 3);
  EXPECT_EQ(studies_side_by_side(12, 2), 3);
  EXPECT_EQ(studies_side_by_side(1, 4), 1);
  EXPECT_EQ(studies_side_by_side(0, 2), 1);
}

// `studies` processes side by side, each running `per_study` workers through a
// pool of 2, each worker logging its start and end to one file. Returns the
// most workers the log shows running at once.
int most_at_once(JobTokens* tokens, int studies, int per_study) {
  char path[] = "/tmp/hplsim-job-tokens-XXXXXX";
  const int fd = ::mkstemp(path);
  EXPECT_GE(fd, 0);
  ::close(fd);
  const std::string log = path;
  const auto line = [&log](char what) {
    const int out = ::open(log.c_str(), O_WRONLY | O_APPEND);
    const char bytes[2] = {what, '\n'};
    EXPECT_EQ(::write(out, bytes, 2), 2); // one append, whole
    ::close(out);
  };
  run_in_children(
      static_cast<std::size_t>(studies), studies,
      [&](std::size_t) {
        std::optional<JobTokens::Share> share;
        if (tokens != nullptr) share.emplace(*tokens);
        run_in_children(
            static_cast<std::size_t>(per_study), 2,
            [&](std::size_t) {
              line('S');
              std::this_thread::sleep_for(std::chrono::milliseconds(60));
              line('E');
              return std::string("done");
            },
            [](std::size_t, const std::string&) {});
        return std::string("study");
      },
      [](std::size_t, const std::string&) {});
  std::ifstream in(log);
  int now = 0, most = 0, started = 0;
  for (std::string l; std::getline(in, l);) {
    now += l == "S" ? 1 : -1;
    started += l == "S" ? 1 : 0;
    most = std::max(most, now);
  }
  std::remove(path);
  EXPECT_EQ(started, studies * per_study);
  return most;
}

TEST(JobTokens, PoolsOfSeveralProcessesShareTheTokens) {
  // Three processes, each with a pool of 2 workers: 6 could run at once; the
  // 2 tokens hold them to 2, and every worker still runs.
  JobTokens tokens(2);
  EXPECT_LE(most_at_once(&tokens, 3, 4), 2);
}

TEST(JobTokens, WithoutTokensEachPoolAloneBoundsItsWorkers) {
  // The check above can fail: without tokens the same pools overlap (each
  // worker sleeps 60 ms; 12 of them in 3 processes of 2 cannot run 2 at a time
  // unless the processes wait for each other).
  EXPECT_GT(most_at_once(nullptr, 3, 4), 2);
}

TEST(JobTokens, ABackgroundProcessHoldsAToken) {
  JobTokens tokens(1);
  const JobTokens::Share share(tokens);
  ChildPool pool(2);
  pool.start_background([]() { return std::string("background"); });
  EXPECT_FALSE(tokens.try_take()); // the background process has it
  EXPECT_EQ(pool.finish_background(), "background");
  EXPECT_TRUE(tokens.try_take()); // given back once reaped
  tokens.give();
}

} // namespace
} // namespace hplsim::sim
