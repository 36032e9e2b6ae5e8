// Pivot search (src/pfact/HPL_pdmxswp.c) and recursive panel structure
// (src/pfact/HPL_pdrpan*N.c) against hand traces.
#include "traces/hpl_pfact.hpp"

#include <algorithm>
#include <stdexcept>

#include <gtest/gtest.h>

#include "pattern_util.hpp"

using namespace hplsim::traces;
using namespace hplsim::traces::test;

namespace {
std::vector<Msg> pivots(int row, int icurrow, int p, std::int64_t jb) {
  Pattern out;
  pivot_exchange_pattern(row, icurrow, p, jb, out);
  return flat(out);
}
// jb = 10: WORK = 4 + jb = 14 doubles = 112 B; WORK + diagonal row = 4 + 2 jb = 24
// doubles = 192 B; the diagonal row alone = 10 doubles = 80 B.
constexpr std::int64_t kWork = 112, kWorkDiag = 192, kDiag = 80;
} // namespace

TEST(PivotExchange, FourRowsExchangeInTwoRounds) {
  // P = 4, panel row 0: round bit 1 pairs (0,1) (2,3), round bit 2 pairs (0,2) (1,3).
  // The lower member of a pair inside [0, 2 bit) already holds the diagonal row and
  // sends WORK + row (192 B), getting WORK (112 B) back; other pairs swap WORK.
  EXPECT_EQ(pivots(0, 0, 4, 10), (std::vector<Msg>{X(1, kWorkDiag, kWork), X(2, kWorkDiag, kWork)}));
  EXPECT_EQ(pivots(1, 0, 4, 10), (std::vector<Msg>{X(0, kWork, kWorkDiag), X(3, kWorkDiag, kWork)}));
  EXPECT_EQ(pivots(2, 0, 4, 10), (std::vector<Msg>{X(3, kWork, kWork), X(0, kWork, kWorkDiag)}));
  EXPECT_EQ(pivots(3, 0, 4, 10), (std::vector<Msg>{X(2, kWork, kWork), X(1, kWork, kWorkDiag)}));
  // 4 ranks x 2 rounds = 8 messages per panel column.
  EXPECT_EQ(pivot_messages_per_column(4), 8);
}

TEST(PivotExchange, SixRowsFoldTheTwoExtraRows) {
  // P = 6, panel row 0: ip2 = 4, rows 4 and 5 fold into 0 and 1.
  //  row 4 <-> 0: one HPL_sdrv, 4 sends WORK (112), 0 sends the diagonal row (80)
  //  row 5 -> 1: WORK (112)
  //  rows 0..3: the P = 4 exchange
  //  rows 4 -> 5: the diagonal row (80), binomial tree among the extra rows
  //  0 -> 4, 1 -> 5: the final WORK (112)
  EXPECT_EQ(pivots(0, 0, 6, 10), (std::vector<Msg>{X(4, kDiag, kWork), X(1, kWorkDiag, kWork),
                                                   X(2, kWorkDiag, kWork), S(4, kWork)}));
  EXPECT_EQ(pivots(1, 0, 6, 10),
            (std::vector<Msg>{X(5, 0, kWork), X(0, kWork, kWorkDiag), X(3, kWorkDiag, kWork), S(5, kWork)}));
  EXPECT_EQ(pivots(2, 0, 6, 10), (std::vector<Msg>{X(3, kWork, kWork), X(0, kWork, kWorkDiag)}));
  EXPECT_EQ(pivots(4, 0, 6, 10), (std::vector<Msg>{X(0, kWork, kDiag), S(5, kDiag), R(0, kWork)}));
  EXPECT_EQ(pivots(5, 0, 6, 10), (std::vector<Msg>{X(1, kWork, 0), R(4, kDiag), R(1, kWork)}));
  // Messages: 2 (4<->0) + 1 (5->1) + 8 (hypercube) + 1 (4->5) + 2 (fold-out) = 14.
  EXPECT_EQ(pivot_messages_per_column(6), 14);
}

TEST(PivotExchange, IsRelativeToThePanelRow) {
  // P = 6 with the panel on row 2: distances shift, row 2 plays distance 0.
  EXPECT_EQ(pivots(2, 2, 6, 10), (std::vector<Msg>{X(0, kDiag, kWork), X(3, kWorkDiag, kWork),
                                                   X(4, kWorkDiag, kWork), S(0, kWork)}));
}

TEST(PivotExchange, OneRowHasNoMessages) {
  EXPECT_TRUE(pivots(0, 0, 1, 10).empty());
  EXPECT_EQ(pivot_messages_per_column(1), 0);
}

namespace {
struct C {
  Kernel kernel;
  std::int64_t m, n, k;
  bool operator==(const C&) const = default;
};
std::vector<C> computes(const RankProgram& prog) {
  std::vector<C> out;
  for (const Op& op : prog.ops())
    if (op.has_compute())
      out.push_back({op.compute().kernel(), op.compute().m(), op.compute().n(), op.compute().k()});
  return out;
}
// RightLookingRecursionByHand's kernels: P = 1, N = 40, jb = 8, NBMIN 2, NDIV 2.
const std::vector<C>& right_looking_by_hand() {
  static const std::vector<C> kernels = {
      {KERNEL_PFACT_COLUMN, 39, 2, 0}, {KERNEL_PFACT_COLUMN, 38, 2, 1}, {KERNEL_TRSM, 2, 2, 0},
      {KERNEL_GEMM, 38, 2, 2},         {KERNEL_PFACT_COLUMN, 37, 2, 0}, {KERNEL_PFACT_COLUMN, 36, 2, 1},
      {KERNEL_TRSM, 4, 4, 0},          {KERNEL_GEMM, 36, 4, 4},         {KERNEL_PFACT_COLUMN, 35, 2, 0},
      {KERNEL_PFACT_COLUMN, 34, 2, 1}, {KERNEL_TRSM, 2, 2, 0},          {KERNEL_GEMM, 34, 2, 2},
      {KERNEL_PFACT_COLUMN, 33, 2, 0}, {KERNEL_PFACT_COLUMN, 32, 2, 1}};
  return kernels;
}
} // namespace

TEST(PanelFactorization, RightLookingRecursionByHand) {
  // P = 1, N = 40, jb = 8, NBMIN = 2, NDIV = 2. HPL_pdrpanrlN splits 8 -> chunks of
  // ceil(ceil(8/2)/2)*2 = 4, and 4 -> 2 + 2 (base cases). Local rows below panel
  // column c: 40 - c - 1. After a chunk, TRSM (chunk x rest) and GEMM with the rows
  // below the chunk.
  HplConfig cfg;
  cfg.nbmin = 2;
  cfg.ndiv = 2;
  cfg.pfact = HplConfig::Pfact::Right;
  RankProgram prog;
  ProgramBuilder b(&prog);
  const ProcessGrid grid(1, 1, false);
  emit_panel_factorization(b, Communicator::column(grid, 0), 0, PanelGeometry{40, 8, 0, 8, 1, 0}, cfg);
  const std::vector<C>& expected = right_looking_by_hand();
  EXPECT_EQ(computes(prog), expected);
  EXPECT_EQ(prog.ops_size(), static_cast<int>(expected.size())); // P = 1: no pivot messages
}

TEST(PanelFactorization, LeftAndCroutUpdateBeforeFactoring) {
  // Same panel, NBMIN = 4 (one level: chunks 4 + 4).
  //  Left (HPL_pdrpanllN): chunk 2 first gets TRSM (4 x 4 with the first 4 columns)
  //   and GEMM (rows from column 4 = 36, 4 columns, k = 4).
  //  Crout (HPL_pdrpancrN): chunk 1 then GEMM (4 x 4 x 0: skipped) + TRSM (4 x 4);
  //   chunk 2 gets GEMM (36 x 4 x 4) first.
  HplConfig cfg;
  cfg.nbmin = 4;
  cfg.ndiv = 2;
  const ProcessGrid grid(1, 1, false);
  cfg.pfact = HplConfig::Pfact::Left;
  RankProgram left;
  ProgramBuilder bl(&left);
  emit_panel_factorization(bl, Communicator::column(grid, 0), 0, PanelGeometry{40, 8, 0, 8, 1, 0}, cfg);
  const std::vector<C> exp_left = {{KERNEL_PFACT_COLUMN, 39, 4, 0}, {KERNEL_PFACT_COLUMN, 38, 4, 1},
                                   {KERNEL_PFACT_COLUMN, 37, 4, 2}, {KERNEL_PFACT_COLUMN, 36, 4, 3},
                                   {KERNEL_TRSM, 4, 4, 0},          {KERNEL_GEMM, 36, 4, 4},
                                   {KERNEL_PFACT_COLUMN, 35, 4, 0}, {KERNEL_PFACT_COLUMN, 34, 4, 1},
                                   {KERNEL_PFACT_COLUMN, 33, 4, 2}, {KERNEL_PFACT_COLUMN, 32, 4, 3}};
  EXPECT_EQ(computes(left), exp_left);
  cfg.pfact = HplConfig::Pfact::Crout;
  RankProgram crout;
  ProgramBuilder bc(&crout);
  emit_panel_factorization(bc, Communicator::column(grid, 0), 0, PanelGeometry{40, 8, 0, 8, 1, 0}, cfg);
  const std::vector<C> exp_crout = {{KERNEL_PFACT_COLUMN, 39, 4, 0}, {KERNEL_PFACT_COLUMN, 38, 4, 1},
                                    {KERNEL_PFACT_COLUMN, 37, 4, 2}, {KERNEL_PFACT_COLUMN, 36, 4, 3},
                                    {KERNEL_TRSM, 4, 4, 0},          {KERNEL_GEMM, 36, 4, 4},
                                    {KERNEL_PFACT_COLUMN, 35, 4, 0}, {KERNEL_PFACT_COLUMN, 34, 4, 1},
                                    {KERNEL_PFACT_COLUMN, 33, 4, 2}, {KERNEL_PFACT_COLUMN, 32, 4, 3}};
  EXPECT_EQ(computes(crout), exp_crout);
}

TEST(PanelFactorization, ExchangesOnePivotPerColumnOnEveryRowOfTheColumn) {
  // P = 4, jb = 8, NBMIN >= jb (no recursion): 8 columns x the P = 4 pattern
  // (2 HPL_sdrv = 6 ops) + 1 column compute per rank; off the diagonal row the
  // local rows do not shrink (N = 64, NB = 8: row 1 holds 16 rows of [0, 64)).
  HplConfig cfg;
  cfg.nbmin = 8;
  const ProcessGrid grid(4, 1, false);
  RankProgram prog;
  ProgramBuilder b(&prog);
  emit_panel_factorization(b, Communicator::column(grid, 0), 1, PanelGeometry{64, 8, 0, 8, 4, 0}, cfg);
  EXPECT_EQ(prog.ops_size(), 8 * (6 + 1));
  int sends = 0;
  for (const Op& op : prog.ops()) {
    if (op.has_send()) {
      ++sends;
      EXPECT_EQ(op.send().phase(), PFACT);
    }
    if (op.has_compute()) {
      EXPECT_EQ(op.compute().m(), 16);
      EXPECT_EQ(op.compute().resource(), CPU);
    }
  }
  EXPECT_EQ(sends, 8 * 2);
}

TEST(PanelFactorization, PivotGroupAggregatesExchangesAndKeepsTheirBytes) {
  // Same panel as above (P = 4, jb = 8, no recursion), fast mode's pivot_group 4:
  // the 8 per-column exchanges become 2 (columns 0 and 4), each carrying 4
  // columns' bytes with its receives marked repeat = 4; the 8 column computes stay.
  HplConfig one;
  one.nbmin = 8;
  HplConfig grouped = one;
  grouped.pivot_group = 4;
  const ProcessGrid grid(4, 1, false);
  const auto totals = [&](const HplConfig& cfg, int& sends, int& computes, std::int64_t& send_bytes,
                          std::int64_t& recv_bytes, std::uint32_t& max_repeat) {
    RankProgram prog;
    ProgramBuilder b(&prog);
    emit_panel_factorization(b, Communicator::column(grid, 0), 1, PanelGeometry{64, 8, 0, 8, 4, 0}, cfg);
    sends = computes = 0;
    send_bytes = recv_bytes = 0;
    max_repeat = 0;
    for (const Op& op : prog.ops()) {
      sends += op.has_send();
      computes += op.has_compute();
      if (op.has_send()) send_bytes += op.send().bytes();
      if (op.has_recv()) {
        recv_bytes += op.recv().bytes();
        max_repeat = std::max(max_repeat, op.recv().repeat());
      }
    }
  };
  int s1 = 0, c1 = 0, s4 = 0, c4 = 0;
  std::int64_t sb1 = 0, rb1 = 0, sb4 = 0, rb4 = 0;
  std::uint32_t r1 = 0, r4 = 0;
  totals(one, s1, c1, sb1, rb1, r1);
  totals(grouped, s4, c4, sb4, rb4, r4);
  EXPECT_EQ(s1, 8 * 2); // as above
  EXPECT_EQ(s4, 2 * 2); // two grouped exchanges of 2 rounds
  EXPECT_EQ(c4, c1);    // every column's compute is kept
  EXPECT_EQ(sb4, sb1);  // bytes conserved
  EXPECT_EQ(rb4, rb1);
  EXPECT_EQ(r1, 0u); // ordinary messages leave repeat unset
  EXPECT_EQ(r4, 4u);
}

TEST(PanelFactorization, AMembersLocalRowsByHand) {
  // P = 6, NB = 64, N = 1000, the panel of step 3 (rows from 192, process row
  // 3 on the diagonal). Rows 192 to 999 are blocks 3..15 (the last of 40
  // rows), process row b mod 6 holding block b: row 3 holds blocks 3, 9, 15,
  // 168 rows, one fewer below each panel column (104 below the 64th); rows 4,
  // 5, 0, 1, 2 hold two full blocks each, 128 rows below every panel column
  // (the panel's rows are row 3's). So the six members take two parts.
  const PanelGeometry g{1000, 64, 192, 64, 6, 3};
  std::vector<std::vector<std::int64_t>> distinct;
  for (int row = 0; row < 6; ++row) {
    std::vector<std::int64_t> rows;
    panel_local_rows(row, g, rows);
    ASSERT_EQ(rows.size(), 65U) << row;
    for (std::size_t c = 0; c < rows.size(); ++c)
      EXPECT_EQ(rows[c], row == 3 ? 168 - static_cast<std::int64_t>(c) : 128) << row << " " << c;
    if (std::find(distinct.begin(), distinct.end(), rows) == distinct.end()) distinct.push_back(rows);
  }
  EXPECT_EQ(distinct.size(), 2U);
}

TEST(PanelFactorization, TheListingReadsTheMemberOnlyThroughItsLocalRows) {
  // The hand trace of RightLookingRecursionByHand (P = 1, N = 40, jb = 8,
  // NBMIN 2, NDIV 2: local rows below panel column c are 40 - c) from its local
  // rows; other rows (100 below every column) change the kernels' row counts
  // and nothing else.
  HplConfig cfg;
  cfg.nbmin = 2;
  cfg.ndiv = 2;
  cfg.pfact = HplConfig::Pfact::Right;
  const PanelGeometry g{40, 8, 0, 8, 1, 0};
  std::vector<std::int64_t> rows;
  for (std::int64_t c = 0; c <= 8; ++c)
    rows.push_back(40 - c);
  std::vector<PanelWork> work;
  panel_factorization_work(rows, g, cfg, work);
  std::vector<C> kernels;
  int exchanges = 0;
  for (const PanelWork& w : work) {
    if (w.exchange)
      ++exchanges;
    else
      kernels.push_back({w.kernel, w.m, w.n, w.k});
  }
  const std::vector<C>& expected = right_looking_by_hand();
  EXPECT_EQ(kernels, expected);
  EXPECT_EQ(exchanges, 8); // one pivot exchange per panel column
  std::vector<PanelWork> flat;
  panel_factorization_work(std::vector<std::int64_t>(9, 100), g, cfg, flat);
  ASSERT_EQ(flat.size(), work.size());
  for (std::size_t i = 0; i < flat.size(); ++i) {
    PanelWork w = work[i];
    if (!w.exchange && w.kernel != KERNEL_TRSM) w.m = 100; // the row counts; TRSM's m is a width
    EXPECT_TRUE(flat[i] == w) << i;
  }
  std::vector<PanelWork> out;
  EXPECT_THROW(panel_factorization_work(std::vector<std::int64_t>(10, 5), g, cfg, out),
               std::invalid_argument);
}
