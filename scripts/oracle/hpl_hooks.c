/*
 * Kernel hooks of the SMPI oracle (docs/smpi-oracle.md). Compiled with smpicc
 * into xhpl and linked with -Wl,--wrap for every function below, so that each
 * BLAS or HPL kernel call made inside HPL_pdgesv charges the calling rank the
 * seconds hplsim's kernel model gives for the op hplsim's schedule has for it
 * (sim/oracle/oracle_kernels.hpp), and nothing else costs simulated time
 * (smpirun --cfg=smpi/simulate-computation:no). HPL itself is not modified.
 *
 * The mapping, call by call, follows hplsim's schedule (traces/hpl_pfact.cpp,
 * traces/hpl_step.cpp, traces/hpl_swap.cpp, traces/hpl_solve.cpp):
 *   panel recursion (HPL_pdrpan*)  each dtrsm and dgemm with its own shape
 *   panel base case (HPL_pdpan*)   after each HPL_pdmxswp, one PFACT_COLUMN
 *                                  (m local rows below the column, n the base
 *                                  case's width, k the column); its BLAS free
 *   update (HPL_pdupdate*)         each dtrsm and dgemm with its own shape
 *                                  (HPL cuts NB-column chunks while it probes
 *                                  the broadcast, as hplsim's PolledUpdate)
 *   row swaps                      LASWP per pack (dlaswp01T, 02N, 06T, 10N;
 *                                  00N per update chunk) and the unpack at the
 *                                  end of HPL_pdlaswp00T; dlaswp03T/04T/05T free
 *   solve (HPL_pdtrsv)             dtrsv TRSV(n, 1), dgemv GEMV(m, n)
 *   U and L1 copies (dlatcpy, dlacpy), idamax, dcopy, daxpy outside: free
 * Per-rank state lives in this object, which SMPI privatizes per rank.
 *
 * HPLSIM_ORACLE_COMPUTE=0 skips the floating-point work of dgemm, dtrsm, dger,
 * dgemv, dtrsv, dscal and daxpy (idamax and dcopy still run, so HPL's control
 * flow stays valid; the residual check then fails): pivots come from the
 * untouched random matrix instead of the factorization's. The harness
 * measures what that changes (docs/smpi-oracle.md).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hpl.h"

/* libhplsim_oracle.so (sim/oracle/oracle_kernels.hpp). */
void hplsim_oracle_kernel(int kernel, int phase, int64_t m, int64_t n, int64_t k, double share);

/* traces/schedule.proto */
enum { K_GEMM = 0, K_TRSM = 1, K_PFACT_COLUMN = 2, K_LASWP = 3, K_GEMV = 4, K_TRSV = 5 };
enum { P_PFACT = 0, P_SWAP = 2, P_TRSM = 3, P_GEMM = 4, P_SOLVE = 5 };

static int in_gesv, in_fact, in_base, in_update, in_swap, in_solve;
static int base_n, base_icoff;
static int64_t upd_n, upd_jb; /* the update call's columns and panel width (P = 1 swaps) */
static int swap_n, swap_jb;
static int compute = -1;
/* When this rank's last update with each panel ended, from HPL_pdgesv's start
 * (simulated seconds; for the per-step view of scripts/oracle/hpl_main.c). */
static double gesv_start_s, *step_end_s; /* one entry a panel: N / NB + 1 */
static int max_steps, steps_seen;
int hplsim_hooks_steps(const double **ends) {
  *ends = step_end_s;
  return steps_seen;
}

static int computing(void) {
  if (compute < 0) {
    const char *v = getenv("HPLSIM_ORACLE_COMPUTE");
    compute = (v == NULL || strcmp(v, "0") != 0);
  }
  return compute;
}

static void charge(int kernel, int phase, int64_t m, int64_t n, int64_t k, double share) {
  if (in_gesv && m > 0 && n > 0 && share > 0.0) hplsim_oracle_kernel(kernel, phase, m, n, k, share);
}

/* ---- BLAS ---------------------------------------------------------------- */
void __real_cblas_dgemm(const enum HPL_ORDER, const enum HPL_TRANS, const enum HPL_TRANS, const int,
                        const int, const int, const double, const double *, const int, const double *,
                        const int, const double, double *, const int);
void __wrap_cblas_dgemm(const enum HPL_ORDER o, const enum HPL_TRANS ta, const enum HPL_TRANS tb, const int M,
                        const int N, const int K, const double alpha, const double *A, const int lda,
                        const double *B, const int ldb, const double beta, double *C, const int ldc) {
  if (computing()) __real_cblas_dgemm(o, ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
  if (in_base || in_solve || K <= 0) return;
  if (in_update && !in_swap) {
    charge(K_GEMM, P_GEMM, M, N, K, 1.0);
  } else if (in_fact) {
    charge(K_GEMM, P_PFACT, M, N, K, 1.0);
  }
}

void __real_cblas_dtrsm(const enum HPL_ORDER, const enum HPL_SIDE, const enum HPL_UPLO, const enum HPL_TRANS,
                        const enum HPL_DIAG, const int, const int, const double, const double *, const int,
                        double *, const int);
void __wrap_cblas_dtrsm(const enum HPL_ORDER o, const enum HPL_SIDE side, const enum HPL_UPLO uplo,
                        const enum HPL_TRANS t, const enum HPL_DIAG d, const int M, const int N,
                        const double alpha, const double *A, const int lda, double *B, const int ldb) {
  if (computing()) __real_cblas_dtrsm(o, side, uplo, t, d, M, N, alpha, A, lda, B, ldb);
  if (in_base || in_solve) return;
  /* hplsim's TRSM(m, n): m the triangle's order, n the right-hand sides. */
  const int order = side == HplLeft ? M : N, rhs = side == HplLeft ? N : M;
  if (in_update && !in_swap) {
    charge(K_TRSM, P_TRSM, order, rhs, 0, 1.0);
  } else if (in_fact) {
    charge(K_TRSM, P_PFACT, order, rhs, 0, 1.0);
  }
}

void __real_cblas_dgemv(const enum HPL_ORDER, const enum HPL_TRANS, const int, const int, const double,
                        const double *, const int, const double *, const int, const double, double *,
                        const int);
void __wrap_cblas_dgemv(const enum HPL_ORDER o, const enum HPL_TRANS t, const int M, const int N,
                        const double alpha, const double *A, const int lda, const double *X, const int incx,
                        const double beta, double *Y, const int incy) {
  if (computing()) __real_cblas_dgemv(o, t, M, N, alpha, A, lda, X, incx, beta, Y, incy);
  if (in_solve) charge(K_GEMV, P_SOLVE, M, N, 0, 1.0);
}

void __real_cblas_dtrsv(const enum HPL_ORDER, const enum HPL_UPLO, const enum HPL_TRANS, const enum HPL_DIAG,
                        const int, const double *, const int, double *, const int);
void __wrap_cblas_dtrsv(const enum HPL_ORDER o, const enum HPL_UPLO u, const enum HPL_TRANS t,
                        const enum HPL_DIAG d, const int N, const double *A, const int lda, double *X,
                        const int incx) {
  if (computing()) __real_cblas_dtrsv(o, u, t, d, N, A, lda, X, incx);
  if (in_solve) charge(K_TRSV, P_SOLVE, N, 1, 0, 1.0);
}

void __real_cblas_dger(const enum HPL_ORDER, const int, const int, const double, const double *, const int,
                       const double *, const int, double *, const int);
void __wrap_cblas_dger(const enum HPL_ORDER o, const int M, const int N, const double alpha, const double *X,
                       const int incx, const double *Y, const int incy, double *A, const int lda) {
  if (computing()) __real_cblas_dger(o, M, N, alpha, X, incx, Y, incy, A, lda);
}

void __real_cblas_dscal(const int, const double, double *, const int);
void __wrap_cblas_dscal(const int N, const double alpha, double *X, const int incx) {
  if (computing()) __real_cblas_dscal(N, alpha, X, incx);
}

void __real_cblas_daxpy(const int, const double, const double *, const int, double *, const int);
void __wrap_cblas_daxpy(const int N, const double alpha, const double *X, const int incx, double *Y,
                        const int incy) {
  if (computing()) __real_cblas_daxpy(N, alpha, X, incx, Y, incy);
}

/* ---- HPL's phases ---------------------------------------------------------- */
void __real_HPL_pdgesv(HPL_T_grid *, HPL_T_palg *, HPL_T_pmat *);
void __wrap_HPL_pdgesv(HPL_T_grid *GRID, HPL_T_palg *ALGO, HPL_T_pmat *A) {
  gesv_start_s = MPI_Wtime();
  steps_seen = 0;
  double *ends = realloc(step_end_s, (size_t)(A->n / A->nb + 1) * sizeof *ends);
  if (ends != NULL) step_end_s = ends;
  max_steps = ends != NULL ? A->n / A->nb + 1 : 0; /* without room, no step marks */
  in_gesv = 1;
  __real_HPL_pdgesv(GRID, ALGO, A);
  in_gesv = 0;
}

void __real_HPL_pdfact(HPL_T_panel *);
void __wrap_HPL_pdfact(HPL_T_panel *PANEL) {
  in_fact = 1;
  __real_HPL_pdfact(PANEL);
  in_fact = 0;
}

void __real_HPL_pdtrsv(HPL_T_grid *, HPL_T_pmat *);
void __wrap_HPL_pdtrsv(HPL_T_grid *GRID, HPL_T_pmat *AMAT) {
  in_solve = 1;
  __real_HPL_pdtrsv(GRID, AMAT);
  in_solve = 0;
}

/* The base case: HPL.dat's PFACT picks one of six (ALGO->pffun). */
#define BASE_CASE(name)                                                                                     \
  void __real_##name(HPL_T_panel *, const int, const int, const int, double *);                          \
  void __wrap_##name(HPL_T_panel *PANEL, const int M, const int N, const int ICOFF, double *WORK) {       \
    const int outer_n = base_n, outer_icoff = base_icoff, outer = in_base;                                \
    in_base = 1;                                                                                          \
    base_n = N;                                                                                           \
    base_icoff = ICOFF;                                                                                   \
    __real_##name(PANEL, M, N, ICOFF, WORK);                                                              \
    in_base = outer;                                                                                      \
    base_n = outer_n;                                                                                     \
    base_icoff = outer_icoff;                                                                             \
  }
BASE_CASE(HPL_pdpanllN)
BASE_CASE(HPL_pdpanllT)
BASE_CASE(HPL_pdpanrlN)
BASE_CASE(HPL_pdpanrlT)
BASE_CASE(HPL_pdpancrN)
BASE_CASE(HPL_pdpancrT)

void __real_HPL_pdmxswp(HPL_T_panel *, const int, const int, const int, double *);
void __wrap_HPL_pdmxswp(HPL_T_panel *PANEL, const int M, const int II, const int JJ, double *WORK) {
  __real_HPL_pdmxswp(PANEL, M, II, JJ, WORK);
  if (!in_base) return;
  /* The column's local work below its pivot (traces/hpl_pfact.cpp, base_case). */
  const int rows = PANEL->grid->myrow == PANEL->prow ? M - 1 : M;
  charge(K_PFACT_COLUMN, P_PFACT, rows, base_n, JJ - base_icoff, 1.0);
}

/* The update: L1/U transposed or not (ALGO->upfun). */
#define UPDATE(name)                                                                                        \
  void __real_##name(HPL_T_panel *, int *, HPL_T_panel *, const int);                                    \
  void __wrap_##name(HPL_T_panel *PBCST, int *IFLAG, HPL_T_panel *PANEL, const int NN) {                  \
    int n = PANEL->nq;                                                                                    \
    if (NN >= 0 && NN < n) n = NN;                                                                        \
    upd_n = n;                                                                                            \
    upd_jb = PANEL->jb;                                                                                   \
    in_update = 1;                                                                                        \
    __real_##name(PBCST, IFLAG, PANEL, NN);                                                               \
    in_update = 0;                                                                                        \
    const int step = PANEL->ia / PANEL->nb;                                                               \
    if (in_gesv && step >= 0 && step < max_steps) {                                                       \
      step_end_s[step] = MPI_Wtime() - gesv_start_s;                                                      \
      if (step + 1 > steps_seen) steps_seen = step + 1;                                                   \
    }                                                                                                     \
  }
UPDATE(HPL_pdupdateNN)
UPDATE(HPL_pdupdateNT)
UPDATE(HPL_pdupdateTN)
UPDATE(HPL_pdupdateTT)

/* The row swaps and U's broadcast along the process column (P > 1). */
#define SWAP(name, unpack)                                                                                  \
  void __real_##name(HPL_T_panel *, int *, HPL_T_panel *, const int);                                    \
  void __wrap_##name(HPL_T_panel *PBCST, int *IFLAG, HPL_T_panel *PANEL, const int NN) {                  \
    swap_n = NN < PANEL->n ? NN : PANEL->n;                                                               \
    swap_jb = PANEL->jb;                                                                                  \
    in_swap = 1;                                                                                          \
    __real_##name(PBCST, IFLAG, PANEL, NN);                                                               \
    in_swap = 0;                                                                                          \
    if (unpack) charge(K_LASWP, P_SWAP, swap_jb, swap_n, 0, 1.0);                                         \
  }
SWAP(HPL_pdlaswp00N, 1)
SWAP(HPL_pdlaswp00T, 1)
SWAP(HPL_pdlaswp01N, 0)
SWAP(HPL_pdlaswp01T, 0)

/* Packs: hplsim's LASWP(rows, columns). */
void __real_HPL_dlaswp01T(const int, const int, double *, const int, double *, const int, const int *,
                          const int *);
void __wrap_HPL_dlaswp01T(const int M, const int N, double *A, const int LDA, double *U, const int LDU,
                          const int *LINDXA, const int *LINDXAU) {
  __real_HPL_dlaswp01T(M, N, A, LDA, U, LDU, LINDXA, LINDXAU);
  if (in_swap) charge(K_LASWP, P_SWAP, swap_jb, N, 0, 1.0); /* current row: hplsim packs jb rows */
}
void __real_HPL_dlaswp01N(const int, const int, double *, const int, double *, const int, const int *,
                          const int *);
void __wrap_HPL_dlaswp01N(const int M, const int N, double *A, const int LDA, double *U, const int LDU,
                          const int *LINDXA, const int *LINDXAU) {
  __real_HPL_dlaswp01N(M, N, A, LDA, U, LDU, LINDXA, LINDXAU);
  if (in_swap) charge(K_LASWP, P_SWAP, swap_jb, N, 0, 1.0);
}
void __real_HPL_dlaswp02N(const int, const int, const double *, const int, double *, double *, const int,
                          const int *, const int *);
void __wrap_HPL_dlaswp02N(const int M, const int N, const double *A, const int LDA, double *W0, double *W,
                          const int LDW, const int *LINDXA, const int *LINDXAU) {
  __real_HPL_dlaswp02N(M, N, A, LDA, W0, W, LDW, LINDXA, LINDXAU);
  if (in_swap) charge(K_LASWP, P_SWAP, M, N, 0, 1.0);
}
void __real_HPL_dlaswp06T(const int, const int, double *, const int, double *, const int, const int *);
void __wrap_HPL_dlaswp06T(const int M, const int N, double *A, const int LDA, double *U, const int LDU,
                          const int *LINDXA) {
  __real_HPL_dlaswp06T(M, N, A, LDA, U, LDU, LINDXA);
  if (in_swap) charge(K_LASWP, P_SWAP, M, N, 0, 1.0);
}
void __real_HPL_dlaswp06N(const int, const int, double *, const int, double *, const int, const int *);
void __wrap_HPL_dlaswp06N(const int M, const int N, double *A, const int LDA, double *U, const int LDU,
                          const int *LINDXA) {
  __real_HPL_dlaswp06N(M, N, A, LDA, U, LDU, LINDXA);
  if (in_swap) charge(K_LASWP, P_SWAP, M, N, 0, 1.0);
}
void __real_HPL_dlaswp10N(const int, const int, double *, const int, const int *);
void __wrap_HPL_dlaswp10N(const int M, const int N, double *A, const int LDA, const int *IPIV) {
  __real_HPL_dlaswp10N(M, N, A, LDA, IPIV);
  if (in_swap) charge(K_LASWP, P_SWAP, N, M, 0, 1.0); /* n x jb block of U: jb column swaps */
}
/* P = 1: the update swaps rows itself, chunk by chunk. */
void __real_HPL_dlaswp00N(const int, const int, double *, const int, const int *);
void __wrap_HPL_dlaswp00N(const int M, const int N, double *A, const int LDA, const int *IPIV) {
  __real_HPL_dlaswp00N(M, N, A, LDA, IPIV);
  if (in_swap)
    charge(K_LASWP, P_SWAP, M, N, 0, 1.0); /* HPL_pdlaswp01N's U */
  else if (in_update && upd_n > 0)
    charge(K_LASWP, P_SWAP, upd_jb, upd_n, 0, (double)N / (double)upd_n);
}
