#pragma once
// The FP64 iterative refinement that ends an HPL-MxP run (the final step of the
// schedule), one rank's part. Model of rocHPL-MxP's
// src/pgesv/hplmxp_iterative_refinement.cpp and, for GMRES, of the HPL-AI
// reference code (hpl-ai/hpl-ai gmres.c, GMRES without restart preconditioned
// by the low-precision LU):
//
//  residual r = b - A x (hplmxp_pgemv_device.cpp): for every local block column
//    the x block is broadcast down the process column from the row holding it
//    (MPI_Bcast, binomial tree), a local FP64 DGEMV (local rows x block), then an
//    MPI_Allreduce of the local rows' sums along the process row;
//  norms and dot products: a local reduction then an allreduce of one double
//    along the process column (vectors are distributed over the process rows);
//  L y = r and U z = y (hplmxp_ptrsv.cpp): block column by block column, the
//    owner of the diagonal block solves it (TRSV with the FP32 factors), the
//    solution piece goes round the process column, every rank of that column
//    updates its rows (GEMV) and passes the accumulated partial sums to the
//    next process column (right for L, left for U) in one message.
//
// Classical refinement, per iteration: ||x||, r = b - A x, ||r||, the two
// solves. GMRES: r0 = b - A x0, both solves, ||r0||; per iteration one
// A-product, both solves and the modified Gram-Schmidt dot products (i + 1
// of them at iteration i, each an allreduce) and a norm; at the end x += V y
// (local) and the final residual.
#include "traces/grid.hpp"
#include "traces/mxp_config.hpp"
#include "traces/program_builder.hpp"

namespace hplsim::traces {

void emit_refinement(ProgramBuilder& b, const ProcessGrid& grid, int myrow, int mycol,
                     const MxpConfig& config);

} // namespace hplsim::traces
