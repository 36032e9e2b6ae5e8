#pragma once
// Row swaps + broadcast of the U block row along a process column, HPL 2.3's
// two algorithms (src/pgesv/HPL_pdlaswp00T.c "binary exchange",
// src/pgesv/HPL_pdlaswp01T.c "spread then roll") and the "mix" choice between
// them (src/pgesv/HPL_pdupdateTT.c).
//
// Which rows move depends on the pivots the random matrix produces. We use a
// deterministic expected-value model (no RNG): the jb pivot rows of a panel are
// dealt to the process rows in proportion to the rows each holds in the active
// part [j, N) of the column, rounded with the largest-remainder method
// (ties to the smaller distance from the panel's process row) so that the
// counts are integers summing to jb. Partial pivoting on HPL's uniform random
// matrix picks each column's pivot about uniformly among the remaining rows,
// so this is the expectation of the counts; the row pivoted into the panel for
// column c is drawn from [j + c, N), which we approximate by [j, N).
// Equilibration (HPL.dat "Equilibration", HPL_equil.c) is not modelled: the
// spread-roll is the EQUIL = 0 variant. With EQUIL = 1 HPL only adds messages
// when the per-row counts differ by more than one, which the model gives only
// once fewer than about jb * NB rows remain (the last steps).
#include <cstdint>
#include <vector>

#include "traces/comm_pattern.hpp"
#include "traces/hpl_config.hpp"

namespace hplsim::traces {

/// Expected pivot rows per process row (index = process row) for a panel of
/// width jb whose active rows are [row_begin, n); sums to jb.
std::vector<std::int64_t> expected_pivot_rows(std::int64_t row_begin, std::int64_t n, std::int64_t nb,
                                              std::int64_t jb, int p, int icurrow);

/// What every process row of the column knows about one panel's swap.
struct SwapLayout {
  int p = 1;
  int icurrow = 0;
  std::int64_t jb = 0;
  std::vector<std::int64_t> pivots; ///< per process row: rows it contributes to U
  // Spread-roll order (HPL_plindx10 + HPL_logsort): position -> process row, the
  // inverse, and the first U row of each position's segment (size p + 1).
  std::vector<int> ipmap;
  std::vector<int> ipmapm1;
  std::vector<std::int64_t> segment_begin;
  std::int64_t segment_rows(int position) const {
    return segment_begin[static_cast<std::size_t>(position) + 1] -
           segment_begin[static_cast<std::size_t>(position)];
  }
};

SwapLayout make_swap_layout(std::int64_t row_begin, std::int64_t n, std::int64_t nb, std::int64_t jb, int p,
                            int icurrow);

enum class SwapAlgorithm { BinaryExchange, SpreadRoll };

/// HPL_pdupdateTT: spread-roll for SWAP=1, or SWAP=2 (mix) when the local width
/// `ncols` exceeds the threshold; binary exchange otherwise.
SwapAlgorithm choose_swap(HplConfig::Swap swap, std::int64_t ncols, int threshold);

/// HPL_pdlaswp00T's messages for process row `myrow` swapping `ncols` local
/// columns: W blocks of rows (ncols + 1 doubles each, the row and its index)
/// gathered by recursive halving into the process rows holding U (jb x ncols),
/// with the non-power-of-two rows folded in first and served last.
void binary_exchange_pattern(const SwapLayout& layout, int myrow, std::int64_t ncols, Pattern& out);

/// HPL_pdlaswp01T's messages: HPL_spreadT (binomial scatter from the panel's
/// process row of the rows each process row must put in place of its pivot
/// rows) and HPL_rollT (P - 1 pairwise exchange steps of the U segments).
void spread_roll_pattern(const SwapLayout& layout, int myrow, std::int64_t ncols, Pattern& spread,
                         Pattern& roll);

} // namespace hplsim::traces
