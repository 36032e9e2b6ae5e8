#pragma once
// 2-D block-cyclic ownership on a P x Q process grid, as HPL lays out its
// N x (N+1) matrix: block b of NB rows lives on process row b mod P, block b of
// NB columns on process column b mod Q, the first block on process (0, 0)
// (HPL_pdmatgen / HPL_numroc with source process 0).
//
// Rank numbering follows HPL_grid_init (src/grid/HPL_grid_init.c): row-major
// PMAP gives rank = row * Q + col, column-major gives rank = col * P + row.
#include <cstdint>

namespace hplsim::traces {

/// Number of the indices [0, n) that process `proc` of `nprocs` holds when
/// blocks of `nb` are dealt cyclically from process 0 (ScaLAPACK/HPL numroc).
/// Requires n >= 0, nb >= 1, 0 <= proc < nprocs.
std::int64_t numroc(std::int64_t n, std::int64_t nb, int proc, int nprocs);

/// Number of the global indices [begin, end) that `proc` holds (0 if end <= begin).
/// Equals HPL_numrocI(end - begin, begin, nb, nb, proc, 0, nprocs).
inline std::int64_t local_count(std::int64_t begin, std::int64_t end, std::int64_t nb, int proc, int nprocs) {
  if (end <= begin) return 0;
  return numroc(end, nb, proc, nprocs) - numroc(begin, nb, proc, nprocs);
}

/// Process (row or column) that holds global index `index` (HPL_indxg2p with source 0).
inline int owner_of(std::int64_t index, std::int64_t nb, int nprocs) {
  return static_cast<int>((index / nb) % nprocs);
}

/// Largest power of two <= x, for x >= 1 (HPL's ip2 of a communicator of x processes).
inline int floor_pow2(int x) {
  int p = 1;
  while (p <= x / 2)
    p <<= 1;
  return p;
}

/// (a - b) mod n in [0, n) and (a + b) mod n, for 0 <= a, b < n (HPL's MModSub / MModAdd).
inline int mod_sub(int a, int b, int n) {
  return a >= b ? a - b : a - b + n;
}
inline int mod_add(int a, int b, int n) {
  return a + b >= n ? a + b - n : a + b;
}

/// The P x Q grid and its rank numbering.
class ProcessGrid {
public:
  ProcessGrid(int p, int q, bool column_major) : p_(p), q_(q), column_major_(column_major) {}
  int p() const { return p_; }
  int q() const { return q_; }
  int size() const { return p_ * q_; }
  bool column_major() const { return column_major_; }
  int rank(int row, int col) const { return column_major_ ? col * p_ + row : row * q_ + col; }
  int row_of(int rank) const { return column_major_ ? rank % p_ : rank / q_; }
  int col_of(int rank) const { return column_major_ ? rank / p_ : rank % q_; }

private:
  int p_, q_;
  bool column_major_;
};

/// A process row or column seen as a communicator: member i (the process column
/// index for a row, the process row index for a column) is rank base + i * stride.
struct Communicator {
  int base = 0;
  int stride = 1;
  int size = 1;
  int rank_of(int member) const { return base + member * stride; }
  /// The member index of `rank`, or -1 when it is not a member.
  int member_of(int rank) const {
    if (stride <= 0 || rank < base || (rank - base) % stride != 0) return -1;
    const int m = (rank - base) / stride;
    return m < size ? m : -1;
  }

  /// The process row `row` of the grid (HPL's row_comm, members ordered by column).
  static Communicator row(const ProcessGrid& g, int row) {
    return {g.rank(row, 0), g.column_major() ? g.p() : 1, g.q()};
  }
  /// The process column `col` of the grid (HPL's col_comm, members ordered by row).
  static Communicator column(const ProcessGrid& g, int col) {
    return {g.rank(0, col), g.column_major() ? 1 : g.q(), g.p()};
  }
};

} // namespace hplsim::traces
