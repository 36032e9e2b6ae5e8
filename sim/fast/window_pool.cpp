#include "sim/fast/window_pool.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <poll.h>
#include <stdexcept>
#include <string>
#include <utility>

namespace hplsim::sim {

struct WindowPool::Running {
  std::size_t index;
  ChildProcess process;
};

WindowPool::WindowPool(int workers, WindowSimulator simulate)
    : workers_(std::max(1, workers)), simulate_(std::move(simulate)) {}

WindowPool::~WindowPool() = default;

std::unique_ptr<WindowPool::Running> WindowPool::launch(const WindowJob& job, std::size_t index) {
  return std::make_unique<Running>(
      Running{index, ChildProcess([this, &job]() {
                const auto t0 = std::chrono::steady_clock::now();
                WindowOutcome o = simulate_(job);
                o.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                o.peak_rss_bytes = peak_rss_bytes(RUSAGE_SELF);
                return encode(o);
              })});
}

void WindowPool::start_background(const WindowJob& job) {
  if (background_ || background_outcome_)
    throw std::logic_error("WindowPool: one background window at a time");
  background_ = launch(job, 0);
  if (workers_ == 1) finish_background_now();
}

void WindowPool::poll_once(std::vector<std::unique_ptr<Running>>& running,
                           const std::function<void(std::size_t, WindowOutcome)>& done) {
  std::vector<pollfd> fds;
  for (const auto& r : running)
    fds.push_back({r->process.fd(), POLLIN, 0});
  if (background_) fds.push_back({background_->process.fd(), POLLIN, 0});
  if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR)
    throw std::runtime_error(std::string("window processes: poll: ") + std::strerror(errno));
  if (background_ && fds.back().revents != 0 && background_->process.read_some()) {
    background_outcome_ = decode(background_->process.answer());
    background_.reset();
  }
  for (std::size_t k = running.size(); k-- > 0;) {
    if (fds[k].revents == 0 || !running[k]->process.read_some()) continue;
    const std::size_t i = running[k]->index;
    WindowOutcome o = decode(running[k]->process.answer());
    running.erase(running.begin() + static_cast<std::ptrdiff_t>(k));
    done(i, std::move(o));
  }
}

std::vector<WindowOutcome> WindowPool::run(const std::vector<WindowJob>& jobs) {
  std::vector<WindowOutcome> outcomes(jobs.size());
  std::vector<std::unique_ptr<Running>> running;
  std::size_t next = 0;
  while (next < jobs.size() || !running.empty()) {
    while (next < jobs.size() && static_cast<int>(running.size()) + (background_ ? 1 : 0) < workers_) {
      running.push_back(launch(jobs[next], next));
      ++next;
    }
    poll_once(running, [&outcomes](std::size_t i, WindowOutcome o) { outcomes[i] = std::move(o); });
  }
  return outcomes;
}

void WindowPool::finish_background_now() {
  std::vector<std::unique_ptr<Running>> none;
  while (background_)
    poll_once(none, [](std::size_t, WindowOutcome) {});
}

WindowOutcome WindowPool::finish_background() {
  finish_background_now();
  if (!background_outcome_) throw std::logic_error("WindowPool: no background window");
  WindowOutcome o = std::move(*background_outcome_);
  background_outcome_.reset();
  return o;
}

std::vector<WindowOutcome> run_windows(const std::vector<WindowJob>& jobs, int workers,
                                       const WindowSimulator& simulate) {
  return WindowPool(workers, simulate).run(jobs);
}

} // namespace hplsim::sim
