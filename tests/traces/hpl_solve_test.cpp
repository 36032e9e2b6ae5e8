// Final back substitution (src/pgesv/HPL_pdtrsv.c) against a hand trace.
#include "traces/hpl_solve.hpp"

#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "traces/hpl_generator.hpp"
#include "traces/schedule_validator.hpp"

using namespace hplsim::traces;

namespace {

// (from rank, to rank, bytes) of every send of the solve.
std::multiset<std::tuple<int, int, std::int64_t>> solve_sends(const ProcessGrid& g, std::int64_t n,
                                                              std::int64_t nb) {
  std::multiset<std::tuple<int, int, std::int64_t>> out;
  for (int r = 0; r < g.size(); ++r) {
    RankProgram prog;
    ProgramBuilder b(&prog);
    emit_triangular_solve(b, g, g.row_of(r), g.col_of(r), n, nb, {});
    for (const Op& op : prog.ops())
      if (op.has_send()) out.emplace(r, op.send().peer(), op.send().bytes());
  }
  return out;
}

} // namespace

TEST(TriangularSolve, TwoByTwoGridByHand) {
  // N = 10, NB = 3, 2 x 2 row-major grid: blocks 0..3 of widths 3, 3, 3, 1 on
  // (row, col) = (0,0), (1,1), (0,0), (1,1). Column N = 10 is in block 3 (column 1),
  // the last block's column: no initial transfer. Look-ahead rows n1 = (Q-1) NB = 3.
  //  block 2 (prev 3): x3 (1 double) (1,1) -> (0,1); (0,1) updates rows 6..8 and sends
  //                    3 partial sums to (0,0), which solves block 2.
  //  block 1 (prev 2): x2 (3 doubles) (0,0) -> (1,0); (1,0) sends 3 sums to (1,1).
  //  block 0 (prev 1): x1 (1,1) -> (0,1); (0,1) sends 3 sums to (0,0).
  //  end: x0 broadcast down column 0: (0,0) -> (1,0).
  // Ranks: (0,0)=0, (0,1)=1, (1,0)=2, (1,1)=3.
  const ProcessGrid g(2, 2, false);
  const std::multiset<std::tuple<int, int, std::int64_t>> expected = {
      {3, 1, 8}, {1, 0, 24}, {0, 2, 24}, {2, 3, 24}, {3, 1, 24}, {1, 0, 24}, {0, 2, 24}};
  EXPECT_EQ(solve_sends(g, 10, 3), expected);
}

TEST(TriangularSolve, ShipsTheRightHandSideToTheLastBlocksColumn) {
  // N = 9, NB = 3, 1 x 2: the last block (2) is on column 0, column N = 9 (block 3) on
  // column 1: (0,1) sends its 9 rows of b (72 B) to (0,0) first.
  const ProcessGrid g(1, 2, false);
  const auto sends = solve_sends(g, 9, 3);
  EXPECT_EQ(sends.count({1, 0, 72}), 1u);
}

TEST(TriangularSolve, FinalStepOfTheGeneratorIsConsistent) {
  // The generator's final step on a 3 x 4 grid (N = 200, NB = 16) matches messages,
  // and with host staging every message is wrapped in D2H / H2D copies.
  for (bool staged : {false, true}) {
    HplConfig c;
    c.n = 200;
    c.nb = 16;
    c.p = 3;
    c.q = 4;
    c.gpu = staged;
    c.host_staged = staged;
    const HplScheduleGenerator gen(c);
    StepSchedule s;
    gen.step(gen.steps(), s);
    const ValidationReport r = validate_schedule(12, {&s});
    EXPECT_TRUE(r.ok()) << r.summary();
    std::int64_t sends = 0, copies = 0;
    for (const RankProgram& p : s.ranks())
      for (const Op& op : p.ops()) {
        sends += op.has_send();
        copies += op.has_copy();
      }
    // 13 blocks; per block the column ring (P-1 = 2) and up to P row messages.
    EXPECT_GT(sends, 12 * 2);
    EXPECT_EQ(copies, staged ? 2 * sends : 0);
  }
}
