#include "sim/engine/rank_mean.hpp"

#include <cstddef>

namespace hplsim::sim {

namespace {

bool factors(const RankPhases& r) {
  return r[static_cast<std::size_t>(PhaseId::Pfact)] > 0.0;
}

void add_to(RankPhases& sum, const RankPhases& x) {
  for (std::size_t i = 0; i < sum.size(); ++i)
    sum[i] += x[i];
}

} // namespace

void RankMean::add(const RankPhases& rank) {
  if (factors(rank)) {
    add_to(factoring_sum_, rank);
    ++factoring_ranks_;
  } else {
    add_to(other_sum_, rank);
    ++other_ranks_;
  }
}

RankPhases RankMean::mean(int ranks) const {
  RankPhases mean{};
  if (ranks <= 0 || simulated() == 0) return mean;
  const double all = ranks;
  // Every rank simulated: the plain mean. Otherwise the others' mean stands
  // for every rank that does not factor.
  const double other_weight = simulated() == ranks ? 1.0
                              : other_ranks_ > 0   ? (all - factoring_ranks_) / other_ranks_
                                                   : 0.0;
  for (std::size_t i = 0; i < mean.size(); ++i)
    mean[i] = (factoring_sum_[i] + other_weight * other_sum_[i]) / all;
  return mean;
}

RankPhases estimate_rank_mean(const std::vector<RankPhases>& simulated, int ranks) {
  RankMean m;
  for (const RankPhases& r : simulated)
    m.add(r);
  return m.mean(ranks);
}

} // namespace hplsim::sim
