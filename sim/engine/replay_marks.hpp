#pragma once
// The Mark ops of a replay (traces::Mark): for each id, the latest time a rank
// passed it. Fast mode times HPL-MxP's refinement iterations between two marks
// (docs/fast-mode.md, "13. The refinement's iterations").
#include <cstdint>
#include <limits>
#include <vector>

namespace hplsim::sim {

class ReplayMarks {
public:
  /// A rank passed mark `id` at `now_s`.
  void pass(std::uint32_t id, double now_s) {
    if (times_.size() <= id) times_.resize(id + 1, std::numeric_limits<double>::quiet_NaN());
    if (!(times_[id] >= now_s)) times_[id] = now_s; // NaN: the first rank to pass it
  }
  /// By id: the latest time a rank passed it, NaN for an id none passed.
  const std::vector<double>& times() const { return times_; }

private:
  std::vector<double> times_;
};

} // namespace hplsim::sim
