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
//   node-step key = item(item(splitmix64(replay_seed ^ "nstp"), node), step)  (a node's GPU factor in a step)
//   run_seed    = seed for run 0, splitmix64(seed ^ run * 0xd1b54a32d192ed03) for run > 0
//   item seed   = splitmix64(stream seed + index * 0x9e3779b97f4a7c15)  (one node, domain or link)
//
// The item seed is the index-th output of a SplitMix64 generator started at the
// stream's seed: item j's draws depend on neither the number of items nor the
// other items' draws (adding a node does not change the other nodes' failures;
// models/failure_model.hpp).
//
// The purpose ids and the window and jitter rules are the ones hplsim used
// before the streams were gathered here, so outputs did not change.
#include <cstdint>
#include <random>

#include "models/random_draws.hpp"

namespace hplsim::models {

/// What a stream is for. The value is its id, mixed with the run's seed.
enum class Stream : std::uint64_t {
  NodeRates = 0x6e6f6465ULL,      // "node": spatial CPU/node rate factors (models/variability.hpp)
  GpuRates = 0x677075ULL,         // "gpu": spatial GPU rate factors
  DegradedNodes = 0x64656772ULL,  // "degr": which nodes are degraded
  NodeFailures = 0x6e666169ULL,   // "nfai": per-node failure times (models/failure_model.hpp)
  DomainFailures = 0x64666169ULL, // "dfai": correlated failures of a chassis / cabinet / group
  LinkFlaps = 0x666c6170ULL,      // "flap": link flap starts and durations
};

class RandomStreams {
public:
  /// `run` 0 is the scenario's own run; others are independent replicas (trials).
  explicit RandomStreams(std::uint64_t seed, std::uint64_t run = 0)
      : run_seed_(run == 0 ? seed : splitmix64(seed ^ (run * 0xd1b54a32d192ed03ULL))) {}

  std::uint64_t run_seed() const { return run_seed_; }
  /// The seed of a purpose's stream.
  std::uint64_t seed(Stream purpose) const {
    return splitmix64(run_seed_ ^ static_cast<std::uint64_t>(purpose));
  }
  /// A generator over a purpose's stream.
  std::mt19937_64 generator(Stream purpose) const { return std::mt19937_64(seed(purpose)); }
  /// The seed of item `index` (a node, a domain, a link class) of a purpose's stream.
  std::uint64_t seed(Stream purpose, std::uint64_t index) const { return item_seed(seed(purpose), index); }
  /// The index-th output of a SplitMix64 generator started at `parent`: seeds
  /// one item's generator, and nests (a link of a link class).
  static std::uint64_t item_seed(std::uint64_t parent, std::uint64_t index) {
    return splitmix64(parent + index * 0x9e3779b97f4a7c15ULL);
  }
  /// The replay seed of the fast-mode window whose first simulated step is
  /// `first_step`: each window draws its own jitter, whatever ran before it.
  std::uint64_t window_seed(std::int64_t first_step) const {
    return run_seed_ + static_cast<std::uint64_t>(first_step) * 0x9e3779b97f4a7c15ULL;
  }
  /// The kernel-jitter stream of `rank` in a replay seeded `replay_seed`.
  static std::uint64_t jitter_seed(std::uint64_t replay_seed, int rank) {
    return splitmix64(replay_seed * 0x100000001b3ULL + static_cast<std::uint64_t>(rank));
  }
  /// The key of `node`'s GPU factor in panel step `step` of a replay seeded
  /// `replay_seed` (keyed_lognormal_mean1): a function of the three only, so
  /// every rank of the node finds the same factor whatever it drew before.
  static std::uint64_t node_step_key(std::uint64_t replay_seed, int node, std::int64_t step) {
    const std::uint64_t stream = splitmix64(replay_seed ^ 0x6e737470ULL); // "nstp"
    return item_seed(item_seed(stream, static_cast<std::uint64_t>(node)), static_cast<std::uint64_t>(step));
  }

private:
  std::uint64_t run_seed_;
};

} // namespace hplsim::models
