#pragma once
// The OSU collective latency microbenchmarks (OMB 5.x: osu_allreduce,
// osu_allgather, osu_alltoall, osu_bcast, osu_reduce, osu_barrier,
// osu_gather, osu_scatter) simulated on a scenario's machine: `nodes` nodes
// of `ppn` ranks each, ranks placed node by node (a block placement, as
// mpirun places them by default), host buffers, the scenario's system noise
// (machine.variability.noise) on the ranks' cores. For every
// message size the ranks start together and run the collective as the MPI
// library of the scenario (machine.mpi) would: its algorithm for that size
// and communicator (mpi/mpi_collectives.hpp), every message simulated on the
// machine's routes with its protocol model, every reduction's local combine
// timed at machine.mpi.reduce_bytes_per_s; a rank going on to a step waits
// out a detour of its core (coll_matcher.hpp, StepNoise). OSU's figure is
// each rank's latency averaged over the iterations, then over the ranks; the
// minimum and maximum over the ranks are kept too. Node-level flows run
// without noise.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/scenario/scenario_defaults.hpp"
#include "traces/mpi_collectives.hpp"

namespace hplsim::sim {

struct OsuCollectiveBench {
  mpi::Collective collective = mpi::ALLREDUCE;
  int nodes = 2;
  int ppn = 1;
  std::int64_t min_bytes = 1;
  std::int64_t max_bytes = 1 << 20; // OMB's default maximum for collectives (1 MiB)
  // Forces one algorithm for every size instead of the scenario's table.
  std::optional<mpi::CollectiveAlgorithm> algorithm;
  // How messages become SimGrid flows: one flow per message (RANK), or the
  // node-level flows of sim/bench/osu_node_flows.hpp where they apply (NODE);
  // AUTO takes NODE for the alltoall's pairwise and scattered algorithms above
  // kNodeFlowsAboveNodes nodes, whose message-level runs take hours there
  // (docs/collectives.md, "Node-level flows").
  enum class Flows { Auto, Rank, Node };
  Flows flows = Flows::Auto;
  static constexpr int kNodeFlowsAboveNodes = 8;
  // Iterations per size, each started by an instantaneous barrier (OSU's
  // MPI_Barrier between iterations). 0: one on a quiet machine, where every
  // iteration is the same simulation, and kNoisyIterations under noise [U: OMB
  // runs 1000 below 8 KiB and 100 above; 10 keeps a 32-node run in minutes].
  int iterations = 0;
  static constexpr int kNoisyIterations = 10;
  // False: run without the scenario's noise (the quiet machine).
  bool noise = true;
};

struct OsuCollectiveRow {
  std::int64_t bytes = 0;
  double avg_us = 0, min_us = 0, max_us = 0; // over the ranks
  std::string algorithm;                     // what the table (or --algorithm) chose
  bool node_flows = false;                   // run with node-level flows
  int iterations = 1;                        // averaged over
  bool noisy = false;                        // the scenario's noise applied
};

/// Whether the size runs with node-level flows (OsuCollectiveBench::flows).
bool uses_node_flows(const OsuCollectiveBench& bench, const mpi::CollCall& call);

/// The sizes OSU runs: powers of two from min_bytes (at least 1; 4 for the
/// float reductions allreduce and reduce, as OMB does) to max_bytes, capped
/// for allgather, alltoall, gather and scatter so that one rank's buffer of
/// size x ranks stays within OMB's 512 MiB; barrier has one size, 0.
std::vector<std::int64_t> osu_collective_sizes(const OsuCollectiveBench& bench);

/// Throws InputError naming the flag when the nodes do not fit the machine,
/// the ppn does not fit a node's cores, or the scenario's machine.mpi has no
/// rule for the collective at some size (and no --algorithm is given).
void check_osu_collective(const ResolvedScenario& scenario, const OsuCollectiveBench& bench);

/// Runs the benchmark in this process's SimGrid engine (once per process),
/// after check_osu_collective.
std::vector<OsuCollectiveRow> simulate_osu_collective(const ResolvedScenario& scenario,
                                                      const OsuCollectiveBench& bench);

} // namespace hplsim::sim
