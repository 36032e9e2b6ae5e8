#pragma once
// Runs fast-mode windows, each in a process forked from the simulator's
// present state (sim/support/child_process.hpp), up to `workers` at a time
// (docs/fast-mode.md, "windows in parallel"). Every window starts from the
// same state whatever ran before it, so the outcomes do not depend on how many
// run at once. Outcomes come back in job order.
#include <functional>
#include <vector>

#include "sim/fast/window.hpp"

namespace hplsim::sim {

/// Simulates one window (inside its process) from the engine's present state.
using WindowSimulator = std::function<WindowOutcome(const WindowJob&)>;

/// Runs `jobs` with `simulate`, filling each outcome's wall time and peak RSS.
std::vector<WindowOutcome> run_windows(const std::vector<WindowJob>& jobs, int workers,
                                       const WindowSimulator& simulate);

} // namespace hplsim::sim
