/* Shared-memory MPI ping-pong between two ranks on this machine: the source of
 * machine.node.shm_latency_s and shm_bandwidth_bytes_per_s in
 * scenarios/workstation-cpu.textproto. Build and run (scripts/real-hpl/measure_shm.sh):
 *   mpicc -O2 -o pingpong pingpong.c
 *   mpirun --allow-run-as-root --oversubscribe -np 2 ./pingpong
 * For each message size it times `reps` round trips (reps shrinks with size so
 * a trial lasts well under a scheduler time slice), `trials` times, and prints
 * the least one-way time (half a round trip) per size: on a shared, noisy
 * machine the minimum over many short trials is the closest to the
 * uncontended cost (OSU's latency test uses the mean of one long trial).
 * Output CSV: bytes,one_way_s_min,one_way_s_median,bandwidth_bytes_per_s (bytes / min time). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) fprintf(stderr, "pingpong: needs exactly 2 ranks, got %d\n", size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  enum { trials = 60 };
  const long max_bytes = 1L << 24; /* 16 MiB: past the 32 MiB-L3 half, into DRAM copies */
  char* buf = malloc((size_t)max_bytes);
  memset(buf, 1, (size_t)max_bytes);
  if (rank == 0) printf("bytes,one_way_s_min,one_way_s_median,bandwidth_bytes_per_s\n");
  for (long bytes = 1; bytes <= max_bytes; bytes *= 4) {
    const long reps_wanted = (1L << 18) / bytes; /* ~256 KiB moved per trial and direction */
    const int reps = reps_wanted < 1 ? 1 : (reps_wanted > 100 ? 100 : (int)reps_wanted);
    double t[trials];
    for (int tr = 0; tr < trials; ++tr) {
      MPI_Barrier(MPI_COMM_WORLD);
      /* one untimed round trip as warm-up */
      if (rank == 0) {
        MPI_Send(buf, (int)bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, (int)bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buf, (int)bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, (int)bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
      }
      const double t0 = MPI_Wtime();
      for (int r = 0; r < reps; ++r) {
        if (rank == 0) {
          MPI_Send(buf, (int)bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
          MPI_Recv(buf, (int)bytes, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
          MPI_Recv(buf, (int)bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send(buf, (int)bytes, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
        }
      }
      t[tr] = (MPI_Wtime() - t0) / (2.0 * reps);
    }
    if (rank == 0) {
      qsort(t, (size_t)trials, sizeof t[0], cmp_double);
      printf("%ld,%.9g,%.9g,%.6g\n", bytes, t[0], t[trials / 2], (double)bytes / t[0]);
      fflush(stdout);
    }
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
