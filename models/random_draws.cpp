// Portable random draws; see random_draws.hpp.
#include "models/random_draws.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

namespace hplsim::models {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

double uniform_open0(std::mt19937_64& rng) {
  return (static_cast<double>(rng() >> 11) + 1.0) * 0x1.0p-53;
}

double standard_normal(std::mt19937_64& rng) {
  const double u1 = uniform_open0(rng);
  const double u2 = uniform_open0(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

double lognormal_mean1(std::mt19937_64& rng, double cv) {
  if (cv == 0.0) return 1.0;
  const double sigma2 = std::log1p(cv * cv);
  return std::exp(std::sqrt(sigma2) * standard_normal(rng) - 0.5 * sigma2);
}

namespace {

// Lognormal with mean 1 and coefficient of variation cv > 0 from two 64-bit
// words: Box-Muller (cosine branch) on uniforms at the centres of the 2^53
// cells of their top 53 bits ((top 53 bits + 0.5) / 2^53: never 0 or 1).
double lognormal_from_words(std::uint64_t a, std::uint64_t b, double cv) {
  const double s2 = std::log1p(cv * cv);
  const double u1 = (static_cast<double>(a >> 11) + 0.5) * 0x1.0p-53;
  const double u2 = (static_cast<double>(b >> 11) + 0.5) * 0x1.0p-53;
  const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  return std::exp(std::sqrt(s2) * z - 0.5 * s2);
}

} // namespace

double kernel_jitter_factor(std::mt19937_64& rng, double cv) {
  if (cv <= 0.0) return 1.0;
  const std::uint64_t a = rng(); // in this order: the draws the jitter has always had
  const std::uint64_t b = rng();
  return lognormal_from_words(a, b, cv);
}

double keyed_lognormal_mean1(std::uint64_t key, double cv) {
  if (cv <= 0.0) return 1.0;
  return lognormal_from_words(splitmix64(key), splitmix64(key + 1), cv);
}

std::uint64_t uniform_index(std::mt19937_64& rng, std::uint64_t n) {
  if (n == 0) throw std::invalid_argument("uniform_index: n must be >= 1");
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n; // draws >= limit would bias low values
  std::uint64_t x = rng();
  while (x >= limit)
    x = rng();
  return x % n;
}

} // namespace hplsim::models
