// The MPI collective algorithms (traces/mpi_collectives.hpp) run member by
// member on a logical clock: every send meets its receive (per pair, in
// order, with the same size), no member is left waiting, and the bytes and
// rounds match the algorithms' closed forms (Thakur, Rabenseifner & Gropp,
// IJHPCA 2005, Table 1; Hensgen, Finkel & Manber 1988 for the barrier).
#include "traces/mpi_collectives.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include <gtest/gtest.h>

using namespace hplsim::mpi;

namespace {

struct Outcome {
  bool complete = false;
  std::string error;
  int rounds = 0;                        // the logical time at which the last member ends
  std::vector<std::int64_t> sent, recvd; // bytes per member
};

// Every member posts a step's messages together and ends the step when all
// of them are matched; a message matched at max(post times) ends one round later.
Outcome run(const CollCall& call) {
  const int p = call.size;
  std::vector<CollProgram> prog;
  for (int m = 0; m < p; ++m)
    prog.push_back(collective_program(call, m));
  struct Op {
    int owner;
    std::int64_t bytes;
    int posted;
  };
  std::map<std::pair<int, int>, std::deque<Op>> sends, recvs;
  std::vector<std::size_t> step(static_cast<std::size_t>(p), 0);
  std::vector<int> clock(static_cast<std::size_t>(p), 0), pending(static_cast<std::size_t>(p), 0),
      ends(static_cast<std::size_t>(p), 0);
  std::vector<bool> posted(static_cast<std::size_t>(p), false);
  Outcome out;
  out.sent.assign(static_cast<std::size_t>(p), 0);
  out.recvd.assign(static_cast<std::size_t>(p), 0);
  const auto offer = [&](int from, int to, std::int64_t bytes, int owner, bool is_send) -> bool {
    auto& mine = is_send ? sends[{from, to}] : recvs[{from, to}];
    auto& other = is_send ? recvs[{from, to}] : sends[{from, to}];
    const int now = clock[static_cast<std::size_t>(owner)];
    if (other.empty()) {
      mine.push_back({owner, bytes, now});
      ++pending[static_cast<std::size_t>(owner)];
      return true;
    }
    const Op match = other.front();
    other.pop_front();
    if (match.bytes != bytes) {
      out.error = std::to_string(from) + "->" + std::to_string(to) + " sizes differ";
      return false;
    }
    const int end = std::max(now, match.posted) + 1;
    auto& e = ends[static_cast<std::size_t>(owner)];
    e = std::max(e, end);
    auto& pe = ends[static_cast<std::size_t>(match.owner)];
    pe = std::max(pe, end);
    --pending[static_cast<std::size_t>(match.owner)];
    out.sent[static_cast<std::size_t>(from)] += bytes;
    out.recvd[static_cast<std::size_t>(to)] += bytes;
    return true;
  };
  for (bool progress = true; progress;) {
    progress = false;
    for (int m = 0; m < p; ++m) {
      const auto i = static_cast<std::size_t>(m);
      if (step[i] >= prog[i].size()) continue;
      if (!posted[i]) {
        const CollStep& s = prog[i][step[i]];
        ends[i] = clock[i];
        for (const CollMsg& x : s.sends)
          if (x.peer == m || !offer(m, x.peer, x.bytes, m, true)) {
            if (out.error.empty()) out.error = "member " + std::to_string(m) + " sends to itself";
            return out;
          }
        for (const CollMsg& x : s.recvs)
          if (x.peer == m || !offer(x.peer, m, x.bytes, m, false)) {
            if (out.error.empty()) out.error = "member " + std::to_string(m) + " receives from itself";
            return out;
          }
        posted[i] = true;
        progress = true;
      }
      if (posted[i] && pending[i] == 0) {
        clock[i] = ends[i];
        posted[i] = false;
        ++step[i];
        progress = true;
      }
    }
  }
  out.complete = true;
  for (int m = 0; m < p; ++m) {
    const auto i = static_cast<std::size_t>(m);
    if (step[i] < prog[i].size()) {
      out.complete = false;
      out.error = "member " + std::to_string(m) + " waits forever at step " + std::to_string(step[i]);
    }
    out.rounds = std::max(out.rounds, clock[i]);
  }
  return out;
}

CollCall call(Collective c, CollectiveAlgorithm a, int size, std::int64_t bytes, int root = 0) {
  CollCall x;
  x.collective = c;
  x.algorithm = a;
  x.size = size;
  x.bytes = bytes;
  x.root = root;
  return x;
}

int ceil_log2(int p) {
  int k = 0;
  while ((1 << k) < p)
    ++k;
  return k;
}

} // namespace

TEST(MpiCollectives, EveryAlgorithmCompletesWithMatchedMessages) {
  // Every algorithm of every collective, on powers of two and not, with the
  // root at either end and sizes that do and do not divide evenly.
  for (int c = ALLREDUCE; c <= SCATTER; ++c)
    for (int a = RECURSIVE_DOUBLING; a <= LINEAR; ++a) {
      const auto coll = static_cast<Collective>(c);
      const auto algo = static_cast<CollectiveAlgorithm>(a);
      if (!implements(algo, coll)) continue;
      for (int p : {1, 2, 3, 5, 8, 12, 48, 96, 100, 192})
        for (int root : {0, p - 1})
          for (std::int64_t bytes : {std::int64_t{1}, std::int64_t{1000}, std::int64_t{1} << 20}) {
            const Outcome o = run(call(coll, algo, p, bytes, root));
            EXPECT_TRUE(o.complete && o.error.empty())
                << collective_name(coll) << " " << algorithm_name(algo) << " p=" << p << " root=" << root
                << " bytes=" << bytes << ": " << o.error;
          }
    }
}

TEST(MpiCollectives, AllreduceBytesAndRoundsFollowTheClosedForms) {
  // Power of two p, n divisible by p (Thakur et al., Table 1): recursive
  // doubling sends n per round for log2 p rounds; Rabenseifner and the ring
  // send 2 (p - 1) / p n in total, Rabenseifner in 2 log2 p rounds, the ring
  // in 2 (p - 1).
  const int p = 64;
  const std::int64_t n = 64 * 1024;
  const Outcome rd = run(call(ALLREDUCE, RECURSIVE_DOUBLING, p, n));
  const Outcome rab = run(call(ALLREDUCE, RABENSEIFNER, p, n));
  const Outcome ring = run(call(ALLREDUCE, RING, p, n));
  for (int m = 0; m < p; ++m) {
    EXPECT_EQ(rd.sent[static_cast<std::size_t>(m)], 6 * n);
    EXPECT_EQ(rab.sent[static_cast<std::size_t>(m)], 2 * (p - 1) * n / p);
    EXPECT_EQ(ring.sent[static_cast<std::size_t>(m)], 2 * (p - 1) * n / p);
  }
  EXPECT_EQ(rd.rounds, 6);
  EXPECT_EQ(rab.rounds, 12);
  EXPECT_EQ(ring.rounds, 2 * (p - 1));
  // p = 48 folds 2 x 16 members into 16 first and back last: log2 32 + 2 rounds.
  EXPECT_EQ(run(call(ALLREDUCE, RECURSIVE_DOUBLING, 48, 8)).rounds, 5 + 2);
}

TEST(MpiCollectives, AllgatherAndAlltoallDeliverEveryBlock) {
  // Every member receives the p - 1 blocks it lacks (allgather) or that are
  // addressed to it (alltoall pairwise and scattered); Bruck's alltoall moves
  // p/2 blocks in each of its log2 p rounds (power of two p).
  const std::int64_t b = 100;
  for (int p : {7, 48, 64})
    for (CollectiveAlgorithm a : {RECURSIVE_DOUBLING, BRUCK, RING}) {
      const Outcome o = run(call(ALLGATHER, a, p, b));
      for (int m = 0; m < p; ++m)
        EXPECT_EQ(o.recvd[static_cast<std::size_t>(m)], (p - 1) * b) << algorithm_name(a) << " p=" << p;
      EXPECT_EQ(o.rounds, a == RING ? p - 1 : ceil_log2(p)) << algorithm_name(a) << " p=" << p;
    }
  for (int p : {7, 48, 64})
    for (CollectiveAlgorithm a : {PAIRWISE, SCATTERED}) {
      const Outcome o = run(call(ALLTOALL, a, p, b));
      for (int m = 0; m < p; ++m)
        EXPECT_EQ(o.recvd[static_cast<std::size_t>(m)], (p - 1) * b);
    }
  const Outcome bruck = run(call(ALLTOALL, BRUCK, 64, b));
  EXPECT_EQ(bruck.sent[0], 6 * 32 * b);
  EXPECT_EQ(bruck.rounds, 6);
}

TEST(MpiCollectives, TreesAndTheBarrierTakeLogarithmicRounds) {
  // A binomial broadcast, reduce or gather over p members takes ceil(log2 p)
  // rounds; every non-root member of a broadcast gets the vector once; the
  // root of a gather receives the p - 1 other blocks; a dissemination
  // barrier takes ceil(log2 p) rounds.
  for (int p : {2, 5, 48, 100, 1536}) {
    const Outcome bc = run(call(BCAST, BINOMIAL, p, 4096, p / 3));
    EXPECT_EQ(bc.rounds, ceil_log2(p)) << p;
    for (int m = 0; m < p; ++m)
      EXPECT_EQ(bc.recvd[static_cast<std::size_t>(m)], m == p / 3 ? 0 : 4096) << p;
    EXPECT_EQ(run(call(REDUCE, BINOMIAL, p, 4096)).rounds, ceil_log2(p)) << p;
    const Outcome g = run(call(GATHER, BINOMIAL, p, 10, 1 % p));
    EXPECT_EQ(g.recvd[static_cast<std::size_t>(1 % p)], (p - 1) * 10) << p;
    EXPECT_EQ(run(call(BARRIER, DISSEMINATION, p, 0)).rounds, ceil_log2(p)) << p;
  }
  // The van de Geijn broadcast of n over a power of two: scatter (log2 p
  // rounds), then the recursive-doubling allgather (log2 p rounds); every
  // member ends up having received n minus its own chunk plus its scatter share.
  const Outcome vdg = run(call(BCAST, SCATTER_RECURSIVE_DOUBLING_ALLGATHER, 64, 64 * 1000));
  EXPECT_EQ(vdg.rounds, 12);
}

TEST(MpiCollectives, SelectionFollowsTheTableInOrder) {
  MpiCollectives mpi;
  auto* sel = mpi.add_selections();
  sel->set_collective(ALLREDUCE);
  auto* r0 = sel->add_rules();
  r0->set_below_bytes(2049);
  r0->set_algorithm(RECURSIVE_DOUBLING);
  sel->add_rules()->set_algorithm(RABENSEIFNER);
  auto* ag = mpi.add_selections();
  ag->set_collective(ALLGATHER);
  auto* g0 = ag->add_rules();
  g0->set_below_bytes(524288);
  g0->set_power_of_two(true);
  g0->set_algorithm(RECURSIVE_DOUBLING);
  auto* g1 = ag->add_rules();
  g1->set_below_bytes(81920);
  g1->set_algorithm(BRUCK);
  ag->add_rules()->set_algorithm(RING);
  ASSERT_NO_THROW(validate_collectives(mpi));

  CollCall c = call(ALLREDUCE, LINEAR, 1536, 2048);
  c.ppn = 48;
  ASSERT_TRUE(select_algorithm(mpi, c));
  EXPECT_EQ(c.algorithm, RECURSIVE_DOUBLING);
  c.bytes = 2049;
  ASSERT_TRUE(select_algorithm(mpi, c));
  EXPECT_EQ(c.algorithm, RABENSEIFNER);
  // Allgather compares the gathered total: 1536 x 32 B = 49152 B < 81920 (Bruck,
  // not a power of two); 1536 x 64 B = 98304 B (ring); 1024 x 256 B = 262144 B
  // (recursive doubling, a power of two).
  CollCall g = call(ALLGATHER, LINEAR, 1536, 32);
  g.ppn = 48;
  ASSERT_TRUE(select_algorithm(mpi, g));
  EXPECT_EQ(g.algorithm, BRUCK);
  g.bytes = 64;
  ASSERT_TRUE(select_algorithm(mpi, g));
  EXPECT_EQ(g.algorithm, RING);
  g.size = 1024;
  g.bytes = 256;
  ASSERT_TRUE(select_algorithm(mpi, g));
  EXPECT_EQ(g.algorithm, RECURSIVE_DOUBLING);
  CollCall none = call(BCAST, LINEAR, 8, 8);
  EXPECT_FALSE(select_algorithm(mpi, none));
}

TEST(MpiCollectives, ValidationNamesTheRule) {
  MpiCollectives mpi;
  auto* sel = mpi.add_selections();
  sel->set_collective(BCAST);
  sel->add_rules()->set_algorithm(BINOMIAL);
  sel->add_rules()->set_algorithm(PAIRWISE);
  try {
    validate_collectives(mpi);
    FAIL() << "pairwise is not a broadcast";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("selections[0].rules[1].algorithm"), std::string::npos) << e.what();
  }
  EXPECT_THROW(collective_program(call(ALLTOALL, RING, 4, 8), 0), std::invalid_argument);
}

namespace {

// A table with node-aware rules first, then flat ones (MPICH's shape).
MpiCollectives node_aware_table() {
  MpiCollectives mpi;
  for (Collective c : {ALLREDUCE, BCAST, REDUCE, BARRIER}) {
    auto* sel = mpi.add_selections();
    sel->set_collective(c);
    sel->add_rules()->set_node_aware(true);
    sel->add_rules()->set_algorithm(c == ALLREDUCE ? RECURSIVE_DOUBLING
                                    : c == BARRIER ? DISSEMINATION
                                                   : BINOMIAL);
  }
  return mpi;
}

} // namespace

TEST(MpiCollectives, NodeAwareCallsRunInStagesWithinAndAcrossNodes) {
  const MpiCollectives mpi = node_aware_table();
  ASSERT_NO_THROW(validate_collectives(mpi));
  for (Collective coll : {ALLREDUCE, BCAST, REDUCE, BARRIER})
    for (auto [nodes, ppn] : {std::pair{2, 3}, std::pair{4, 48}, std::pair{3, 5}})
      for (int root : {0, nodes * ppn - 1}) {
        CollCall c = call(coll, LINEAR, nodes * ppn, 1000, root);
        c.ppn = ppn;
        ASSERT_TRUE(select_algorithm(mpi, c));
        ASSERT_TRUE(c.node_aware);
        const Outcome o = run(c);
        EXPECT_TRUE(o.complete && o.error.empty())
            << collective_name(coll) << " " << nodes << "x" << ppn << " root " << root << ": " << o.error;
      }
  // A binomial broadcast from a node's first member: ceil(log2 nodes) rounds
  // among the nodes, then ceil(log2 ppn) within them; from another member,
  // one hand-over round first. Only the first members cross nodes.
  CollCall b = call(BCAST, LINEAR, 4 * 48, 1000, 0);
  b.ppn = 48;
  ASSERT_TRUE(select_algorithm(mpi, b));
  EXPECT_EQ(run(b).rounds, 2 + 6);
  b.root = 5;
  EXPECT_EQ(run(b).rounds, 1 + 2 + 6);
  for (int m = 0; m < 4 * 48; ++m)
    for (const CollStep& s : collective_program(b, m))
      for (const CollMsg& x : s.sends)
        if (x.peer / 48 != m / 48) {
          EXPECT_TRUE(m % 48 == 0 && x.peer % 48 == 0) << m << " -> " << x.peer;
        }
  // One rank per node: the node-aware rule does not apply. One node of
  // several ranks: it does (MPICH builds its hierarchy then too), and the
  // stage among the nodes has nothing to do.
  CollCall flat = call(ALLREDUCE, LINEAR, 8, 8);
  flat.ppn = 1;
  ASSERT_TRUE(select_algorithm(mpi, flat));
  EXPECT_FALSE(flat.node_aware);
  EXPECT_EQ(flat.algorithm, RECURSIVE_DOUBLING);
  CollCall one_node = call(ALLREDUCE, LINEAR, 4, 8);
  one_node.ppn = 4;
  ASSERT_TRUE(select_algorithm(mpi, one_node));
  EXPECT_TRUE(one_node.node_aware);
  EXPECT_EQ(run(one_node).rounds, 2 + 2); // binomial reduce, then binomial bcast, over 4
  EXPECT_EQ(describe(one_node), "node_aware(reduce binomial, allreduce none, bcast binomial)");
}

TEST(MpiCollectives, RabenseifnerReduceFoldsTowardsTheRoot) {
  // MPICH's MPIR_Reduce_redscat_gather keeps the even members of the fold,
  // so the root (relative member 0) is never folded away: p = 12 is one fold
  // round, 3 halving rounds and 3 gather rounds, and no hand-over at the end.
  EXPECT_EQ(run(call(REDUCE, RABENSEIFNER, 12, 12000)).rounds, 7);
  EXPECT_EQ(run(call(REDUCE, RABENSEIFNER, 12, 12000, 5)).rounds, 7);
}

TEST(MpiCollectives, WhatRunsIsWhatIsNamed) {
  // Recursive doubling on a count that is not a power of two runs Bruck's
  // allgather, and the van de Geijn broadcast runs its ring variant: the
  // name says so.
  EXPECT_EQ(describe(call(ALLGATHER, RECURSIVE_DOUBLING, 12, 8)), "bruck");
  EXPECT_EQ(describe(call(ALLGATHER, RECURSIVE_DOUBLING, 16, 8)), "recursive_doubling");
  EXPECT_EQ(describe(call(BCAST, SCATTER_RECURSIVE_DOUBLING_ALLGATHER, 12, 8)), "scatter_ring_allgather");
  MpiCollectives bad = node_aware_table();
  bad.mutable_selections(0)->mutable_rules(0)->set_below_bytes(0);
  EXPECT_THROW(validate_collectives(bad), std::invalid_argument);
  MpiCollectives radix = node_aware_table();
  auto* r = radix.mutable_selections(1)->add_rules();
  r->set_algorithm(KNOMIAL);
  r->set_radix(1000);
  EXPECT_THROW(validate_collectives(radix), std::invalid_argument);
}
