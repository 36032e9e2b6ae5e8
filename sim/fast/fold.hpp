#pragma once
// Rank folding (docs/fast-mode.md, "folding"): which ranks a folded window
// simulates. The others are phantom peers: their messages and waits are
// stood for, not simulated.
#include <cstdint>
#include <vector>

#include "sim/engine/platform_spec.hpp"
#include "sim/scenario/scenario_defaults.hpp"

namespace hplsim::sim {

class FoldSet {
public:
  /// `slowest_node`: the run's slowest node (always kept), or -1.
  FoldSet(const WorkloadConfig& workload, const FastConfig& config, std::int64_t steps, int slowest_node)
      : w_(workload), config_(config), steps_(steps), slowest_node_(slowest_node) {}

  /// The ranks a window of steps [first, last] simulates: all when !fold.
  /// `fault_nodes`: run nodes a fault touches, kept with every rank of their
  /// ranks' process rows and columns (the ranks that wait on them first).
  std::vector<bool> active(std::int64_t first, std::int64_t last, bool fold,
                           const std::vector<int>& fault_nodes = {}) const;

private:
  const WorkloadConfig& w_;
  const FastConfig& config_;
  std::int64_t steps_;
  int slowest_node_;
};

/// The run node with the lowest rate factor over its CPUs and GPUs; -1 when
/// every factor is 1 (no variability).
int slowest_node(const PlatformSpec& spec, int nodes);

} // namespace hplsim::sim
