#pragma once
// Spatial and temporal rate variability, drawn from a seeded generator.
//
// Model (models/README.md, "Variability"):
//   node factor  f_n = L(node_rate_cv) * (degraded ? degraded_rate_factor : 1)
//                (or the n-th factor of node_rates_file, exclusive with the two above)
//   GPU factor   g_{n,d} = f_n * L(gpu_rate_cv)
//   kernel time  t * J, J = L(kernel_jitter_cv) drawn per kernel call
//   GPU kernel   t * S_{n,k}, S = L(node_gpu_step_cv) per node n and panel step k,
//                shared by the node's GPUs (keyed draw; the replay applies it)
// L(cv) is lognormal with mean 1 and coefficient of variation cv
// (random_draws.hpp); factors multiply rates (1 = nominal, < 1 slower). The
// degraded nodes are exactly round(degraded_fraction * nodes) of them, the
// first ones of a seeded Fisher-Yates shuffle. Node, GPU and degraded draws
// use three streams derived from the seed (SplitMix64), so changing one cv
// leaves the other draws unchanged. Same params + seed => same factors.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "models/calibration.pb.h"

namespace hplsim::models {

class Variability {
public:
  /// `base_dir` resolves a relative node_rates_file. Throws std::invalid_argument
  /// (naming the field, or file:line for the rates file) on bad input.
  Variability(const VariabilityParams& params, int nodes, int gpus_per_node, std::uint64_t seed,
              const std::string& base_dir);
  /// Multiplicative rate factor (1 = nominal, < 1 slower) of a node's CPUs.
  double node_factor(int node) const;
  /// Rate factor of one GPU (includes its node's factor).
  double gpu_factor(int node, int gpu) const;
  /// Per-kernel multiplicative time noise: lognormal, mean 1, always > 0 (no
  /// floor needed). Returns 1 without drawing from `rng` when kernel_jitter_cv = 0.
  double kernel_jitter(std::mt19937_64& rng) const;
  bool has_jitter() const;
  int nodes() const { return static_cast<int>(node_factors_.size()); }
  int gpus_per_node() const { return gpus_per_node_; }
  /// Whether the node was drawn degraded (always false with node_rates_file).
  bool is_degraded(int node) const;
  const std::vector<double>& node_factors() const { return node_factors_; }

private:
  std::vector<bool> degraded_;
  VariabilityParams params_;
  std::vector<double> node_factors_;
  std::vector<double> gpu_factors_;
  int gpus_per_node_;
};

} // namespace hplsim::models
