#pragma once
// A fast-mode window (docs/fast-mode.md): steps [first, last] simulated in
// full detail from the idle machine, keeping the steps in [keep_from,
// keep_until) as samples. What a window process sends back is a
// WindowOutcome, as bytes (encode / decode: the same binary on both ends).
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/result/run_result.hpp"

namespace hplsim::sim {

/// One measured step of a window.
struct Sample {
  double step_s = 0.0; // d(k) = end(k) - end(k-1)
  double end_s = 0.0;  // end(k) in the window's time (its first step starts at 0)
  std::array<double, kPhaseCount> phase_s{};
  std::array<double, kPhaseCount> mean_phase_s{};
  double flops = 0.0;
  /// The final solve of HPL-MxP: refinement iterations simulated, the others
  /// extrapolated (0: all simulated; docs/fast-mode.md, point 13).
  int refinement_iterations_simulated = 0;
};
static_assert(std::is_trivially_copyable_v<Sample>, "samples travel as raw bytes");

struct WindowJob {
  std::int64_t first = 0, last = 0, keep_from = 0;
  std::int64_t keep_until = std::numeric_limits<std::int64_t>::max();
  /// Fault windows (sim/fast/fault_windows.hpp): the pivot exchanges as
  /// messages (a flap can fail them), the run nodes a fault touches kept
  /// active with their ranks' process rows and columns, and the flap (its id
  /// in the run's timeline; -1: none, the baseline) `flap_offset_s` after the
  /// start of step `flap_step`.
  bool message_pivots = false;
  std::vector<int> fault_nodes;
  int flap = -1;
  int timeline = 0; ///< which of the timelines being simulated holds the flap (trials)
  std::int64_t flap_step = 0;
  double flap_offset_s = 0.0;
};

/// A fault-free window of steps [first, last] keeping [keep_from, keep_until).
inline WindowJob window_job(std::int64_t first, std::int64_t last, std::int64_t keep_from,
                            std::int64_t keep_until = std::numeric_limits<std::int64_t>::max()) {
  WindowJob j;
  j.first = first;
  j.last = last;
  j.keep_from = keep_from;
  j.keep_until = keep_until;
  return j;
}

/// What a window's faults did (sim/engine/faults_runtime.hpp's FaultLog, for its one flap).
struct WindowFaults {
  int messages_failed = 0, retries = 0;
  double retry_wait_s = 0.0;
  double flap_start_s = -1.0; // window time the flap took its link down; -1: never
  bool aborted = false;       // the flap outlasted the retries
  double abort_s = 0.0;       // window time of the abort
  /// The flap's link came back up with no transfer failed and the window
  /// stopped there (FaultsRuntime::end_when_unfelt): no samples, no end.
  bool ended_unfelt = false;
};
static_assert(std::is_trivially_copyable_v<WindowFaults>, "travels as raw bytes");

struct WindowOutcome {
  bool completed = false;
  std::uint64_t activities = 0;
  double wall_s = 0.0, peak_rss_bytes = 0.0; // of the window's process
  /// At the window's end: the pages its process shares with others
  /// (smaps_rollup's Shared_*), and of them the anonymous ones at least, those
  /// shared with the main process or another window (MemoryRollup,
  /// sim/support/process_memory.hpp). Unmeasured (false) when /proc could not
  /// be read: both are then 0.
  bool shared_measured = false;
  double shared_end_bytes = 0.0, shared_anonymous_end_bytes = 0.0;
  /// When its last rank finished, its pending messages included, in the
  /// window's time (its first step starts at 0).
  double end_s = 0.0;
  std::vector<std::pair<std::int64_t, Sample>> samples;
  WindowFaults faults;
  /// A fault window's baseline, simulated by a copy of its process forked as
  /// the flap was due (sim/support/branch_process.hpp), encoded (encode());
  /// empty: none (its flap failed nothing, or the copy could not be made).
  std::string baseline;
};

/// What stats.json records of a window (sim/result/run_result.hpp).
WindowStat window_stat(const WindowJob& job, const WindowOutcome& outcome);

/// The outcome as bytes through a pipe.
std::string encode(const WindowOutcome& outcome);
/// The inverse of encode(); throws std::runtime_error when the bytes are cut short.
WindowOutcome decode(const std::string& bytes);

} // namespace hplsim::sim
