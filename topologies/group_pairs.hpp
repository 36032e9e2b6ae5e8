#pragma once
// Index arithmetic the dragonflies share (topologies/dragonfly.cpp,
// topologies/dragonfly_plus.cpp): the pairs of groups joined by global links,
// and the groups other than two given ones (Valiant intermediates).
#include <algorithm>
#include <cstdint>

namespace hplsim::topo {

/// The `rank`-th value of [0, n) once `x` and `y` (x != y, both in range) are skipped.
inline int skip_two(int rank, int x, int y) {
  const int lo = std::min(x, y);
  const int hi = std::max(x, y);
  int v = rank;
  if (v >= lo) ++v;
  if (v >= hi) ++v;
  return v;
}

/// Index of pair (i, j), i < j, among the pairs of [0, n) in lexicographic order.
inline std::int64_t pair_index(std::int64_t i, std::int64_t j, std::int64_t n) {
  return i * (2 * n - i - 1) / 2 + (j - i - 1);
}

/// Bisection of a dragonfly's group-level cut, both directions: floor(G/2)
/// groups against the rest, every pair across joined by `links_per_pair`
/// global links of `bandwidth_bytes_per_s` each way.
inline double group_cut_bandwidth_bytes_per_s(int groups, int links_per_pair, double bandwidth_bytes_per_s) {
  const double half = static_cast<double>(groups / 2);
  const double other = groups - half;
  return half * other * links_per_pair * bandwidth_bytes_per_s * 2.0;
}

} // namespace hplsim::topo
