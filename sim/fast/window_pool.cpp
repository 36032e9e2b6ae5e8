#include "sim/fast/window_pool.hpp"

#include <chrono>
#include <string>

#include "sim/support/child_process.hpp"

namespace hplsim::sim {

std::vector<WindowOutcome> run_windows(const std::vector<WindowJob>& jobs, int workers,
                                       const WindowSimulator& simulate) {
  std::vector<WindowOutcome> outcomes(jobs.size());
  run_in_children(
      jobs.size(), workers,
      [&](std::size_t i) {
        const auto t0 = std::chrono::steady_clock::now();
        WindowOutcome o = simulate(jobs[i]);
        o.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        o.peak_rss_bytes = peak_rss_bytes(RUSAGE_SELF);
        return encode(o);
      },
      [&](std::size_t i, const std::string& answer) { outcomes[i] = decode(answer); });
  return outcomes;
}

} // namespace hplsim::sim
