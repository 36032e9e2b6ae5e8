#include "traces/mxp_generator.hpp"

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <stdexcept>
#include <tuple>

#include "pattern_util.hpp"
#include "traces/schedule_validator.hpp"

using namespace hplsim::traces;
using namespace hplsim::traces::test;

namespace {

MxpConfig small_mxp() {
  MxpConfig c;
  c.n = 96;
  c.nb = 16;
  c.p = 3;
  c.q = 4;
  c.refinement_iterations = 2;
  c.bcast_chunk_bytes = 1024;
  return c;
}

/// N = 64, NB = 16, a 2 x 2 grid, one refinement iteration, ring broadcasts
/// pipelined in `chunk_bytes` chunks (0: whole messages).
MxpConfig two_by_two(std::int64_t chunk_bytes) {
  MxpConfig c;
  c.n = 64;
  c.nb = 16;
  c.p = 2;
  c.q = 2;
  c.refinement_iterations = 1;
  c.bcast_chunk_bytes = chunk_bytes;
  return c;
}

ValidationReport validate_all(const MxpScheduleGenerator& g) {
  std::vector<StepSchedule> steps(static_cast<std::size_t>(g.steps() + 1));
  std::vector<const StepSchedule*> window;
  for (std::int64_t k = 0; k <= g.steps(); ++k) {
    g.step(k, steps[static_cast<std::size_t>(k)]);
    window.push_back(&steps[static_cast<std::size_t>(k)]);
  }
  ValidationOptions o;
  o.tags_within_step = true;
  return validate_schedule(g.grid().size(), window, o);
}

std::multiset<std::tuple<int, int, std::int64_t>> sends_of(const StepSchedule& s) {
  std::multiset<std::tuple<int, int, std::int64_t>> out;
  for (const RankProgram& r : s.ranks())
    for (const Op& op : r.ops())
      if (op.has_send()) out.emplace(r.rank(), op.send().peer(), op.send().bytes());
  return out;
}

// The grid whose GMRES refinement's sends are counted by hand below: 2 x 3,
// N 96, NB 16, 2 iterations.
MxpConfig hand_counted_gmres() {
  MxpConfig c;
  c.n = 96;
  c.nb = 16;
  c.p = 2;
  c.q = 3;
  c.refinement_iterations = 2;
  c.refinement = MxpConfig::Refinement::Gmres;
  return c;
}

} // namespace

TEST(MxpGenerator, EveryBroadcastAndDepthIsConsistent) {
  for (auto bcast : {HplConfig::Bcast::OneRing, HplConfig::Bcast::OneRingM, HplConfig::Bcast::TwoRing,
                     HplConfig::Bcast::TwoRingM, HplConfig::Bcast::Blong, HplConfig::Bcast::BlongM})
    for (int depth : {0, 1}) {
      MxpConfig c = small_mxp();
      c.bcast = bcast;
      c.depth = depth;
      const ValidationReport r = validate_all(MxpScheduleGenerator(c));
      EXPECT_TRUE(r.ok()) << to_string(bcast) << " depth " << depth << ": " << r.summary();
    }
}

TEST(MxpGenerator, ExecutionOptionsAreConsistent) {
  // Several GPUs per rank, CPU panels, host staging, GMRES, column-major, non-power-of-two grids.
  for (int variant = 0; variant < 6; ++variant) {
    MxpConfig c = small_mxp();
    c.gpus_per_rank = variant % 2 == 0 ? 3 : 1;
    c.panel_resource = variant % 3 == 1 ? CPU : GPU;
    c.host_staged = variant >= 3;
    c.refinement = variant % 2 == 1 ? MxpConfig::Refinement::Gmres : MxpConfig::Refinement::Classical;
    c.column_major = variant == 4;
    c.p = variant == 5 ? 5 : 3;
    c.q = variant == 5 ? 1 : 4;
    const ValidationReport r = validate_all(MxpScheduleGenerator(c));
    EXPECT_TRUE(r.ok()) << "variant " << variant << ": " << r.summary();
  }
}

TEST(MxpGenerator, StepMessagesByHand) {
  // N = 64, NB = 16, 2 x 2, BF16, 1ring, whole messages, step 1 (panel [16, 32),
  // diagonal block on (1, 1) = rank 3). Rows below it, [32, 64): block 2 on row 0,
  // block 3 on row 1 (16 each); columns right of it likewise 16 per process column.
  //  diagonal block, FP32: 16*16*4 = 1024 B along row 1 (3 -> 2) and column 1 (3 -> 1)
  //  L panels, 16 rows x 16 x 2 B = 512 B along each row from column 1: 1 -> 0, 3 -> 2
  //  U panels, 16 x 16 columns x 2 B = 512 B along each column from row 1: 2 -> 0, 3 -> 1
  MxpConfig c = two_by_two(0);
  const MxpScheduleGenerator g(c);
  StepSchedule s;
  g.step(1, s);
  const std::multiset<std::tuple<int, int, std::int64_t>> expected = {
      {3, 2, 1024}, {3, 1, 1024}, {1, 0, 512}, {3, 2, 512}, {2, 0, 512}, {3, 1, 512}};
  EXPECT_EQ(sends_of(s), expected);
  // Rank 0 only updates its trailing block (16 x 16 x 16 with panel 0, BF16 on GPU 0)
  // and receives L and U.
  const RankProgram* r0 = program_of(s, 0);
  ASSERT_NE(r0, nullptr);
  ASSERT_TRUE(r0->ops(0).has_compute());
  const Compute& gemm = r0->ops(0).compute();
  EXPECT_EQ(gemm.kernel(), KERNEL_GEMM);
  EXPECT_EQ(gemm.precision(), BF16);
  EXPECT_EQ(gemm.device(), 0);
  EXPECT_TRUE(gemm.has_async_tag());
  EXPECT_EQ(std::make_tuple(gemm.m(), gemm.n(), gemm.k()), std::make_tuple(16, 16, 16));
  // The diagonal block's owner factors it in FP32.
  bool getrf = false;
  for (const Op& op : program_of(s, 3)->ops())
    getrf |=
        op.has_compute() && op.compute().kernel() == KERNEL_GETRF_DIAG && op.compute().precision() == FP32;
  EXPECT_TRUE(getrf);
}

TEST(MxpGenerator, RingBroadcastsArePipelinedInChunks) {
  // Same step with 256-byte chunks: the two 1024 B diagonal messages become 4
  // chunks each, the four 512 B panel messages 2 each: 8 + 8 = 16 sends.
  MxpConfig c = two_by_two(256);
  const MxpScheduleGenerator g(c);
  StepSchedule s;
  g.step(1, s);
  const auto sends = sends_of(s);
  EXPECT_EQ(sends.size(), 16u);
  for (const auto& [from, to, bytes] : sends)
    EXPECT_EQ(bytes, 256);
}

TEST(MxpGenerator, AggregatedRingsSendFirstChunkBulkAndLastChunk) {
  // Same step with 128-byte chunks and aggregated rings (fast mode): a 1024 B
  // diagonal message (8 chunks) crosses its hop as 128 + 768 + 128 B; a 512 B
  // panel message (4 chunks) as 128 + 256 + 128 B. 6 messages x 3 = 18 sends,
  // the same bytes per (from, to) pair as whole messages.
  MxpConfig c = two_by_two(128);
  c.bcast_ring_aggregated = true;
  const MxpScheduleGenerator g(c);
  StepSchedule s;
  g.step(1, s);
  const std::multiset<std::tuple<int, int, std::int64_t>> expected = {
      {3, 2, 128}, {3, 2, 768}, {3, 2, 128}, {3, 1, 128}, {3, 1, 768}, {3, 1, 128},
      {1, 0, 128}, {1, 0, 256}, {1, 0, 128}, {3, 2, 128}, {3, 2, 256}, {3, 2, 128},
      {2, 0, 128}, {2, 0, 256}, {2, 0, 128}, {3, 1, 128}, {3, 1, 256}, {3, 1, 128}};
  EXPECT_EQ(sends_of(s), expected);
  // Every aggregated schedule stays consistent (matched messages, tags), for
  // every depth and several chunk sizes, including messages of <= 3 chunks
  // that stay chunk by chunk.
  for (std::int64_t chunk : {64, 128, 256, 1024})
    for (int depth : {0, 1}) {
      MxpConfig v = small_mxp();
      v.bcast_chunk_bytes = chunk;
      v.bcast_ring_aggregated = true;
      v.depth = depth;
      const ValidationReport r = validate_all(MxpScheduleGenerator(v));
      EXPECT_TRUE(r.ok()) << "chunk " << chunk << " depth " << depth << ": " << r.summary();
    }
}

TEST(MxpGenerator, TrailingUpdateIsSplitOverTheRanksGpus) {
  // 1 x 1 grid, N = 160, NB = 16, 3 GPUs: at step 1 the trailing matrix right of
  // panel 1 has 128 columns: shares 43, 43, 42 on devices 0, 1, 2, each an async GEMM.
  MxpConfig c;
  c.n = 160;
  c.nb = 16;
  c.gpus_per_rank = 3;
  c.refinement_iterations = 1;
  const MxpScheduleGenerator g(c);
  StepSchedule s;
  g.step(1, s);
  std::vector<std::pair<int, std::int64_t>> shares;
  for (const Op& op : s.ranks(0).ops())
    if (op.has_compute() && op.compute().kernel() == KERNEL_GEMM && op.compute().has_async_tag())
      shares.emplace_back(op.compute().device(), op.compute().n());
  EXPECT_EQ(shares, (std::vector<std::pair<int, std::int64_t>>{{0, 43}, {1, 43}, {2, 42}}));
}

TEST(MxpGenerator, ClassicalRefinementMessageCount) {
  // P x Q = 2 x 3, N = 96, NB = 16 (6 blocks; row 0 holds blocks 0, 2, 4 and row 1
  // blocks 1, 3, 5), per iteration:
  //  x blocks down the columns (r = b - A x): 6 blocks x (P - 1) = 6
  //  allreduce of A x along each row (Q = 3: 2 -> 0, 0 <-> 1, 0 -> 2): 4 x 2 rows = 8
  //  2 norms, each an allreduce along every column (P = 2: 2 messages) x 3: 12
  //  L solve: 6 column rings of 1 message + partial sums to the next column for
  //    blocks 0..4, in two messages (HPLMXP_ptrsvL: the row's first block below
  //    the solved one, then the rest) when the row holds one or more blocks below:
  //    row 0 (blocks 0, 2, 4) 2 + 2 + 1 + 1 + 0 = 6, row 1 (1, 3, 5) 2 + 2 + 2 + 1 + 1 = 8: 20
  //  U solve, blocks 5..1 and the blocks above: 6 + (row 0: 2 + 2 + 2 + 1 + 1,
  //    row 1: 2 + 2 + 1 + 1 + 0) = 20
  // 66 per iteration, 132 for 2.
  MxpConfig c;
  c.n = 96;
  c.nb = 16;
  c.p = 2;
  c.q = 3;
  c.refinement_iterations = 2;
  const MxpScheduleGenerator g(c);
  StepSchedule s;
  g.step(g.steps(), s);
  EXPECT_TRUE(s.final_solve());
  EXPECT_EQ(sends_of(s).size(), 132u);
  EXPECT_TRUE(validate_schedule(6, {&s}).ok());
}

TEST(MxpGenerator, RefinementReductionsTakeTheMpiLibrarysAlgorithm) {
  // The grid of ClassicalRefinementMessageCount with a table that selects the
  // ring for every allreduce (and nothing for bcast: the binomial fallback).
  // A ring over p members sends 2 (p - 1) messages per member: the row
  // allreduce (Q = 3) 4 x 3 = 12 per row instead of 4, the norms (P = 2)
  // 2 x 2 = 4 per column instead of 2: per iteration 66 - 8 + 24 - 12 + 24 = 94.
  MxpConfig c;
  c.n = 96;
  c.nb = 16;
  c.p = 2;
  c.q = 3;
  c.refinement_iterations = 2;
  auto* sel = c.mpi.add_selections();
  sel->set_collective(hplsim::mpi::ALLREDUCE);
  sel->add_rules()->set_algorithm(hplsim::mpi::RING);
  const MxpScheduleGenerator g(c);
  StepSchedule s;
  g.step(g.steps(), s);
  EXPECT_EQ(sends_of(s).size(), 2u * 94u);
  EXPECT_TRUE(validate_schedule(6, {&s}).ok());
}

TEST(MxpGenerator, GmresRefinementAddsArnoldiReductions) {
  // Same grid, GMRES with 2 iterations (hand counts from the classical case:
  //  A-product 14, two solves 40, one reduction 6):
  //  start: 14 + 40 + 6 = 60; iteration 1: 14 + 40 + 2 x 6 = 66; iteration 2:
  //  14 + 40 + 3 x 6 = 72; final residual and norm: 14 + 6 = 20. Total 218.
  const MxpScheduleGenerator g(hand_counted_gmres());
  StepSchedule s;
  g.step(g.steps(), s);
  EXPECT_EQ(sends_of(s).size(), 218u);
}

TEST(MxpGenerator, RefinementMarksEndEachIteration) {
  // With refinement_marks every rank's final step marks where GMRES's
  // iterations start (id 0, after the first residual, solves and norm) and
  // where each ends (ids 1, 2), in that order, with the A-product's sends
  // between them; classical refinement marks its start (0) and each end.
  // Without them the step has no Mark and the same sends.
  for (const auto kind : {MxpConfig::Refinement::Gmres, MxpConfig::Refinement::Classical}) {
    MxpConfig c = small_mxp();
    c.refinement = kind;
    const MxpScheduleGenerator plain(c);
    c.refinement_marks = true;
    const MxpScheduleGenerator marked(c);
    StepSchedule a, b;
    plain.step(plain.steps(), a);
    marked.step(marked.steps(), b);
    EXPECT_EQ(sends_of(a), sends_of(b));
    ASSERT_EQ(b.ranks_size(), c.p * c.q);
    for (const RankProgram& r : b.ranks()) {
      std::vector<std::uint32_t> ids;
      std::vector<int> sends_before; // sends between consecutive marks
      int sends = 0;
      for (const Op& op : r.ops()) {
        if (op.has_send()) ++sends;
        if (!op.has_mark()) continue;
        ids.push_back(op.mark().id());
        sends_before.push_back(sends);
        sends = 0;
      }
      EXPECT_EQ(ids, (std::vector<std::uint32_t>{0, 1, 2})) << "rank " << r.rank();
      if (kind == MxpConfig::Refinement::Classical) {
        EXPECT_EQ(sends_before.front(), 0) << "rank " << r.rank();
      }
    }
    for (const RankProgram& r : a.ranks())
      for (const Op& op : r.ops())
        EXPECT_FALSE(op.has_mark());
    EXPECT_TRUE(validate_all(marked).ok()) << validate_all(marked).summary();
  }
}

TEST(MxpGenerator, GmresFirstPassLeftOutStartsAtMarkZero) {
  // Fast mode's GMRES refinement without its first residual, solves and norm
  // (refinement_first_pass_extrapolated): on the hand-counted grid above (2 x
  // 3, N 96, NB 16, 2 iterations) the step loses the start's 60 sends (A-product
  // 14 + two solves 40 + one reduction 6) and keeps 218 - 60 = 158; every rank
  // passes mark 0 before its first send, then marks 1 and 2 as before.
  MxpConfig c = hand_counted_gmres();
  c.refinement_marks = true;
  c.refinement_first_pass_extrapolated = true;
  const MxpScheduleGenerator g(c);
  StepSchedule s;
  g.step(g.steps(), s);
  EXPECT_EQ(sends_of(s).size(), 158u);
  for (const RankProgram& r : s.ranks()) {
    std::vector<std::uint32_t> ids;
    bool sent_before_mark0 = false, sent = false;
    for (const Op& op : r.ops()) {
      if (op.has_send()) sent = true;
      if (!op.has_mark()) continue;
      if (op.mark().id() == 0) sent_before_mark0 = sent;
      ids.push_back(op.mark().id());
    }
    EXPECT_EQ(ids, (std::vector<std::uint32_t>{0, 1, 2})) << "rank " << r.rank();
    EXPECT_FALSE(sent_before_mark0) << "rank " << r.rank();
  }
  EXPECT_TRUE(validate_all(g).ok()) << validate_all(g).summary();
}

TEST(MxpGenerator, FlopsHeaderAndErrors) {
  MxpConfig c = small_mxp();
  const MxpScheduleGenerator g(c);
  double sum = 0.0;
  for (std::int64_t k = 0; k <= g.steps(); ++k)
    sum += g.step_flops(k);
  // 2/3 96^3 + 3/2 96^2 = 589824 + 13824 = 603648.
  EXPECT_NEAR(sum, 603648.0, 1e-6);
  EXPECT_NEAR(g.total_flops(), 603648.0, 1e-6);
  const ScheduleHeader h = g.header();
  EXPECT_EQ(h.benchmark(), HPL_MXP);
  EXPECT_EQ(h.storage(), BF16);
  EXPECT_EQ(h.steps(), 6);
  c.refinement_iterations = 0;
  EXPECT_THROW(MxpScheduleGenerator{c}, std::invalid_argument);
  c = small_mxp();
  c.storage = FP64;
  EXPECT_THROW(MxpScheduleGenerator{c}, std::invalid_argument);
  c = small_mxp();
  c.gpus_per_rank = 0;
  EXPECT_THROW(MxpScheduleGenerator{c}, std::invalid_argument);
  StepSchedule s;
  EXPECT_THROW(g.step(7, s), std::out_of_range);
}

TEST(MxpGenerator, SeededRandomConfigurationsAreConsistent) {
  // 40 configurations from a fixed seed: grids up to 6 x 6, partial last blocks,
  // every broadcast, chunked or whole messages, 1-4 GPUs, CPU or GPU panels,
  // staging, both refinements.
  std::mt19937 rng(777);
  const auto draw = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int i = 0; i < 40; ++i) {
    MxpConfig c;
    c.nb = draw(1, 10);
    c.n = draw(1, 90);
    c.p = draw(1, 6);
    c.q = draw(1, 6);
    c.depth = draw(0, 1);
    c.column_major = draw(0, 1) == 1;
    c.gpus_per_rank = draw(1, 4);
    c.storage = draw(0, 1) == 1 ? BF16 : FP32;
    c.bcast = static_cast<HplConfig::Bcast>(draw(0, 5));
    c.bcast_chunk_bytes = 64 * draw(0, 3);
    c.panel_resource = draw(0, 1) == 1 ? GPU : CPU;
    c.host_staged = draw(0, 1) == 1;
    c.refinement = draw(0, 1) == 1 ? MxpConfig::Refinement::Gmres : MxpConfig::Refinement::Classical;
    c.refinement_iterations = draw(1, 3);
    const ValidationReport r = validate_all(MxpScheduleGenerator(c));
    EXPECT_TRUE(r.ok()) << "config " << i << ": " << r.summary();
  }
}

TEST(MxpGenerator, GpuAwarePanelBroadcastsAreDeviceBuffers) {
  // device_messages (GPU-aware MPI): the L and U panel broadcasts send and
  // receive GPU memory; the diagonal block (factored on the CPU here) and the
  // refinement's messages stay in host memory. Off: nothing is marked.
  for (bool on : {false, true}) {
    MxpConfig c = small_mxp();
    c.panel_resource = CPU;
    c.device_messages = on;
    const MxpScheduleGenerator g(c);
    int device = 0, host = 0;
    for (std::int64_t k = 0; k <= g.steps(); ++k) {
      StepSchedule s;
      g.step(k, s);
      for (const RankProgram& r : s.ranks())
        for (const Op& op : r.ops())
          if (op.has_send() || op.has_recv()) {
            const bool dev = op.has_send() ? op.send().device() : op.recv().device();
            if (dev) {
              EXPECT_EQ(op.has_send() ? op.send().phase() : op.recv().phase(), BCAST);
            }
            (dev ? device : host) += 1;
          }
    }
    EXPECT_GT(host, 0);
    if (on) {
      EXPECT_GT(device, 0);
    } else {
      EXPECT_EQ(device, 0);
    }
  }
}

TEST(MxpGenerator, CpuPanelSolvesRunWhileTheGpusUpdate) {
  // CPU panels (Aurora's setting): the diagonal block's owner broadcasts the
  // factored block before its solves, and every owner launches panel k-1's
  // trailing update on its GPUs before its CPU solves, so that the two overlap
  // (docs/at-scale.md, "The MxP schedule's CPU-GPU pipeline"). Step 1 of a
  // 3 x 4 grid, N 96, NB 16: diagonal owner (1, 1); every rank still holds
  // trailing rows and columns, so each of its 2 GPUs gets a share.
  MxpConfig c = small_mxp();
  c.panel_resource = CPU;
  c.gpus_per_rank = 2;
  const MxpScheduleGenerator g(c);
  StepSchedule s;
  const std::int64_t k = 1;
  g.step(k, s);
  const int diag_row = static_cast<int>(k % c.p), diag_col = static_cast<int>(k % c.q);
  int checked = 0;
  for (const RankProgram& r : s.ranks()) {
    const int row = g.grid().row_of(r.rank()), col = g.grid().col_of(r.rank());
    if (row != diag_row && col != diag_col) continue;
    int first_cpu_trsm = -1, last_async_gemm = -1, first_send = -1, async_gemms = 0;
    for (int i = 0; i < r.ops_size(); ++i) {
      const Op& op = r.ops(i);
      if (op.has_compute() && op.compute().kernel() == KERNEL_TRSM && op.compute().resource() == CPU &&
          first_cpu_trsm < 0)
        first_cpu_trsm = i;
      if (op.has_compute() && op.compute().kernel() == KERNEL_GEMM && op.compute().async_tag() != 0) {
        last_async_gemm = i;
        ++async_gemms;
      }
      if (op.has_send() && first_send < 0) first_send = i;
    }
    SCOPED_TRACE("rank " + std::to_string(r.rank()));
    ASSERT_GE(first_cpu_trsm, 0);
    EXPECT_EQ(async_gemms, c.gpus_per_rank);
    EXPECT_LT(last_async_gemm, first_cpu_trsm);
    if (row == diag_row && col == diag_col) {
      ASSERT_GE(first_send, 0);
      EXPECT_LT(first_send, first_cpu_trsm);
    }
    ++checked;
  }
  EXPECT_EQ(checked, c.p + c.q - 1);
  EXPECT_TRUE(validate_all(g).ok());
}
