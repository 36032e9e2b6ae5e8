// Pre-screening of slow nodes; see prescreen.hpp.
#include "models/prescreen.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace hplsim::models {

double node_speed(const Variability& variability, int node) {
  double speed = variability.node_factor(node);
  for (int g = 0; g < variability.gpus_per_node(); ++g)
    speed = std::min(speed, variability.gpu_factor(node, g));
  return speed;
}

std::vector<int> prescreen(const Variability& variability, int nodes, double drop_fraction) {
  if (nodes < 0 || nodes > variability.nodes())
    throw std::invalid_argument("prescreen: nodes must be in [0, " + std::to_string(variability.nodes()) +
                                "], got " + std::to_string(nodes));
  if (!(drop_fraction >= 0.0 && drop_fraction <= 1.0))
    throw std::invalid_argument("prescreen: drop_fraction must be in [0, 1], got " +
                                std::to_string(drop_fraction));
  std::vector<int> ids(static_cast<std::size_t>(nodes));
  std::iota(ids.begin(), ids.end(), 0);
  std::vector<double> speed(ids.size());
  for (int id : ids)
    speed[static_cast<std::size_t>(id)] = node_speed(variability, id);
  std::sort(ids.begin(), ids.end(), [&](int a, int b) {
    const double sa = speed[static_cast<std::size_t>(a)], sb = speed[static_cast<std::size_t>(b)];
    return sa != sb ? sa < sb : a < b;
  });
  const auto drop = static_cast<std::size_t>(std::llround(drop_fraction * static_cast<double>(nodes)));
  std::vector<int> kept(ids.begin() + static_cast<long>(drop), ids.end());
  std::sort(kept.begin(), kept.end());
  return kept;
}

} // namespace hplsim::models
