#pragma once
// Runs fast-mode windows, each in a process forked from the simulator's
// present state (sim/support/child_process.hpp), up to `workers` at a time
// (docs/fast-mode.md, "windows in parallel"). Every window starts from the
// same state whatever ran before it, so the outcomes do not depend on how many
// run at once, nor on when they run. Outcomes come back in job order.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/fast/window.hpp"
#include "sim/support/child_process.hpp"

namespace hplsim::sim {

/// Simulates one window (inside its process) from the engine's present state.
using WindowSimulator = std::function<WindowOutcome(const WindowJob&)>;

/// Window processes, at most `workers` at a time, over several batches
/// (ChildPool). One window may run in the background across batches (a long
/// window whose samples no batch waits for: HPL-MxP's refinement,
/// docs/fast-mode.md point 6); a background window not collected is killed.
class WindowPool {
public:
  WindowPool(int workers, WindowSimulator simulate);

  /// Starts `job` in the background. With one worker it runs to its end here
  /// (never more than `workers` processes). At most one at a time.
  void start_background(const WindowJob& job);
  /// Runs `jobs`, filling each outcome's wall time, peak RSS and shared
  /// memory at its end; the
  /// background window goes on meanwhile.
  std::vector<WindowOutcome> run(const std::vector<WindowJob>& jobs);
  /// Runs jobs as they become ready (ChildPool::run_as_ready): next() gives
  /// the next job to start now (none: none is ready), done(id, outcome) each
  /// outcome as its window ends, ids in next()'s order from 0.
  void run_as_ready(const std::function<std::optional<WindowJob>()>& next,
                    const std::function<void(std::size_t, WindowOutcome&&)>& done);
  /// Waits for the background window and returns its outcome.
  WindowOutcome finish_background();

private:
  // Simulates `job` and encodes its outcome with its wall time, peak RSS and
  // shared memory at its end (in the window's process).
  std::string measure(const WindowJob& job) const;

  ChildPool pool_;
  WindowSimulator simulate_;
};

} // namespace hplsim::sim
