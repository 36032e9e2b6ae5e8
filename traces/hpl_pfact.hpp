#pragma once
// Panel factorization of HPL 2.3 on the process column that owns the panel:
// the recursive structure of src/pfact/HPL_pdrpan{rl,ll,cr}N.c (split the panel
// in NDIV parts until at most NBMIN columns remain, update the other parts with
// a CPU DTRSM on L1 and a DGEMM on the local rows) and, in every base case, one
// pivot search per column (src/pfact/HPL_pdmxswp.c, a max-loc exchange among
// the P process rows of the column) followed by the column's local work
// (src/pfact/HPL_pdpan{rl,ll,cr}N.c: swap, scale, update; priced as one
// KERNEL_PFACT_COLUMN with m = local rows below the diagonal, n = width of the
// base-case panel, k = column index in it). The panel lives in host memory: every
// kernel here runs on the CPU.
#include <cstdint>
#include <vector>

#include "traces/comm_pattern.hpp"
#include "traces/hpl_config.hpp"

namespace hplsim::traces {

/// Messages of one HPL_pdmxswp call for process row `myrow` when the panel's
/// diagonal block is on process row `icurrow` and the panel is jb wide. WORK
/// carries 4 + jb doubles (max, its index, the pivot's global row, the pivot
/// row); pairs that also carry the diagonal row send 4 + 2 jb doubles. Binary
/// exchange over the largest power of two ip2 <= P; rows ip2.. first fold their
/// candidate into row (distance - ip2) (distance ip2 gets the diagonal row, jb
/// doubles, back), share that row in a binomial tree among themselves, and
/// receive the winner at the end.
void pivot_exchange_pattern(int myrow, int icurrow, int p, std::int64_t jb, Pattern& out);

struct PanelGeometry {
  std::int64_t n = 0;         ///< matrix order N (rows [row_begin, n) are active)
  std::int64_t nb = 0;        ///< block size
  std::int64_t row_begin = 0; ///< global row (and column) of the panel's first column, j
  std::int64_t jb = 0;        ///< panel width
  int p = 1;                  ///< process rows
  int icurrow = 0;            ///< process row holding the diagonal block
  int pcol = -1;              ///< process column factoring the panel (-1: not given)
};

/// One item of a process row's part of a panel factorization, in program
/// order: a CPU kernel (kernel, m, n, k) or, with `exchange`, the pivot
/// exchange of panel column `k`.
struct PanelWork {
  bool exchange = false;
  Kernel kernel = KERNEL_PFACT_COLUMN;
  std::int64_t m = 0, n = 0, k = 0;
  bool operator==(const PanelWork&) const = default;
};

/// Appends process row `myrow`'s part of the factorization of the panel to
/// `out`: HPL's recursion (only nbmin, ndiv and pfact of `config` are read).
/// Every process row has exactly jb exchanges, one per panel column, in order.
void panel_factorization_work(int myrow, const PanelGeometry& g, const HplConfig& config,
                              std::vector<PanelWork>& out);

/// Process row `myrow`'s local rows at and below each panel column c in
/// [0, jb] (rows [row_begin + c, n)): all that its part of the factorization
/// reads of it. Process rows with equal counts have equal parts.
void panel_local_rows(int myrow, const PanelGeometry& g, std::vector<std::int64_t>& out);

/// panel_factorization_work for the process row whose panel_local_rows are `rows`.
void panel_factorization_work(const std::vector<std::int64_t>& rows, const PanelGeometry& g,
                              const HplConfig& config, std::vector<PanelWork>& out);

/// Appends the factorization of the panel to the program of process row
/// `myrow` of the owner column; `column` maps process rows to ranks. With
/// config.panel_collective (and P > 1) that is one Exchange op with its
/// PanelShape set.
void emit_panel_factorization(ProgramBuilder& b, const Communicator& column, int myrow,
                              const PanelGeometry& g, const HplConfig& config);

/// Whether the panel is one collective Exchange op (fast mode's
/// config.panel_collective, P > 1, the column's messages not kept for a fault).
bool panel_collective_applies(const PanelGeometry& g, const HplConfig& config);

/// The panel's shape as a collective panel factorization carries it.
PanelShape panel_shape(const PanelGeometry& g, const HplConfig& config);

/// The collective panel factorization: one Exchange op with `shape`, its
/// exchanges marked collective as config.panel_exchange says.
void emit_collective_panel(ProgramBuilder& b, const Communicator& column, const PanelGeometry& g,
                           const HplConfig& config, const PanelShape& shape);

/// The pivot exchange of panel column `c` for a member whose HPL_pdmxswp
/// messages are `exchange` (pivot_exchange_pattern): the messages, or fast
/// mode's shortcuts (pivot_collective: one Exchange op; pivot_group g > 1: the
/// exchanges of columns c..c+g-1 emitted once, at column c, with g times the
/// bytes and their receives marked repeat = g).
void emit_pivot_exchange(ProgramBuilder& b, const Communicator& column, const Pattern& exchange,
                         const PanelGeometry& g, const HplConfig& config, std::int64_t c);

/// Number of pivot-search messages the whole column exchanges per panel
/// column (for tests and reports).
std::int64_t pivot_messages_per_column(int p);

} // namespace hplsim::traces
