#pragma once
// Portable random draws on top of std::mt19937_64 (whose output sequence the
// C++ standard fixes). std::normal_distribution and std::uniform_*_distribution
// are implementation-defined, so hplsim's draws are written here: same seed
// => same numbers with any standard library.
#include <cstdint>
#include <random>

namespace hplsim::models {

/// SplitMix64 finaliser (Steele, Lea, Flood, "Fast splittable pseudorandom
/// number generators", OOPSLA 2014): derives independent stream seeds.
std::uint64_t splitmix64(std::uint64_t x);

/// Uniform in (0, 1] from the top 53 bits of one draw.
double uniform_open0(std::mt19937_64& rng);

/// Standard normal variate by Box-Muller (Box & Muller, Ann. Math. Stat. 1958),
/// cosine branch; consumes two draws.
double standard_normal(std::mt19937_64& rng);

/// Lognormal factor with mean 1 and coefficient of variation `cv` (>= 0):
/// exp(sigma*Z - sigma^2/2), sigma^2 = ln(1 + cv^2). Returns 1 without
/// drawing when cv == 0.
double lognormal_mean1(std::mt19937_64& rng, double cv);

/// The replay's per-kernel time jitter: lognormal with mean 1 and coefficient
/// of variation `cv` by Box-Muller (cosine branch) on uniforms at the centres
/// of the 2^53 cells ((top 53 bits + 0.5) / 2^53: never 0 or 1); consumes two
/// draws; 1 without drawing when cv <= 0. (The centred uniforms differ from
/// uniform_open0's, so the jitter keeps the draws it has always had.)
double kernel_jitter_factor(std::mt19937_64& rng, double cv);

/// A lognormal factor with mean 1 and coefficient of variation `cv` that is a
/// function of `key` alone (counter-based: no generator state), by the same
/// Box-Muller transform as kernel_jitter_factor on two uniforms made from
/// splitmix64(key) and splitmix64(key + 1). 1 when cv <= 0.
double keyed_lognormal_mean1(std::uint64_t key, double cv);

/// Uniform integer in [0, n), n >= 1, unbiased (rejection of the top partial range).
std::uint64_t uniform_index(std::mt19937_64& rng, std::uint64_t n);

} // namespace hplsim::models
