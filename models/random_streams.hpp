#pragma once
// Every random draw of a simulation comes from a stream derived here, from
// (scenario seed, run, purpose, index), in the manner of ns-3's global seed +
// run number + per-object stream (ns-3 manual, "Random Variables"): two runs
// that differ only in a strategy or a mode ask for the same streams and see
// the same random events (common random numbers), and a new purpose cannot
// shift the draws of an existing one.
//
//   stream seed = splitmix64(run_seed ^ purpose id)              (variability)
//   window seed = run_seed + first_step * 0x9e3779b97f4a7c15    (a fast-mode window's replay)
//   jitter seed = splitmix64(replay_seed * 0x100000001b3 + rank) (a rank's kernel jitter)
//   run_seed    = seed for run 0, splitmix64(seed ^ run * 0xd1b54a32d192ed03) for run > 0
//
// The purpose ids and the window and jitter rules are the ones hplsim used
// before the streams were gathered here, so outputs did not change.
#include <cstdint>
#include <random>

#include "models/random_draws.hpp"

namespace hplsim::models {

/// What a stream is for. The value is its id, mixed with the run's seed.
enum class Stream : std::uint64_t {
  NodeRates = 0x6e6f6465ULL,     // "node": spatial CPU/node rate factors (models/variability.hpp)
  GpuRates = 0x677075ULL,        // "gpu": spatial GPU rate factors
  DegradedNodes = 0x64656772ULL, // "degr": which nodes are degraded
};

class RandomStreams {
public:
  /// `run` 0 is the scenario's own run; others are independent replicas (trials).
  explicit RandomStreams(std::uint64_t seed, std::uint64_t run = 0)
      : run_seed_(run == 0 ? seed : splitmix64(seed ^ (run * 0xd1b54a32d192ed03ULL))) {}

  std::uint64_t run_seed() const { return run_seed_; }
  /// The seed of a purpose's stream.
  std::uint64_t seed(Stream purpose) const { return splitmix64(run_seed_ ^ static_cast<std::uint64_t>(purpose)); }
  /// A generator over a purpose's stream.
  std::mt19937_64 generator(Stream purpose) const { return std::mt19937_64(seed(purpose)); }
  /// The replay seed of the fast-mode window whose first simulated step is
  /// `first_step`: each window draws its own jitter, whatever ran before it.
  std::uint64_t window_seed(std::int64_t first_step) const {
    return run_seed_ + static_cast<std::uint64_t>(first_step) * 0x9e3779b97f4a7c15ULL;
  }
  /// The kernel-jitter stream of `rank` in a replay seeded `replay_seed`.
  static std::uint64_t jitter_seed(std::uint64_t replay_seed, int rank) {
    return splitmix64(replay_seed * 0x100000001b3ULL + static_cast<std::uint64_t>(rank));
  }

private:
  std::uint64_t run_seed_;
};

} // namespace hplsim::models
