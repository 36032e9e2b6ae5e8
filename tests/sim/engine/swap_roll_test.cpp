// Fast mode's collective swap roll (sim/engine/swap_roll.hpp, PivotExchanges with a SwapRoll) against the
// same roll sent message by message (reference mode's schedule).
#include <algorithm>

#include <gtest/gtest.h>

#include "sim/engine/swap_roll.hpp"
#include "tests/sim/engine/one_step.hpp"
#include "topologies/fat_tree.hpp"
#include "traces/comm_pattern.hpp"
#include "traces/hpl_swap.hpp"
#include "traces/program_builder.hpp"

namespace hplsim::sim {
namespace {

constexpr std::int64_t kN = 100000, kNb = 256, kRowBegin = 2560;

traces::SwapRoll roll_shape(std::int64_t ncols, bool device = false) {
  traces::SwapRoll shape;
  shape.set_n(kN);
  shape.set_nb(kNb);
  shape.set_row_begin(kRowBegin);
  shape.set_ncols(ncols);
  if (device) shape.set_device(true);
  return shape;
}

// One column of `p` ranks, one per node of a fat tree: the roll of the row
// swap of `ncols` columns of the panel at row kRowBegin with process row
// `icurrow` on the diagonal, as messages (HPL_rollT's pattern) or as one
// Exchange op with a SwapRoll; from GPU memory with `device` (GPU-aware MPI).
std::vector<std::vector<traces::Op>> roll_programs(int p, int icurrow, std::int64_t ncols, bool collective,
                                                   bool device = false) {
  const traces::SwapLayout layout = traces::make_swap_layout(kRowBegin, kN, kNb, kNb, p, icurrow);
  std::vector<std::vector<traces::Op>> programs(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) {
    traces::RankProgram prog;
    prog.set_rank(r);
    traces::ProgramBuilder b(&prog);
    if (collective) {
      b.roll(traces::Communicator{0, 1, p}, icurrow, kNb, roll_shape(ncols, device), traces::SWAP);
    } else {
      traces::Pattern spread, roll;
      traces::spread_roll_pattern(layout, r, ncols, spread, roll);
      traces::emit_pattern(b, traces::Communicator{0, 1, p}, roll, traces::SWAP);
      if (device) b.mark_device_buffers(0);
    }
    programs[static_cast<std::size_t>(r)].assign(prog.ops().begin(), prog.ops().end());
  }
  return programs;
}

topo::FatTreeTopology small_tree(int nodes_per_leaf = 4) {
  topo::FatTreeParams params;
  params.leaf_switches = 6;
  params.spine_switches = 2;
  params.endpoint_ports_per_leaf = nodes_per_leaf;
  params.nics_per_node = 1;
  params.link_bandwidth_bytes_per_s = 25e9;
  params.nic_bandwidth_bytes_per_s = 25e9;
  params.link_latency_s = 50e-9;
  params.switch_latency_s = 350e-9;
  return topo::FatTreeTopology(params);
}

TEST(SwapRoll, PatternsPairUpAndDropEmptySteps) {
  const traces::SwapLayout layout = traces::make_swap_layout(kRowBegin, kN, kNb, kNb, 6, 2);
  const auto patterns = swap_roll_patterns(layout, 1000);
  ASSERT_EQ(patterns.size(), 6U);
  std::int64_t sent = 0, received = 0;
  for (const auto& p : patterns)
    for (const auto& m : p) {
      EXPECT_TRUE(m.send_bytes > 0 || m.recv_bytes > 0);
      sent += m.send_bytes;
      received += m.recv_bytes;
    }
  EXPECT_EQ(sent, received);
  // Every member gets every other member's segment: (jb - own segment) rows of 1000 doubles.
  std::int64_t total = 0;
  for (const auto& p : patterns)
    for (const auto& m : p)
      total += m.recv_bytes;
  EXPECT_EQ(total, static_cast<std::int64_t>((6 - 1) * kNb * 1000 * 8));
}

TEST(SwapRoll, CollectiveTakesAsLongAsItsMessagesOnAnIdleFabric) {
  // Four nodes a leaf. With P even every ring step pairs neighbours in lock
  // step, and up to 16 members (4 leaves) no two of the roll's messages that
  // run at once meet on a link: the collective is exact. With P odd the two
  // positions across the ring's end exchange one step apart; up to 5 members
  // the only pairs across leaves share a member, so it is exact too.
  const topo::FatTreeTopology tree = small_tree();
  for (const int p : {2, 3, 4, 5, 8, 16}) {
    const double messages =
        one_rank_per_node_makespan(tree, topo::Routing::Minimal, roll_programs(p, 1 % p, 20000, false));
    const double collective =
        one_rank_per_node_makespan(tree, topo::Routing::Minimal, roll_programs(p, 1 % p, 20000, true));
    // Same pattern, same routes, all members entering together, no other roll
    // on the nodes' links: equal to the messages (measured to 1e-12 here).
    EXPECT_NEAR(collective, messages, 1e-9 * messages) << "p = " << p;
    EXPECT_GT(messages, 0.0);
  }
}

TEST(SwapRoll, FromDeviceBuffersTakesAsLongAsItsMessages) {
  // GPU-aware MPI: every message of the roll costs its sender 1.45 us before
  // it starts and runs at most at 6 GB/s (Aurora's device-path figures,
  // scenarios/aurora-hpl-sc24.textproto), below the 25 GB/s links. The
  // collective charges both to every message of every wave, as the replay
  // charges them to the messages; with the cap off, the overhead alone.
  const topo::FatTreeTopology tree = small_tree();
  for (const double cap : {6e9, 0.0}) {
    const auto device = [cap](ReplayOptions& o) {
      o.device_message_overhead_s = 1.45e-6;
      o.device_message_rate_bytes_per_s = cap;
    };
    for (const int p : {2, 4, 8, 16}) {
      const double host =
          one_rank_per_node_makespan(tree, topo::Routing::Minimal, roll_programs(p, 1, 20000, true), device);
      const double messages = one_rank_per_node_makespan(tree, topo::Routing::Minimal,
                                                         roll_programs(p, 1, 20000, false, true), device);
      const double collective = one_rank_per_node_makespan(tree, topo::Routing::Minimal,
                                                           roll_programs(p, 1, 20000, true, true), device);
      // Equal to the messages as on host buffers (measured to 1e-12 here); and
      // dearer than the same roll from host buffers: P - 1 overheads at least.
      EXPECT_NEAR(collective, messages, 1e-9 * messages) << "p = " << p << ", cap " << cap;
      EXPECT_GT(collective, host + (p - 1) * 1.45e-6 * 0.999) << "p = " << p << ", cap " << cap;
    }
  }
}

TEST(SwapRoll, OddRingIsExactWhereItsExchangesShareNoLink) {
  // P odd on one leaf (16 nodes a leaf): the exchange across the ring's end
  // runs beside the next step's, on links of its own, and the waves follow
  // the messages exactly.
  const topo::FatTreeTopology tree = small_tree(16);
  for (const int p : {7, 9, 15}) {
    const double messages =
        one_rank_per_node_makespan(tree, topo::Routing::Minimal, roll_programs(p, 2, 20000, false));
    const double collective =
        one_rank_per_node_makespan(tree, topo::Routing::Minimal, roll_programs(p, 2, 20000, true));
    EXPECT_NEAR(collective, messages, 1e-9 * messages) << "p = " << p;
  }
  // Over two leaves of four (P = 7) the exchange across the ring's end
  // (members 6 and 0) and the one between the leaves (3 and 4) run at the
  // same time over the leaves' uplinks, in different waves; the collective
  // counts only a wave's own messages on the fabric's links and comes out
  // short (measured -11% here; docs/fast-mode.md, point 12).
  const topo::FatTreeTopology two_leaves = small_tree();
  const double messages =
      one_rank_per_node_makespan(two_leaves, topo::Routing::Minimal, roll_programs(7, 1, 20000, false));
  const double collective =
      one_rank_per_node_makespan(two_leaves, topo::Routing::Minimal, roll_programs(7, 1, 20000, true));
  EXPECT_LT(collective, messages);
  EXPECT_GT(collective, 0.8 * messages);
}

// Two process columns of `p` rows (row-major ranks: rank = row * 2 + column),
// the two ranks of a row on one node behind one NIC, every rank rolling the
// same swap at time 0, as messages or as collectives.
std::vector<std::vector<traces::Op>> two_column_programs(int p, std::int64_t ncols, bool collective) {
  const traces::SwapLayout layout = traces::make_swap_layout(kRowBegin, kN, kNb, kNb, p, 1);
  std::vector<std::vector<traces::Op>> programs(static_cast<std::size_t>(2 * p));
  for (int r = 0; r < 2 * p; ++r) {
    const traces::Communicator column{r % 2, 2, p};
    traces::RankProgram prog;
    prog.set_rank(r);
    traces::ProgramBuilder b(&prog);
    if (collective) {
      b.roll(column, 1, kNb, roll_shape(ncols), traces::SWAP);
    } else {
      traces::Pattern spread, roll;
      traces::spread_roll_pattern(layout, r / 2, ncols, spread, roll);
      traces::emit_pattern(b, column, roll, traces::SWAP);
    }
    programs[static_cast<std::size_t>(r)].assign(prog.ops().begin(), prog.ops().end());
  }
  return programs;
}

TEST(SwapRoll, RollsOfNodeMatesShareTheirNicWhicheverIsPricedFirst) {
  // The two columns' rolls cross the same NICs at the same time: each gets
  // half of every NIC, as their messages do. The roll priced first saw an idle
  // NIC; it is priced again once the second one starts.
  const topo::FatTreeTopology tree = small_tree();
  for (const int p : {4, 8}) {
    const double messages =
        grid_makespan(tree, topo::Routing::Minimal, two_column_programs(p, 20000, false), 2, 2);
    const double collective =
        grid_makespan(tree, topo::Routing::Minimal, two_column_programs(p, 20000, true), 2, 2);
    const double alone =
        one_rank_per_node_makespan(tree, topo::Routing::Minimal, roll_programs(p, 1, 20000, false));
    // Sharing the NICs costs the messages 2.0x (p = 4) and 1.27x (p = 8) the
    // one-column time here; the collective equals them (measured to 1e-15).
    EXPECT_GT(messages, 1.2 * alone) << "p = " << p;
    EXPECT_NEAR(collective, messages, 1e-9 * messages) << "p = " << p << ", alone " << alone;
  }
}

} // namespace
} // namespace hplsim::sim

namespace hplsim::sim {
namespace {

// Every message 1 us on routes without links; under noise every member's step
// is held up `delay_s` (ExchangeNetwork::rank_noise_delay_s) after its CPU
// overhead of 0.5 us, or only rank `only`'s when it is >= 0.
class NoisyUniformLatency final : public ExchangeNetwork {
public:
  NoisyUniformLatency(double delay_s, int only = -1) : delay_s_(delay_s), only_(only) {}
  const Route& route(int, int) override { return route_; }
  double latency_s(double, std::int64_t, bool) const override { return 1e-6; }
  double bandwidth_factor(std::int64_t, bool) const override { return 1.0; }
  bool noisy() const override { return true; }
  int rank_of(int member) const override { return 100 + member; }
  double message_cpu_s(std::int64_t, std::int64_t) const override { return 0.5e-6; }
  double rank_noise_delay_s(int rank, int, double, double work_s) const override {
    EXPECT_GE(rank, 100); // asked by rank, not by member
    EXPECT_DOUBLE_EQ(work_s, 0.5e-6);
    return only_ < 0 || rank == 100 + only_ ? delay_s_ : 0.0;
  }

private:
  Route route_;
  double delay_s_;
  int only_;
};

double latest(const std::vector<double>& t) {
  return *std::max_element(t.begin(), t.end());
}

TEST(SwapRoll, NoiseOnEveryMemberDelaysEveryStepOfTheRing) {
  // P = 4: three waves of exchanges between ring neighbours, each starting
  // when both members are past their noise: 3 (1 us + D), against 3 us quiet.
  const traces::SwapLayout layout = traces::make_swap_layout(kRowBegin, kN, kNb, kNb, 4, 1);
  const std::vector<double> arrival(4, 0.0);
  NoisyUniformLatency quiet(0.0), noisy(2e-6);
  SwapRollPricer a, b;
  EXPECT_NEAR(latest(*a.price(layout, 512, arrival, quiet, 0.0)), 3e-6, 1e-15);
  EXPECT_NEAR(latest(*b.price(layout, 512, arrival, noisy, 0.0)), 3 * (1e-6 + 2e-6), 1e-15);
}

TEST(SwapRoll, OneNoisyMemberHoldsTheRingBack) {
  // Only member 2 is delayed, by 5 us at each of its steps: every step it
  // takes part in starts 5 us late, and its neighbours carry that on.
  const traces::SwapLayout layout = traces::make_swap_layout(kRowBegin, kN, kNb, kNb, 4, 1);
  const std::vector<double> arrival(4, 0.0);
  NoisyUniformLatency one(5e-6, 2);
  SwapRollPricer p;
  const double done = latest(*p.price(layout, 512, arrival, one, 0.0));
  EXPECT_GE(done, 3e-6 + 5e-6); // at least one delayed step on the critical path
  EXPECT_LE(done, 3 * (1e-6 + 5e-6) + 1e-15);
}

// Every member pair on one fabric link of 1e9 B/s, 1 us of latency: a roll's
// time grows with its bytes and its waves share the link.
class OneFabricLink final : public ExchangeNetwork {
public:
  OneFabricLink() {
    route_.path_s = 1e-6;
    route_.links = {{&route_, 1e9}};
    route_.node_link = {0};
    route_.link_id = {0};
  }
  const Route& route(int, int) override { return route_; }
  double latency_s(double path_s, std::int64_t, bool) const override { return path_s; }
  double bandwidth_factor(std::int64_t, bool) const override { return 1.0; }

private:
  Route route_;
};

TEST(SwapRoll, APricerReusesALayoutsMatchingForOtherWidthsAndLayouts) {
  // One pricer takes layouts and widths in turn (its matching kept per
  // layout and scaled by the width); each roll must come out as a fresh
  // pricer prices it alone, to the bit. The rolls are apart in time, so none
  // slows another.
  const traces::SwapLayout a = traces::make_swap_layout(kRowBegin, kN, kNb, kNb, 6, 1);
  const traces::SwapLayout b = traces::make_swap_layout(kRowBegin + kNb, kN, kNb, kNb, 6, 2);
  OneFabricLink net;
  SwapRollPricer shared;
  double now_s = 0.0;
  for (const auto& [layout, ncols] : std::vector<std::pair<const traces::SwapLayout*, std::int64_t>>{
           {&a, 512}, {&b, 512}, {&a, 2048}, {&b, 96}, {&a, 512}}) {
    const std::vector<double> arrival(6, now_s);
    const std::vector<double> reused = *shared.price(*layout, ncols, arrival, net, now_s);
    SwapRollPricer fresh;
    EXPECT_EQ(reused, *fresh.price(*layout, ncols, arrival, net, now_s)) << ncols << " columns";
    EXPECT_GT(latest(reused), now_s + 1e-6);
    now_s = latest(reused) + 1.0;
  }
}

TEST(SwapRoll, APricerCyclingThroughMoreLayoutsThanItKeepsPricesEachAsAFreshOne) {
  // A fault window's process row rolls the panels of several steps in turn.
  // 20 layouts (more than the pricer keeps matched), in order, again, then
  // backwards: each roll must come out as a fresh pricer prices it alone, to
  // the bit, whichever matchings the pricer kept or dropped.
  std::vector<traces::SwapLayout> layouts;
  for (int k = 0; k < 20; ++k)
    layouts.push_back(traces::make_swap_layout(kRowBegin + k * kNb, kN, kNb, kNb, 6 + k % 3, k % 5));
  std::vector<int> order;
  for (int pass = 0; pass < 2; ++pass)
    for (int k = 0; k < 20; ++k)
      order.push_back(k);
  for (int k = 19; k >= 0; --k)
    order.push_back(k);
  OneFabricLink net;
  SwapRollPricer shared;
  double now_s = 0.0;
  for (const int k : order) {
    const traces::SwapLayout& layout = layouts[static_cast<std::size_t>(k)];
    const std::vector<double> arrival(static_cast<std::size_t>(layout.p), now_s);
    const std::vector<double> reused = *shared.price(layout, 512, arrival, net, now_s);
    SwapRollPricer fresh;
    EXPECT_EQ(reused, *fresh.price(layout, 512, arrival, net, now_s)) << "layout " << k;
    now_s = latest(reused) + 1.0;
  }
}

} // namespace
} // namespace hplsim::sim
