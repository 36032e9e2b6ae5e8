#pragma once
// HPL 2.3's final back substitution U x = y (src/pgesv/HPL_pdtrsv.c), one
// rank's part. Blocks are solved from the last to the first: the owner of
// diagonal block b solves it (DTRSV), the solved piece travels down its process
// column in a ring (from the owner's row towards row - 1, ...), and the column
// that owns block b+1 updates the right-hand side with it (DGEMV): first the
// rows of the next NB rows, whose partial sums it sends along the process
// row to the column owning block b, then the remaining rows. At the start the
// column holding b (column N) ships it to the column of the last block; at the
// end the first block's solution is broadcast down its column (HPL_broadcast).
#include <cstdint>

#include "traces/grid.hpp"
#include "traces/program_builder.hpp"

namespace hplsim::traces {

struct SolveOptions {
  Resource resource = CPU;  ///< where DTRSV/DGEMV run (rocHPL's HPL_pdtrsv_device: GPU)
  bool host_staged = false; ///< GPU data sent from host buffers: D2H before a send, H2D after a receive
};

void emit_triangular_solve(ProgramBuilder& b, const ProcessGrid& grid, int myrow, int mycol, std::int64_t n,
                           std::int64_t nb, const SolveOptions& options);

} // namespace hplsim::traces
