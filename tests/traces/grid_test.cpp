#include "traces/grid.hpp"

#include <gtest/gtest.h>

using namespace hplsim::traces;

TEST(Numroc, MatchesHandCountsForTwoProcesses) {
  // N = 10, NB = 3 over 2 processes: blocks [0,3)->0, [3,6)->1, [6,9)->0, [9,10)->1,
  // so process 0 holds 3 + 3 = 6 indices and process 1 holds 3 + 1 = 4.
  EXPECT_EQ(numroc(10, 3, 0, 2), 6);
  EXPECT_EQ(numroc(10, 3, 1, 2), 4);
}

TEST(Numroc, MatchesHandCountsWithEmptyProcess) {
  // N = 7, NB = 4 over 3 processes: [0,4)->0, [4,7)->1, nothing for 2.
  EXPECT_EQ(numroc(7, 4, 0, 3), 4);
  EXPECT_EQ(numroc(7, 4, 1, 3), 3);
  EXPECT_EQ(numroc(7, 4, 2, 3), 0);
  // N = 10, NB = 3 over 3: blocks 0,1,2,3 -> processes 0,1,2,0 with sizes 3,3,3,1.
  EXPECT_EQ(numroc(10, 3, 0, 3), 4);
  EXPECT_EQ(numroc(10, 3, 1, 3), 3);
  EXPECT_EQ(numroc(10, 3, 2, 3), 3);
}

TEST(Numroc, CountsSumToN) {
  // Every index is held by exactly one process.
  for (std::int64_t n : {0, 1, 17, 384, 1000})
    for (int procs : {1, 3, 7}) {
      std::int64_t sum = 0;
      for (int p = 0; p < procs; ++p)
        sum += numroc(n, 5, p, procs);
      EXPECT_EQ(sum, n) << "n=" << n << " procs=" << procs;
    }
}

TEST(LocalCount, MatchesHplNumrocIByHand) {
  // Rows [4, 10) with NB = 3 over 2 processes: rows 4,5 (block 1) and 9 (block 3)
  // on process 1, rows 6..8 (block 2) on process 0. HPL_numrocI(6, 4, 3, 3, p, 0, 2)
  // by hand: inb = -1 -> first partial block of 2 rows on process 1, then 2 more
  // blocks: 3 for process 0, 2 + 1 = 3 for process 1.
  EXPECT_EQ(local_count(4, 10, 3, 0, 2), 3);
  EXPECT_EQ(local_count(4, 10, 3, 1, 2), 3);
  EXPECT_EQ(local_count(10, 4, 3, 1, 2), 0); // empty range
}

TEST(OwnerOf, FollowsTheBlockCycle) {
  EXPECT_EQ(owner_of(0, 3, 2), 0);
  EXPECT_EQ(owner_of(5, 3, 2), 1);
  EXPECT_EQ(owner_of(9, 3, 2), 1);  // block 3
  EXPECT_EQ(owner_of(10, 3, 3), 0); // block 3 of 3 processes
}

TEST(FloorPow2, IsLargestPowerOfTwoNotAbove) {
  EXPECT_EQ(floor_pow2(1), 1);
  EXPECT_EQ(floor_pow2(5), 4);
  EXPECT_EQ(floor_pow2(8), 8);
  EXPECT_EQ(floor_pow2(30), 16);
  EXPECT_EQ(floor_pow2(162), 128);
}

TEST(ProcessGrid, NumbersRanksRowMajorAndColumnMajor) {
  // HPL_grid_init: row-major rank = row * Q + col; column-major rank = col * P + row.
  const ProcessGrid rm(2, 3, false), cm(2, 3, true);
  EXPECT_EQ(rm.rank(1, 0), 3);
  EXPECT_EQ(cm.rank(1, 0), 1);
  EXPECT_EQ(rm.rank(1, 2), 5);
  EXPECT_EQ(cm.rank(0, 2), 4);
  for (int r = 0; r < 6; ++r) {
    EXPECT_EQ(rm.rank(rm.row_of(r), rm.col_of(r)), r);
    EXPECT_EQ(cm.rank(cm.row_of(r), cm.col_of(r)), r);
  }
  EXPECT_EQ(cm.row_of(3), 1);
  EXPECT_EQ(cm.col_of(3), 1);
}

TEST(Communicator, MapsMembersOfRowsAndColumns) {
  const ProcessGrid rm(2, 3, false), cm(2, 3, true);
  // Row 1, row-major: ranks 3, 4, 5; column-major: ranks 1, 3, 5.
  const Communicator r_rm = Communicator::row(rm, 1), r_cm = Communicator::row(cm, 1);
  EXPECT_EQ(r_rm.size, 3);
  EXPECT_EQ(r_rm.rank_of(2), 5);
  EXPECT_EQ(r_cm.rank_of(0), 1);
  EXPECT_EQ(r_cm.rank_of(1), 3);
  // Column 2, row-major: ranks 2, 5; column-major: ranks 4, 5.
  const Communicator c_rm = Communicator::column(rm, 2), c_cm = Communicator::column(cm, 2);
  EXPECT_EQ(c_rm.size, 2);
  EXPECT_EQ(c_rm.rank_of(1), 5);
  EXPECT_EQ(c_cm.rank_of(0), 4);
  EXPECT_EQ(c_cm.rank_of(1), 5);
}
