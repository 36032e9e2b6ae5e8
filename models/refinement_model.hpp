#pragma once
// Iteration count of HPL-MxP's FP64 iterative refinement when the scenario
// does not set it.
//
// Classical iterative refinement with a low-precision LU contracts the error
// by a factor rho ~ c * kappa(A) * u_low per iteration (Higham, "Accuracy and
// Stability of Numerical Algorithms", 2nd ed., SIAM 2002, Thm 12.1; Carson &
// Higham, SIAM J. Sci. Comput. 40(2), 2018, for GMRES-IR). It stops when the
// scaled residual reaches the FP64 level, so
//   iterations = ceil( log(u_fp64 * sqrt(n)) / log(rho) ),  rho = min(0.5, c kappa u_low),
// capped at 50 (HPL-MxP's limit: rocHPL-MxP, src/pgesv/hplmxp_iterative_refinement.cpp,
// maxits = 50; docs/sources.md). HPL-MxP's matrix is
// diagonally dominant by construction, kappa(A) = O(1): we take kappa = 4 and
// c = 1 ([U], not validated against published iteration counts). GMRES-IR
// converges in fewer outer steps: rho^2 per outer iteration (Carson & Higham).
// Worked number (a unit test): n = 57,693,696, BF16 (u = 2^-8): rho = 4/256 =
// 0.015625, log(1.11e-16 * 7595.6) / log(0.015625) = 8.3 -> 9 classical
// iterations, 5 with GMRES.
#include <cstdint>

#include "traces/schedule.pb.h"

namespace hplsim::models {

enum class RefinementKind { Classical, Gmres };

/// Unit roundoff of a storage precision: fp64 2^-53, fp32 2^-24, bf16 2^-8, fp16 2^-11.
double unit_roundoff(traces::Precision precision);

/// Iterations in [1, 50]; throws std::invalid_argument for n < 1.
int refinement_iterations(std::int64_t n, traces::Precision storage, RefinementKind kind);

} // namespace hplsim::models
