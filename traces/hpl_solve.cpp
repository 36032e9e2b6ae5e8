#include "traces/hpl_solve.hpp"

#include <algorithm>

#include "traces/comm_pattern.hpp"

namespace hplsim::traces {

namespace {

class SolveEmitter {
public:
  SolveEmitter(ProgramBuilder& b, const ProcessGrid& grid, int myrow, int mycol, const SolveOptions& o)
      : b_(b), grid_(grid), myrow_(myrow), mycol_(mycol), o_(o) {}

  void send(int row, int col, std::int64_t count) {
    if (o_.host_staged) b_.copy(Copy::D2H, doubles(count), SOLVE);
    b_.send(grid_.rank(row, col), doubles(count), SOLVE);
  }
  void recv(int row, int col, std::int64_t count) {
    b_.recv(grid_.rank(row, col), doubles(count), SOLVE);
    if (o_.host_staged) b_.copy(Copy::H2D, doubles(count), SOLVE);
  }
  void kernel(Kernel k, std::int64_t m, std::int64_t n) { b_.compute(k, o_.resource, m, n, 0, SOLVE); }

  ProgramBuilder& b_;
  const ProcessGrid& grid_;
  int myrow_, mycol_;
  const SolveOptions& o_;
};

} // namespace

void emit_triangular_solve(ProgramBuilder& b, const ProcessGrid& grid, int myrow, int mycol, std::int64_t n,
                           std::int64_t nb, const SolveOptions& options) {
  if (n <= 0) return;
  SolveEmitter e(b, grid, myrow, mycol, options);
  const int p = grid.p(), q = grid.q();
  const std::int64_t blocks = (n + nb - 1) / nb;
  const std::int64_t last = blocks - 1;
  const std::int64_t last_width = n - last * nb;
  const auto block_row = [&](std::int64_t blk) { return static_cast<int>(blk % p); };
  const auto block_col = [&](std::int64_t blk) { return static_cast<int>(blk % q); };
  const auto width = [&](std::int64_t blk) { return blk == last ? last_width : nb; };

  // The right-hand side (global column n) moves to the column of the last block.
  const std::int64_t local_rows = numroc(n, nb, myrow, p);
  const int rhs_col = owner_of(n, nb, q);
  if (local_rows > 0 && block_col(last) != rhs_col) {
    if (mycol == rhs_col) e.send(myrow, block_col(last), local_rows);
    if (mycol == block_col(last)) e.recv(myrow, rhs_col, local_rows);
  }
  if (mycol == block_col(last) && myrow == block_row(last)) e.kernel(KERNEL_TRSV, last_width, 1);

  // Rows updated first and sent ahead: the NB rows above the solved block.
  const std::int64_t lookahead_rows = std::max<std::int64_t>((q - 1) * nb, nb);
  // Only the iterations where this rank's column owns block blk or blk + 1 do
  // anything for it: walk those two progressions (descending) instead of all blocks.
  const auto prev_of = [&](std::int64_t x) { return x - 1 - ((x - 1 - mycol) % q + q) % q; };
  std::int64_t own = prev_of(last);           // largest blk <= last - 1 with blk % q == mycol
  std::int64_t right = prev_of(last + 1) - 1; // largest blk <= last - 1 with (blk + 1) % q == mycol
  while (own >= 0 || right >= 0) {
    const std::int64_t blk = std::max(own, right);
    if (blk == own) own -= q;
    if (blk == right) right -= q;
    const std::int64_t prev = blk + 1; // the block solved in the previous iteration
    const int prow = block_row(prev), pcol = block_col(prev);
    const int crow = block_row(blk), ccol = block_col(blk);
    const std::int64_t kprev = width(prev);
    const std::int64_t top = prev * nb; // rows [0, top) still to be updated
    const std::int64_t near_rows =
        local_count(std::max<std::int64_t>(0, top - lookahead_rows), top, nb, myrow, p);
    const std::int64_t above_rows = numroc(top, nb, myrow, p);
    if (mycol == pcol) {
      // The solved piece x_prev runs down the column ring prow -> prow-1 -> ... -> prow+1.
      if (myrow == prow) {
        if (p > 1) e.send(mod_sub(myrow, 1, p), mycol, kprev);
      } else {
        e.recv(mod_add(myrow, 1, p), mycol, kprev);
      }
      if (near_rows > 0) {
        e.kernel(KERNEL_GEMV, near_rows, kprev);
        if (q > 1) e.send(myrow, ccol, near_rows);
      }
      if (myrow != prow && myrow != mod_add(prow, 1, p)) e.send(mod_sub(myrow, 1, p), mycol, kprev);
    } else if (mycol == ccol && near_rows > 0) {
      e.recv(myrow, pcol, near_rows);
    }
    if (mycol == ccol && myrow == crow) e.kernel(KERNEL_TRSV, nb, 1);
    if (mycol == pcol && above_rows - near_rows > 0) e.kernel(KERNEL_GEMV, above_rows - near_rows, kprev);
  }
  // The first block's solution is broadcast down its column (binomial tree).
  if (mycol == block_col(0) && p > 1) {
    Pattern tree;
    const int root = block_row(0);
    binomial_bcast(mod_sub(myrow, root, p), p, doubles(width(0)), root, p, tree);
    for (const PeerMsg& m : tree) {
      if (m.kind == PeerMsg::Kind::Send)
        e.send(m.peer, mycol, width(0) /* doubles */);
      else
        e.recv(m.peer, mycol, width(0));
    }
  }
}

} // namespace hplsim::traces
