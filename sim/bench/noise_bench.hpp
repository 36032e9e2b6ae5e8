#pragma once
// A bulk-synchronous noise microbenchmark (the fixed-work-quantum idea of
// FWQ, with a synchronisation after every quantum): every busy core of every
// node is a rank that does `work_s` of CPU work, then all ranks meet in an
// MPI_Allreduce of one double (recursive doubling, the non-power-of-two ranks
// folded in first and out last) or an MPI_Barrier (dissemination). An
// iteration takes as long as its slowest rank's work plus the synchronisation,
// so a detour on any busy core slows the whole iteration: the distribution of
// iteration times shows the machine's system noise (docs/noise.md). Every
// rank and message is simulated on the scenario's machine; the work and the
// messages' software overheads are stretched by the scenario's noise sources
// (machine.variability.noise) on the rank's own core.
#include <string>
#include <vector>

#include "sim/scenario/scenario_defaults.hpp"

namespace hplsim::sim {

struct NoiseBench {
  int nodes = 4;
  int busy_cores = 0; // per node; 0: every core the OS leaves (cores - noise.os_cores_per_node)
  int iterations = 500;
  double work_s = 1e-3;
  std::string sync = "allreduce"; // allreduce | barrier
};

struct NoiseBenchResult {
  std::vector<double> iteration_s; // per iteration: from its start to the end of its synchronisation (rank 0)
  int ranks = 0;
  int busy_cores = 0;
  int spare_cores = 0; // per node: cores the job leaves free (reserved or idle)
};

/// Throws InputError naming the flag when the nodes or cores do not fit the
/// machine; returns the busy cores per node the benchmark would use.
int check_noise_bench(const ResolvedScenario& scenario, const NoiseBench& bench);

/// Runs the benchmark in this process's SimGrid engine (once per process),
/// after check_noise_bench.
NoiseBenchResult simulate_noise_bench(const ResolvedScenario& scenario, const NoiseBench& bench);

/// Iteration-time percentiles (p in [0, 100], nearest rank) of a result.
double iteration_percentile_s(const NoiseBenchResult& result, double p);

} // namespace hplsim::sim
