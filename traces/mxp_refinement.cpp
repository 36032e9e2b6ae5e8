#include "traces/mxp_refinement.hpp"

#include <algorithm>

#include "traces/comm_pattern.hpp"

namespace hplsim::traces {

namespace {

class RefinementEmitter {
public:
  RefinementEmitter(ProgramBuilder& b, const ProcessGrid& g, int row, int col, const MxpConfig& c)
      : b_(b), g_(g), row_(row), col_(col), c_(c), blocks_((c.n + c.nb - 1) / c.nb),
        local_rows_(numroc(c.n, c.nb, row, g.p())) {}

  void run() {
    if (c_.refinement == MxpConfig::Refinement::Classical) {
      mark(0);
      for (int it = 1; it <= c_.refinement_iterations; ++it) {
        norm(); // ||x||
        residual();
        norm(); // ||r||
        solve_lower();
        solve_upper();
        mark(static_cast<std::uint32_t>(it));
      }
      return;
    }
    if (!c_.refinement_first_pass_extrapolated) {
      residual(); // r0 = b - A x0, preconditioned
      solve_lower();
      solve_upper();
      norm();
    }
    mark(0);
    for (int it = 1; it <= c_.refinement_iterations; ++it) {
      residual(); // A v_it (the same communication as the residual)
      solve_lower();
      solve_upper();
      for (int j = 0; j <= it; ++j)
        dot(); // it + 1 Gram-Schmidt projections (the last one is the norm)
      mark(static_cast<std::uint32_t>(it));
    }
    // x += V y: a local product with the it Krylov vectors, then the final residual.
    b_.compute(KERNEL_GEMV, c_.refinement_resource, local_rows_, c_.refinement_iterations, 0, SOLVE);
    residual();
    norm();
  }

private:
  void mark(std::uint32_t id) {
    if (c_.refinement_marks) b_.mark(id);
  }
  std::int64_t width(std::int64_t blk) const { return std::min(c_.nb, c_.n - blk * c_.nb); }
  std::int64_t rows_in(std::int64_t begin, std::int64_t end) const {
    return local_count(begin, end, c_.nb, row_, g_.p());
  }

  // The library's algorithm for the call when its table has one (one rank per
  // node assumed: a process row or column spans nodes).
  bool by_table(mpi::Collective coll, const Communicator& comm, int me, int root, std::int64_t bytes) {
    mpi::CollCall call;
    call.collective = coll;
    call.size = comm.size;
    call.root = root;
    call.bytes = bytes;
    if (comm.size <= 1 || !mpi::select_algorithm(c_.mpi, call)) return false;
    emit_collective(b_, comm, mpi::collective_program(call, me), SOLVE);
    return true;
  }

  void allreduce(const Communicator& comm, int me, std::int64_t bytes) {
    if (by_table(mpi::ALLREDUCE, comm, me, 0, bytes)) return;
    Pattern p;
    allreduce_pattern(me, comm.size, bytes, p);
    emit_pattern(b_, comm, p, SOLVE);
  }

  // Local reduction + allreduce of one double along the process column.
  void dot() {
    b_.compute(KERNEL_GEMV, c_.refinement_resource, local_rows_, 1, 0, SOLVE);
    allreduce(Communicator::column(g_, col_), row_, 8);
  }
  void norm() { dot(); }

  // r = b - A x (HPLMXP_pgemv): per local block column, MPI_Bcast of the x block
  // down the column and a local DGEMV; MPI_Allreduce of the rows along the row.
  void residual() {
    const Communicator column = Communicator::column(g_, col_);
    for (std::int64_t blk = col_; blk < blocks_; blk += g_.q()) {
      const int root = static_cast<int>(blk % g_.p());
      // A binomial tree, whatever the table says: MPICH's would take scatter +
      // ring allgather from 12,288 B (an x block at NB 1,536) on a column that
      // is not a power of two, P - 1 ring steps per block, more messages than
      // a full-scale window can hold (docs/collectives.md).
      Pattern p;
      binomial_bcast(mod_sub(row_, root, g_.p()), g_.p(), doubles(width(blk)), root, g_.p(), p);
      emit_pattern(b_, column, p, SOLVE);
      b_.compute(KERNEL_GEMV, c_.refinement_resource, local_rows_, width(blk), 0, SOLVE, FP64);
    }
    allreduce(Communicator::row(g_, row_), col_, doubles(local_rows_));
  }

  // Rows this process row owns in its first block of [begin, end) in the solve's
  // direction (dir +1: the lowest such block, -1: the highest); 0 if none.
  std::int64_t lead_rows(std::int64_t begin, std::int64_t end, int dir) const {
    if (begin >= end) return 0;
    const std::int64_t p = g_.p();
    std::int64_t blk;
    if (dir > 0) {
      const std::int64_t first = begin / c_.nb;
      blk = first + mod_sub(row_, static_cast<int>(first % p), static_cast<int>(p));
      if (blk * c_.nb >= end) return 0;
    } else {
      const std::int64_t last = (end - 1) / c_.nb;
      blk = last - mod_sub(static_cast<int>(last % p), row_, static_cast<int>(p));
      if (blk < 0 || (blk + 1) * c_.nb <= begin) return 0;
    }
    return std::min(end, (blk + 1) * c_.nb) - std::max(begin, blk * c_.nb);
  }

  // One block column of a distributed triangular solve (HPLMXP_ptrsvL/U in
  // rocHPL-MxP, src/pgesv/hplmxp_ptrsv.cpp). The partial sums of the rows
  // [in_begin, in_end) arrive from `from_col` in two messages: the rows of this
  // rank's first block in the solve's direction ("the piece") and the rest; the
  // rows [out_begin, out_end) leave for `to_col` the same way. Each rank of the
  // owner column computes its piece first ("compute the critical-path first")
  // and sends it before its larger GEMV, so the chain from one block column to
  // the next carries one block's work, not a whole panel's (docs/at-scale.md,
  // "The refinement's pipelined triangular solves"). The solved piece of x
  // circulates down (dir +1) or up (-1) the process column.
  void solve_block(std::int64_t blk, std::int64_t in_begin, std::int64_t in_end, std::int64_t out_begin,
                   std::int64_t out_end, bool first, bool last, int dir) {
    const int p = g_.p(), q = g_.q();
    const int diag_row = static_cast<int>(blk % p);
    const bool pivot = row_ == diag_row;
    const std::int64_t w = width(blk);
    const std::int64_t in_rows = rows_in(in_begin, in_end), out_rows = rows_in(out_begin, out_end);
    const std::int64_t in_piece = lead_rows(in_begin, in_end, dir),
                       out_piece = lead_rows(out_begin, out_end, dir);
    const int from_col = dir > 0 ? mod_sub(col_, 1, q) : mod_add(col_, 1, q);
    const int to_col = dir > 0 ? mod_add(col_, 1, q) : mod_sub(col_, 1, q);
    const bool receives = !first && q > 1, sends = !last && q > 1;
    std::uint32_t piece_tag = 0, rest_tag = 0;
    if (receives) {
      const int left = g_.rank(row_, from_col);
      if (in_piece > 0) piece_tag = b_.recv_async(left, doubles(in_piece), SOLVE);
      if (in_rows > in_piece) rest_tag = b_.recv_async(left, doubles(in_rows - in_piece), SOLVE);
    }
    const int next = dir > 0 ? mod_add(row_, 1, p) : mod_sub(row_, 1, p);
    const int prev = dir > 0 ? mod_sub(row_, 1, p) : mod_add(row_, 1, p);
    if (pivot) {
      b_.wait(piece_tag); // the diagonal block's partial sum
      b_.compute(KERNEL_TRSV, c_.refinement_resource, w, 1, 0, SOLVE, FP32);
      b_.compute(KERNEL_GEMV, c_.refinement_resource, out_piece, w, 0, SOLVE, FP32);
      if (p > 1) b_.send(g_.rank(next, col_), doubles(w), SOLVE);
      // Its outgoing piece also needs the left's sums for those rows: they come with the rest.
      b_.wait(rest_tag);
      rest_tag = 0;
    } else {
      if (p > 1) {
        b_.recv(g_.rank(prev, col_), doubles(w), SOLVE);
        if (next != diag_row) b_.send(g_.rank(next, col_), doubles(w), SOLVE);
      }
      b_.compute(KERNEL_GEMV, c_.refinement_resource, out_piece, w, 0, SOLVE, FP32);
      b_.wait(piece_tag);
    }
    if (sends && out_piece > 0) b_.send(g_.rank(row_, to_col), doubles(out_piece), SOLVE);
    b_.compute(KERNEL_GEMV, c_.refinement_resource, out_rows - out_piece, w, 0, SOLVE, FP32);
    b_.wait(rest_tag);
    if (sends && out_rows > out_piece) b_.send(g_.rank(row_, to_col), doubles(out_rows - out_piece), SOLVE);
  }

  void solve_lower() {
    for (std::int64_t blk = col_; blk < blocks_; blk += g_.q()) {
      const std::int64_t begin = blk * c_.nb, end = begin + width(blk);
      solve_block(blk, begin, c_.n, end, c_.n, blk == 0, blk == blocks_ - 1, +1);
    }
  }

  void solve_upper() {
    // Block columns from the last down; this column's blocks in decreasing order.
    std::int64_t blk = blocks_ - 1 - ((blocks_ - 1 - col_) % g_.q() + g_.q()) % g_.q();
    for (; blk >= 0; blk -= g_.q()) {
      const std::int64_t begin = blk * c_.nb, end = begin + width(blk);
      solve_block(blk, 0, end, 0, begin, blk == blocks_ - 1, blk == 0, -1);
    }
  }

  ProgramBuilder& b_;
  const ProcessGrid& g_;
  int row_, col_;
  const MxpConfig& c_;
  std::int64_t blocks_;
  std::int64_t local_rows_;
};

} // namespace

void emit_refinement(ProgramBuilder& b, const ProcessGrid& grid, int myrow, int mycol,
                     const MxpConfig& config) {
  RefinementEmitter(b, grid, myrow, mycol, config).run();
}

} // namespace hplsim::traces
