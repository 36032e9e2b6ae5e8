// The run re-derived for another node count (sim/scenario/grid_rule.hpp), the
// rule `hplsim run --nodes`, pre-screening and `hplsim plan` share.
#include "sim/scenario/grid_rule.hpp"

#include <cmath>
#include <cstdint>
#include <limits>

#include <gtest/gtest.h>

namespace hplsim::sim {
namespace {

WorkloadConfig workload(int nodes, int ranks_per_node, int p, int q, int nb, std::int64_t n) {
  WorkloadConfig w;
  w.nodes = nodes;
  w.ranks_per_node = ranks_per_node;
  w.p = p;
  w.q = q;
  w.nb = nb;
  w.n = n;
  return w;
}

// Aurora's SC24 run (docs/results.md): 9,234 nodes x 6 ranks, 162 x 342, NB 384, N 28,773,888.
WorkloadConfig aurora() {
  return workload(9234, 6, 162, 342, 384, 28773888);
}

void expect_run(const Rederived& r, int active_nodes, int p, int q) {
  EXPECT_EQ(r.active_nodes, active_nodes);
  EXPECT_EQ(r.p, p);
  EXPECT_EQ(r.q, q);
}

TEST(GridRule, TheScenariosOwnNodeCountGivesItsOwnRun) {
  const Rederived r = rederive_for_nodes(aurora(), 9234);
  expect_run(r, 9234, 162, 342);
  EXPECT_EQ(r.n, 28773888); // 74,932 blocks of 384: already a multiple of NB
}

TEST(GridRule, FewerNodesKeepTheRatioAndTheMemoryPerRank) {
  const WorkloadConfig w = aurora();
  for (const int nodes : {7000, 8000, 4321}) {
    const Rederived r = rederive_for_nodes(w, nodes);
    const int ranks = nodes * 6;
    ASSERT_EQ(r.p * r.q, ranks) << nodes;
    EXPECT_LE(r.p, r.q);
    // No factorization of the ranks is closer in log to 162/342.
    const double off = std::abs(std::log(double(r.p) / r.q) - std::log(162.0 / 342.0));
    for (int p = 1; p * p <= ranks; ++p)
      if (ranks % p == 0) {
        EXPECT_GE(std::abs(std::log(double(p) / (ranks / p)) - std::log(162.0 / 342.0)), off - 1e-12);
      }
    // N is the largest multiple of NB whose memory per rank is not above the scenario's.
    EXPECT_EQ(r.n % 384, 0);
    const double per_rank = double(w.n) * double(w.n) / w.ranks();
    EXPECT_LE(double(r.n) * double(r.n) / ranks, per_rank);
    EXPECT_GT(double(r.n + 384) * double(r.n + 384) / ranks, per_rank);
  }
  // 48,000 ranks: 150 x 320 is 0.469 against 0.474 (by hand).
  const Rederived r8 = rederive_for_nodes(w, 8000);
  EXPECT_EQ(r8.p, 150);
  EXPECT_EQ(r8.q, 320);
}

TEST(GridRule, RanksThatFactorBadlyLeaveTheFewestNodesIdle) {
  // JUPITER's shape (4 ranks a node, 150 x 160, NB 1,024): 5,881 nodes (prime):
  // 23,524 = 4 x 5,881, a 4 x 5,881 grid 40x off; 5,880 x 4 = 23,520 = 147 x 160.
  const WorkloadConfig w = workload(6000, 4, 150, 160, 1024, 15645696);
  const Rederived r = rederive_for_nodes(w, 5881);
  expect_run(r, 5880, 147, 160);
  // N: the matrix memory per rank of the 23,520 ranks that run.
  EXPECT_EQ(r.n, same_memory_per_rank_n(w, 147 * 160, 1024));
  // A count within 2x leaves none idle; one node alone has no node to spare.
  EXPECT_EQ(rederive_for_nodes(w, 6000).active_nodes, 6000);
  EXPECT_EQ(rederive_for_nodes(w, 1).active_nodes, 1);
}

TEST(GridRule, APrimeRankCountIsOneRow) {
  int p = 0, q = 0;
  closest_grid(97, 0.5, p, q);
  EXPECT_EQ(p, 1);
  EXPECT_EQ(q, 97);
}

TEST(GridRule, RankCountsNearIntMaxFactorWithoutOverflow) {
  // 46,340 x 46,341 = 2,147,441,940 <= INT_MAX: the search passes P = 46,341,
  // whose square is above INT_MAX. INT_MAX itself is prime (2^31 - 1).
  int p = 0, q = 0;
  closest_grid(46340 * 46341, 1.0, p, q);
  EXPECT_EQ(p, 46340);
  EXPECT_EQ(q, 46341);
  closest_grid(std::numeric_limits<int>::max(), 1.0, p, q);
  EXPECT_EQ(p, 1);
  EXPECT_EQ(q, std::numeric_limits<int>::max());
}

TEST(GridRule, AScenarioWithMoreRowsThanColumnsStopsAtTheFirstSquareEnoughCount) {
  // P > 2Q: no P' <= Q' grid is within 2x of it; the rule takes the most nodes
  // whose grid is within 2x of square. 1,000 nodes x 1 rank: 25 x 40 (0.625).
  const WorkloadConfig w = workload(64, 1, 32, 2, 256, 65536);
  expect_run(rederive_for_nodes(w, 1000), 1000, 25, 40);
  // A billion nodes: the first count within 2x of square ends the search
  // (1% of them idle would be ten million factorizations).
  const Rederived big = rederive_for_nodes(w, 1000000000);
  EXPECT_GE(big.active_nodes, 1000000000 - 1000) << "stopped near the count asked for";
  EXPECT_GE(double(big.p) / big.q, 0.5);
}

} // namespace
} // namespace hplsim::sim
