#include "sim/fast/window_pool.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <poll.h>
#include <stdexcept>
#include <string>
#include <utility>

#include "sim/support/child_process.hpp"

namespace hplsim::sim {

std::vector<WindowOutcome> run_windows(const std::vector<WindowJob>& jobs, int workers,
                                       const WindowSimulator& simulate) {
  std::vector<WindowOutcome> outcomes(jobs.size());
  std::vector<std::pair<std::size_t, ChildProcess>> running;
  std::vector<pollfd> fds;
  std::size_t next = 0;
  while (next < jobs.size() || !running.empty()) {
    while (next < jobs.size() && static_cast<int>(running.size()) < workers) {
      const WindowJob job = jobs[next];
      running.emplace_back(next++, ChildProcess([&simulate, job]() {
                             const auto t0 = std::chrono::steady_clock::now();
                             WindowOutcome o = simulate(job);
                             o.wall_s =
                                 std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                             o.peak_rss_bytes = peak_rss_bytes(RUSAGE_SELF);
                             return encode(o);
                           }));
    }
    // Whichever window is done first frees its worker.
    fds.clear();
    for (const auto& [job, process] : running)
      fds.push_back({process.fd(), POLLIN, 0});
    if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR)
      throw std::runtime_error(std::string("fast mode: poll: ") + std::strerror(errno));
    for (std::size_t i = fds.size(); i-- > 0;) {
      if (fds[i].revents == 0 || !running[i].second.read_some()) continue;
      outcomes[running[i].first] = decode(running[i].second.answer());
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  return outcomes;
}

} // namespace hplsim::sim
