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

} // namespace hplsim::topo
