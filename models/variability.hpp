#pragma once
// Spatial and temporal rate variability, drawn from a seeded generator.
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
  /// Per-kernel multiplicative time noise (>= some floor), mean 1.
  double kernel_jitter(std::mt19937_64& rng) const;
  bool has_jitter() const;

private:
  VariabilityParams params_;
  std::vector<double> node_factors_;
  std::vector<double> gpu_factors_;
  int gpus_per_node_;
};

} // namespace hplsim::models
