// Row-swap patterns against hand-traced runs of src/pgesv/HPL_pdlaswp00T.c and
// HPL_pdlaswp01T.c (HPL_spreadT, HPL_rollT, HPL_logsort) with the expected-value
// pivot model of traces/hpl_swap.hpp.
#include "traces/hpl_swap.hpp"

#include <gtest/gtest.h>

#include <numeric>

#include "pattern_util.hpp"

using namespace hplsim::traces;
using namespace hplsim::traces::test;

TEST(ExpectedPivotRows, AreProportionalToActiveRows) {
  // N = 100, NB = 10, P = 3, panel 0: process rows hold 40, 30, 30 of the 100
  // active rows, so 10 pivots split exactly 4, 3, 3.
  EXPECT_EQ(expected_pivot_rows(0, 100, 10, 10, 3, 0), (std::vector<std::int64_t>{4, 3, 3}));
}

TEST(ExpectedPivotRows, RoundsByLargestRemainderWithTiesNearestThePanelRow) {
  // Panel 1 (rows [10, 100)): 30 active rows on each process row, 10 * 30 / 90 =
  // 3.33 each; the one left over goes to the panel's own row 1 (distance 0).
  EXPECT_EQ(expected_pivot_rows(10, 100, 10, 10, 3, 1), (std::vector<std::int64_t>{3, 4, 3}));
  // N = 95: rows 35, 30, 30 -> 3.68, 3.16, 3.16 -> the extra one to row 0.
  EXPECT_EQ(expected_pivot_rows(0, 95, 10, 10, 3, 0), (std::vector<std::int64_t>{4, 3, 3}));
}

TEST(ExpectedPivotRows, SumToThePanelWidth) {
  for (std::int64_t j : {0, 384, 3840, 9600})
    for (int p : {1, 2, 7, 30}) {
      const auto c = expected_pivot_rows(j, 10000, 384, std::min<std::int64_t>(384, 10000 - j), p, 0);
      EXPECT_EQ(std::accumulate(c.begin(), c.end(), std::int64_t{0}), std::min<std::int64_t>(384, 10000 - j));
    }
}

TEST(ChooseSwap, MixUsesSpreadRollAboveTheThreshold) {
  // HPL_pdupdateTT: SWAP01 or (mix and n > threshold) -> HPL_pdlaswp01T.
  EXPECT_EQ(choose_swap(HplConfig::Swap::Mix, 64, 64), SwapAlgorithm::BinaryExchange);
  EXPECT_EQ(choose_swap(HplConfig::Swap::Mix, 65, 64), SwapAlgorithm::SpreadRoll);
  EXPECT_EQ(choose_swap(HplConfig::Swap::BinaryExchange, 1000, 64), SwapAlgorithm::BinaryExchange);
  EXPECT_EQ(choose_swap(HplConfig::Swap::SpreadRoll, 1, 64), SwapAlgorithm::SpreadRoll);
}

namespace {
std::vector<Msg> binex(const SwapLayout& s, int row, std::int64_t ncols) {
  Pattern p;
  binary_exchange_pattern(s, row, ncols, p);
  return flat(p);
}
} // namespace

TEST(BinaryExchangeSwap, NonPowerOfTwoFoldsTheLastRow) {
  // P = 3, panel row 0, pivots {4, 3, 3}, jb = 10, 5 columns: U = 10*5*8 = 400 B,
  // a W block of r rows = r * (5 + 1) * 8 = 48 r B. ip2 = 2, one extra row (2):
  //  fold-in:  2 -> 0 its 3 rows (144 B) while 0 -> 2 U (400 B)   (one HPL_sdrv)
  //  halving:  0 <-> 1: 0 sends U (400), gets row 1's 3 rows (144)
  //  fold-out: 0 -> 2 the complete U (400)
  const SwapLayout s = make_swap_layout(0, 100, 10, 10, 3, 0);
  EXPECT_EQ(binex(s, 0, 5), (std::vector<Msg>{X(2, 400, 144), X(1, 400, 144), S(2, 400)}));
  EXPECT_EQ(binex(s, 1, 5), (std::vector<Msg>{X(0, 144, 400)}));
  EXPECT_EQ(binex(s, 2, 5), (std::vector<Msg>{X(0, 144, 400), R(0, 400)}));
}

TEST(BinaryExchangeSwap, PowerOfTwoHalvesInLogPSteps) {
  // P = 4, N = 80, NB = 10, panel 1 (rows [10, 80), panel row 1): active rows per
  // process row 10, 20, 20, 20 -> 10 * r / 70 = 1.43, 2.86, 2.86, 2.86 -> pivots
  // {1, 3, 3, 3}. 2 columns: U = 10*2*8 = 160 B, W of r rows = r*3*8 = 24 r B.
  // Distances from row 1: d0 = row 1, d1 = row 2 (3 rows), d2 = row 3 (3), d3 = row 0 (1).
  //  bit 1: d0 <-> d1: U (160) for 3 rows (72);  d2 <-> d3: 3 rows (72) for 1 (24)
  //  bit 2: d0 <-> d2: U for rows of {d2, d3} = 4 (96);  d1 <-> d3: U for 4 rows (96)
  const SwapLayout s = make_swap_layout(10, 80, 10, 10, 4, 1);
  ASSERT_EQ(s.pivots, (std::vector<std::int64_t>{1, 3, 3, 3}));
  EXPECT_EQ(binex(s, 1, 2), (std::vector<Msg>{X(2, 160, 72), X(3, 160, 96)}));
  EXPECT_EQ(binex(s, 2, 2), (std::vector<Msg>{X(1, 72, 160), X(0, 160, 96)}));
  EXPECT_EQ(binex(s, 3, 2), (std::vector<Msg>{X(0, 72, 24), X(1, 96, 160)}));
  EXPECT_EQ(binex(s, 0, 2), (std::vector<Msg>{X(3, 24, 72), X(2, 96, 160)}));
}

TEST(BinaryExchangeSwap, SkipsEmptyRowBlocks) {
  // P = 2, N = 20, NB = 10, panel 1 (rows [10, 20)): only row 1 has active rows, so
  // row 0 contributes nothing: HPL_sdrv with a zero count only receives U.
  const SwapLayout s = make_swap_layout(10, 20, 10, 10, 2, 1);
  ASSERT_EQ(s.pivots, (std::vector<std::int64_t>{0, 10}));
  EXPECT_EQ(binex(s, 1, 3), (std::vector<Msg>{X(0, 240, 0)}));
  EXPECT_EQ(binex(s, 0, 3), (std::vector<Msg>{X(1, 0, 240)}));
}

TEST(SpreadRollSwap, ScattersThenRollsSegments) {
  // Same layout as the power-of-two case: pivots {1, 3, 3, 3}, panel row 1.
  // Positions (HPL_logsort): 0 -> row 1 (3 rows), 1 -> row 2 (3), 2 -> row 3 (3),
  // 3 -> row 0 (1); no swap (pos 3, two one bits, already has the shortest).
  // Segments [0,3) [3,6) [6,9) [9,10). 100 columns: r rows = 800 r bytes.
  const SwapLayout s = make_swap_layout(10, 80, 10, 10, 4, 1);
  EXPECT_EQ(s.ipmap, (std::vector<int>{1, 2, 3, 0}));
  EXPECT_EQ(s.segment_begin, (std::vector<std::int64_t>{0, 3, 6, 9, 10}));
  Pattern spread, roll;
  // Position 0 (row 1): spread pos 2..3 (4 rows) to row 3, pos 1 (3 rows) to row 2;
  // roll: k0 next (row 2) seg0/seg1, k1 prev (row 0) seg0/seg3, k2 next seg3/seg2.
  spread_roll_pattern(s, 1, 100, spread, roll);
  EXPECT_EQ(flat(spread), (std::vector<Msg>{S(3, 3200), S(2, 2400)}));
  EXPECT_EQ(flat(roll), (std::vector<Msg>{X(2, 2400, 2400), X(0, 2400, 800), X(2, 800, 2400)}));
  // Position 2 (row 3): gets 4 rows from row 1, passes pos 3's row on to row 0;
  // roll: k0 next (row 0) seg2/seg3, k1 prev (row 2) seg2/seg1, k2 next seg1/seg0.
  spread.clear();
  roll.clear();
  spread_roll_pattern(s, 3, 100, spread, roll);
  EXPECT_EQ(flat(spread), (std::vector<Msg>{R(1, 3200), S(0, 800)}));
  EXPECT_EQ(flat(roll), (std::vector<Msg>{X(0, 2400, 800), X(2, 2400, 2400), X(0, 2400, 2400)}));
  // Position 3 (row 0): k0 prev (row 3) seg3/seg2, k1 next (row 1) seg3/seg0, k2 prev seg0/seg1.
  spread.clear();
  roll.clear();
  spread_roll_pattern(s, 0, 100, spread, roll);
  EXPECT_EQ(flat(spread), (std::vector<Msg>{R(3, 800)}));
  EXPECT_EQ(flat(roll), (std::vector<Msg>{X(3, 800, 2400), X(1, 800, 2400), X(3, 2400, 2400)}));
}

TEST(SpreadRollSwap, LogsortMovesALongerSegmentToAPositionWithFewerOneBits) {
  // P = 8, NB = 20, N = 160, panel 0, jb = 12: 20 active rows per process row ->
  // 12 * 20 / 160 = 1.5 each; the 4 left over go to distances 0..3:
  // lengths by position {2, 2, 2, 2, 1, 1, 1, 1}. HPL_logsort, popcount 1 first:
  // position 4 (one 1 bit, length 1) is shorter than position 3 (two bits,
  // length 2): they swap; nothing else moves. Positions -> rows {0, 1, 2, 4, 3, 5, 6, 7},
  // segment starts {0, 2, 4, 6, 7, 9, 10, 11, 12}.
  const SwapLayout s = make_swap_layout(0, 160, 20, 12, 8, 0);
  EXPECT_EQ(s.pivots, (std::vector<std::int64_t>{2, 2, 2, 2, 1, 1, 1, 1}));
  EXPECT_EQ(s.ipmap, (std::vector<int>{0, 1, 2, 4, 3, 5, 6, 7}));
  EXPECT_EQ(s.ipmapm1, (std::vector<int>{0, 1, 2, 4, 3, 5, 6, 7}));
  EXPECT_EQ(s.segment_begin, (std::vector<std::int64_t>{0, 2, 4, 6, 7, 9, 10, 11, 12}));
}

TEST(SpreadRollSwap, SegmentsTileTheUBlockInPositionOrder) {
  // Uneven tail (N = 95, NB = 10, P = 8): segments still cover [0, jb) and each is
  // its process row's pivot count.
  const SwapLayout s = make_swap_layout(0, 95, 10, 10, 8, 0);
  EXPECT_EQ(s.segment_begin.front(), 0);
  EXPECT_EQ(s.segment_begin.back(), 10);
  for (int pos = 0; pos < 8; ++pos)
    EXPECT_EQ(s.segment_rows(pos),
              s.pivots[static_cast<std::size_t>(s.ipmap[static_cast<std::size_t>(pos)])]);
}
