#pragma once
// Kernel seconds per rank and phase, the oracle's unit of comparison between
// what xhpl's hooks charged and what hplsim's schedule holds.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "traces/schedule.pb.h"

namespace hplsim::sim {

struct KernelTotal {
  std::int64_t calls = 0;
  double seconds = 0.0;
};

using RankKernelTotals = std::array<KernelTotal, traces::Phase_ARRAYSIZE>;

/// Writes {"kernel_seconds": [{"rank": r, "PFACT": [calls, seconds], ...}, ...]}
/// (seconds to 9 significant digits). Throws OutputError when it cannot.
void write_kernel_totals(const std::vector<RankKernelTotals>& totals, const std::string& path);

} // namespace hplsim::sim
