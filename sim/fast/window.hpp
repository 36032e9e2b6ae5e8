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
  std::array<double, kPhaseCount> phase_s{};
  std::array<double, kPhaseCount> mean_phase_s{};
  double flops = 0.0;
};
static_assert(std::is_trivially_copyable_v<Sample>, "samples travel as raw bytes");

struct WindowJob {
  std::int64_t first = 0, last = 0, keep_from = 0;
  std::int64_t keep_until = std::numeric_limits<std::int64_t>::max();
};

struct WindowOutcome {
  bool completed = false;
  std::uint64_t activities = 0;
  double wall_s = 0.0, peak_rss_bytes = 0.0; // of the window's process
  std::vector<std::pair<std::int64_t, Sample>> samples;
};

/// The outcome as bytes through a pipe.
std::string encode(const WindowOutcome& outcome);
/// The inverse of encode(); throws std::runtime_error when the bytes are cut short.
WindowOutcome decode(const std::string& bytes);

} // namespace hplsim::sim
