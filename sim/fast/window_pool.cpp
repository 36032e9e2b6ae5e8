#include "sim/fast/window_pool.hpp"

#include <chrono>
#include <optional>
#include <utility>

#include "sim/engine/engine_setup.hpp"
#include "sim/support/branch_process.hpp"
#include "sim/support/process_memory.hpp"

namespace hplsim::sim {

WindowPool::WindowPool(int workers, WindowSimulator simulate)
    : pool_(workers), simulate_(std::move(simulate)) {}

std::string WindowPool::measure(const WindowJob& job) const {
  const auto t0 = std::chrono::steady_clock::now();
  WindowOutcome o;
  // SimGrid kills every actor, this process's controller among them, when
  // the window's ranks wait on each other (a deadlock): the window did not
  // complete. This runs in the window's own process, which ends once it has
  // answered (ChildProcess) and never resumes the engine.
  if (!run_unless_killed([&]() { o = simulate_(job); })) o = WindowOutcome{};
  // A baseline branched off its fault window (branch_process.hpp) counts the
  // steps it shares with it, not the time it waited for it.
  o.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - branch_paused_s();
  o.peak_rss_bytes = peak_rss_bytes(RUSAGE_SELF);
  if (const std::optional<MemoryRollup> m = memory_rollup()) {
    o.shared_measured = true;
    o.shared_end_bytes = m->shared_bytes;
    o.shared_anonymous_end_bytes = m->shared_anonymous_bytes();
  }
  return encode(o);
}

void WindowPool::start_background(const WindowJob& job) {
  pool_.start_background([this, &job]() { return measure(job); });
}

std::vector<WindowOutcome> WindowPool::run(const std::vector<WindowJob>& jobs) {
  std::vector<WindowOutcome> outcomes(jobs.size());
  pool_.run(
      jobs.size(), [this, &jobs](std::size_t i) { return measure(jobs[i]); },
      [&outcomes](std::size_t i, const std::string& answer) { outcomes[i] = decode(answer); });
  return outcomes;
}

void WindowPool::run_as_ready(const std::function<std::optional<WindowJob>()>& next,
                              const std::function<void(std::size_t, WindowOutcome&&)>& done) {
  pool_.run_as_ready(
      [this, &next]() -> std::function<std::string()> {
        std::optional<WindowJob> job = next();
        if (!job) return {};
        return [this, job = std::move(*job)]() { return measure(job); };
      },
      [&done](std::size_t i, const std::string& answer) { done(i, decode(answer)); });
}

WindowOutcome WindowPool::finish_background() {
  return decode(pool_.finish_background());
}

} // namespace hplsim::sim
