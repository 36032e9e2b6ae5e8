// Fast mode's window pool (sim/fast/window_pool.hpp): batches in job order,
// and a background window that no batch waits for and that never takes the
// pool past its workers.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "sim/fast/window_pool.hpp"

namespace hplsim::sim {
namespace {

namespace fs = std::filesystem;

// A file a batch window creates and the background window waits for, up to
// `patience`: the background's outcome says whether it saw it (activities 1)
// or gave up (0). Batch windows answer their job's first step times ten.
struct Rendezvous {
  fs::path flag = fs::temp_directory_path() / ("hplsim-pool-" + std::to_string(::getpid()));
  Rendezvous() { fs::remove(flag); }
  ~Rendezvous() { fs::remove(flag); }

  WindowSimulator simulator(std::chrono::milliseconds patience) const {
    return [this, patience](const WindowJob& job) {
      WindowOutcome o;
      o.completed = true;
      if (job.first < 0) { // the background window
        const auto until = std::chrono::steady_clock::now() + patience;
        while (!fs::exists(flag) && std::chrono::steady_clock::now() < until)
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
        o.activities = fs::exists(flag) ? 1 : 0;
        return o;
      }
      if (job.first == 3) std::ofstream(flag) << "batch window 3 ran\n";
      o.activities = static_cast<std::uint64_t>(job.first) * 10;
      return o;
    };
  }
};

std::vector<WindowJob> batch(int count) {
  std::vector<WindowJob> jobs;
  for (int i = 0; i < count; ++i)
    jobs.push_back(window_job(i, i, i));
  return jobs;
}

TEST(WindowPool, BatchesRunWhileTheBackgroundWindowWaitsAndComeBackInJobOrder) {
  Rendezvous r;
  // Ten seconds of patience: only a pool that ran the batch beside the
  // background window lets it see the flag (a pool that waited for it first
  // would hand back 0 after the ten seconds).
  WindowPool pool(2, r.simulator(std::chrono::seconds(10)));
  pool.start_background(window_job(-1, -1, -1));
  const std::vector<WindowOutcome> got = pool.run(batch(6));
  ASSERT_EQ(got.size(), 6U);
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(got[i].activities, i * 10) << "outcome " << i << " out of job order";
  EXPECT_EQ(pool.finish_background().activities, 1U);
  // The pool takes back the background's worker: a second batch runs too.
  EXPECT_EQ(pool.run(batch(3)).size(), 3U);
}

TEST(WindowPool, OneWorkerRunsTheBackgroundWindowFirstAndAlone) {
  Rendezvous r;
  // With one worker the background window ends before any batch window
  // starts, so it cannot see the flag: it gives up after 0.2 s.
  WindowPool pool(1, r.simulator(std::chrono::milliseconds(200)));
  pool.start_background(window_job(-1, -1, -1));
  const std::vector<WindowOutcome> got = pool.run(batch(4));
  EXPECT_EQ(got[3].activities, 30U);
  EXPECT_EQ(pool.finish_background().activities, 0U);
}

TEST(WindowPool, OneBackgroundWindowAtATime) {
  Rendezvous r;
  WindowPool pool(2, r.simulator(std::chrono::milliseconds(0)));
  pool.start_background(window_job(-1, -1, -1));
  EXPECT_THROW(pool.start_background(window_job(-1, -1, -1)), std::logic_error);
  EXPECT_EQ(pool.finish_background().activities, 0U);
  EXPECT_THROW(pool.finish_background(), std::logic_error);
}

TEST(WindowPool, AWindowsPrivatePeakHoldsWhatItAloneTouched) {
  // The window touches 16 MiB of its own (freed before it ends): its RSS peak
  // held them beside the pages it shares with this process, so its private
  // peak (RSS peak less the anonymous pages still shared at its end) is at
  // least 16 MiB and at most its RSS peak.
  constexpr std::size_t kOwn = 16u << 20;
  WindowPool pool(1, [](const WindowJob&) {
    std::vector<char> own(kOwn);
    for (std::size_t i = 0; i < own.size(); i += 4096)
      own[i] = static_cast<char>(i);
    WindowOutcome o;
    o.completed = own[4096] != 1;
    return o;
  });
  const std::vector<WindowOutcome> got = pool.run(batch(1));
  ASSERT_EQ(got.size(), 1U);
  if (!got[0].shared_measured) GTEST_SKIP() << "/proc/self/smaps_rollup not readable here";
  const WindowStat w = window_stat(batch(1)[0], got[0]);
  EXPECT_GT(w.shared_anonymous_end_bytes, 0.0); // this test binary's heap, shared until written
  EXPECT_LE(w.shared_anonymous_end_bytes, w.shared_end_bytes);
  EXPECT_GE(w.private_peak_bytes(), static_cast<double>(kOwn));
  EXPECT_LE(w.private_peak_bytes(), w.peak_rss_bytes);
}

} // namespace
} // namespace hplsim::sim
