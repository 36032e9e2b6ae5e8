#include "sim/rank_mean.hpp"

#include <cstddef>

namespace hplsim::sim {

namespace {

using Phases = std::array<double, kPhaseCount>;

bool factors(const RankPhases& r) {
  return r[static_cast<std::size_t>(PhaseId::Pfact)] > 0.0;
}

void add(Phases& sum, const Phases& x, double weight = 1.0) {
  for (std::size_t i = 0; i < sum.size(); ++i)
    sum[i] += weight * x[i];
}

} // namespace

std::array<double, kPhaseCount> estimate_rank_mean(const std::vector<RankPhases>& simulated, int ranks) {
  Phases mean{};
  if (simulated.empty() || ranks <= 0) return mean;
  const double all = ranks;
  if (simulated.size() == static_cast<std::size_t>(ranks)) {
    for (const RankPhases& r : simulated)
      add(mean, r, 1.0 / all);
    return mean;
  }
  // The factoring ranks as they are (a fold keeps their process column
  // whole); the others' mean over the simulated ones stands for the rest.
  Phases factoring{}, others{};
  int factoring_ranks = 0, other_ranks = 0;
  for (const RankPhases& r : simulated)
    if (factors(r)) {
      add(factoring, r);
      ++factoring_ranks;
    } else {
      add(others, r);
      ++other_ranks;
    }
  Phases other{};
  if (other_ranks > 0) add(other, others, 1.0 / other_ranks);
  add(mean, factoring, 1.0 / all);
  add(mean, other, (all - factoring_ranks) / all);
  return mean;
}

} // namespace hplsim::sim
