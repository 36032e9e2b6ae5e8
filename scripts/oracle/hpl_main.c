/*
 * hpl_main.c -- entry point for the HPL 2.0 copy shipped in hpcc 1.5.0.
 *
 * Part of hplsim's SMPI oracle (docs/smpi-oracle.md); our own code.
 * hpcc turned HPL's main() into HPL_main(), left MPI_Init/MPI_Finalize to
 * its caller, and made HPL_pdinfo() call HPCC_Defaults() when hpccinf.txt
 * cannot be read. This file supplies the missing main() and a stub for
 * HPCC_Defaults() that aborts instead of substituting default parameters.
 *
 * HPL itself writes its report to ./hpccoutf.txt (appending), with times
 * rounded to 0.01 s. Rank 0 also prints to stdout, at full precision:
 *   HPLSIM_ORACLE N=... NB=... P=... Q=... time=... gflops=... failure=...
 *     (the run with the best Gflops, from hpcc's HPL_RuntimeData)
 *   HPLSIM_ORACLE_TIMERS pdgesv=... rfact=... pfact=... mxswp=... update=...
 *     laswp=... uptrsv=...
 *     (HPL's wall-clock timers of the last run, maximum over all ranks, as
 *     HPL_pdtest prints them; the phases need -DHPL_DETAILED_TIMING)
 *   HPLSIM_ORACLE_RANK r pdgesv rfact pfact mxswp update laswp uptrsv
 *     (each rank's own timers, one line a rank)
 *   HPLSIM_ORACLE_STEP k t
 *     (with the oracle's hooks: when rank 0's last update with panel k ended,
 *     seconds from the start of HPL_pdgesv)
 * so use one (N, NB, P, Q, ...) combination per input file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "hpl.h"

int HPL_main(int argc, char **argv, HPL_RuntimeData *rdata, int *failure);
/* scripts/oracle/hpl_hooks.c, when linked in (the oracle's build). */
extern int hplsim_hooks_steps(const double **ends) __attribute__((weak));

/* Same signature as the declaration in hpcc's testing/ptest/HPL_pdinfo.c. */
int HPCC_Defaults(HPL_T_test *TEST, int *NS, int *N, int *NBS, int *NB,
                  HPL_T_ORDER *PMAPPIN, int *NPQS, int *P, int *Q,
                  int *NPFS, HPL_T_FACT *PF, int *NBMS, int *NBM,
                  int *NDVS, int *NDV, int *NRFS, HPL_T_FACT *RF,
                  int *NTPS, HPL_T_TOP *TP, int *NDHS, int *DH,
                  HPL_T_SWAP *FSWAP, int *TSWAP, int *L1NOTRAN, int *UNOTRAN,
                  int *EQUIL, int *ALIGN, MPI_Comm comm)
{
  int rank = 0;
  (void)TEST; (void)NS; (void)N; (void)NBS; (void)NB; (void)PMAPPIN;
  (void)NPQS; (void)P; (void)Q; (void)NPFS; (void)PF; (void)NBMS; (void)NBM;
  (void)NDVS; (void)NDV; (void)NRFS; (void)RF; (void)NTPS; (void)TP;
  (void)NDHS; (void)DH; (void)FSWAP; (void)TSWAP; (void)L1NOTRAN;
  (void)UNOTRAN; (void)EQUIL; (void)ALIGN;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    fprintf(stderr, "hpl_main: hpccinf.txt is missing or invalid; aborting\n");
  MPI_Abort(comm, 1);
  return 1;
}

int main(int argc, char **argv)
{
  HPL_RuntimeData rdata;
  int failure = 0, rank = 0;
  double total = 0.0, phase[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};

  MPI_Init(&argc, &argv);
  memset(&rdata, 0, sizeof rdata); /* HPL_main keeps the best Gflops run */
  HPL_main(argc, argv, &rdata, &failure);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  /* HPL's timers still hold the last run; HPL_pdtest read them the same way. */
  HPL_ptimer_combine(MPI_COMM_WORLD, HPL_AMAX_PTIME, HPL_WALL_PTIME, 1, 0, &total);
#ifdef HPL_DETAILED_TIMING
  HPL_ptimer_combine(MPI_COMM_WORLD, HPL_AMAX_PTIME, HPL_WALL_PTIME,
                     HPL_TIMING_N, HPL_TIMING_BEG, phase);
#endif
  if (rank == 0) {
    printf("HPLSIM_ORACLE N=%d NB=%d P=%d Q=%d time=%.9f gflops=%.9e failure=%d\n",
           rdata.N, rdata.NB, rdata.nprow, rdata.npcol, rdata.time,
           rdata.Gflops, failure);
    printf("HPLSIM_ORACLE_TIMERS pdgesv=%.9f rfact=%.9f pfact=%.9f mxswp=%.9f"
           " update=%.9f laswp=%.9f uptrsv=%.9f\n", total,
           phase[0], phase[1], phase[2], phase[3], phase[4], phase[5]);
    fflush(stdout);
  }
#ifdef HPL_DETAILED_TIMING
  {
    /* Every rank's own timers (the wall time of HPL_pdgesv, then rfact ..
     * uptrsv), gathered on rank 0 and printed one line a rank, for the
     * comparison's per-rank view (scripts/oracle/compare.py). */
    enum { K = 1 + HPL_TIMING_N };
    double mine[K], *all = NULL;
    int size = 1, r, i;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mine[0] = HPL_ptimer_inquire(HPL_WALL_PTIME, 0);
    for (i = 0; i < HPL_TIMING_N; ++i) mine[1 + i] = HPL_ptimer_inquire(HPL_WALL_PTIME, HPL_TIMING_BEG + i);
    if (rank == 0) all = (double *)malloc(sizeof(double) * K * (size_t)size);
    MPI_Gather(mine, K, MPI_DOUBLE, all, K, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      for (r = 0; r < size; ++r) {
        printf("HPLSIM_ORACLE_RANK %d", r);
        for (i = 0; i < K; ++i) printf(" %.9f", all[K * r + i]);
        printf("\n");
      }
      fflush(stdout);
      free(all);
    }
  }
#endif
  if (rank == 0 && hplsim_hooks_steps != NULL) {
    /* Rank 0's per-step view: when its last update with panel k ended. */
    const double *ends = NULL;
    const int steps = hplsim_hooks_steps(&ends);
    int k;
    for (k = 0; k < steps; ++k) printf("HPLSIM_ORACLE_STEP %d %.9f\n", k, ends[k]);
    fflush(stdout);
  }
  MPI_Finalize();
  /* A failed residual check is reported above, not as an error: the oracle's
   * xhpl may skip the arithmetic (HPLSIM_ORACLE_COMPUTE=0). */
  return 0;
}
