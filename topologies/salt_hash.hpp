#pragma once
// Deterministic choice among equivalent paths: splitmix64 (Steele, Lea, Flood,
// "Fast splittable pseudorandom number generators", OOPSLA 2014) over
// (salt, source switch, destination switch). Pure integer arithmetic, so the
// same inputs give the same path on every platform and run.
#include <cstdint>

namespace hplsim::topo {

/// A stream of well-mixed 64-bit values determined by (salt, src, dst).
class SaltHash {
public:
  SaltHash(std::uint64_t salt, int src, int dst) : state_(salt) {
    state_ = next() ^ (static_cast<std::uint64_t>(static_cast<std::uint32_t>(src)) << 32 |
                       static_cast<std::uint32_t>(dst));
  }
  std::uint64_t next() {
    // Constants of splitmix64 (the reference cited above).
    state_ += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform-enough pick in [0, n), n >= 1.
  int pick(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }

private:
  std::uint64_t state_;
};

} // namespace hplsim::topo
