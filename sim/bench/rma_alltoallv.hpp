#pragma once
// MPI_Alltoallv over MPI-3 one-sided communication (RMA), three ways, simulated on a scenario's machine:
// `nodes` nodes of `ppn` ranks, ranks placed node by node, rank i putting count(i, j) bytes into rank j's
// window at the displacement j expects. What each variant calls, per the MPI standard (MPI-4.1, chapter 12):
//
//   baseline          every iteration: the counts and displacements exchanged (an MPI_Alltoall of
//                     `metadata_bytes` per pair), MPI_Win_create over the receive buffer (its memory
//                     registration, then the window's metadata allgathered and a barrier), MPI_Win_fence,
//                     the puts, MPI_Win_fence, MPI_Win_free (barrier, deregistration);
//   fence-persistent  the exchange and MPI_Win_create once (init); every iteration the fence epoch only;
//   lock-persistent   the same init plus MPI_Win_lock_all; every iteration the puts, MPI_Win_flush_all,
//                     then a notification: an 8-byte put of a flag to every target, which each target
//                     waits for from every origin that writes to it (no fence, no barrier).
//
// Where each call's cost comes from: the structure of MPI_Win_create (allgather + barrier), MPI_Win_fence
// (barrier, completion of the epoch's puts, barrier), MPI_Win_free (barrier, completion, barrier) and
// MPI_Put (a message started at once) is SimGrid SMPI's (src/smpi/mpi/smpi_win.cpp, SimGrid 3.32) [P];
// every message is priced on the machine's routes by its protocol model, and the barrier, allgather and
// alltoall run the scenario's machine.mpi selection; registration, deregistration and a put's issue cost
// are RmaCosts below, each [U]. docs/rma-alltoallv.md has the model, its marks and its checks.
//
// With no variability every iteration of a variant is the same simulation, so one is simulated and a
// run's runtime is init + iterations x iteration.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/scenario/scenario_defaults.hpp"

namespace hplsim::sim {

enum class RmaVariant { Baseline = 0, FencePersistent = 1, LockPersistent = 2 };
inline constexpr int kRmaVariants = 3;
std::string rma_variant_name(RmaVariant v);

struct RmaCosts {
  // Memory registration (pinning a buffer for the NIC) as a fixed part plus a part per page: the form
  // Mietke et al. measured ("Analysis of the Memory Registration Process in the Mellanox InfiniBand
  // Software Stack", Euro-Par 2006, LNCS 4128); the values are orders of magnitude [U].
  double register_base_s = 5e-6;
  double register_per_page_s = 0.5e-6;
  double deregister_base_s = 5e-6;
  double deregister_per_page_s = 0.1e-6;
  std::int64_t page_bytes = 4096;
  // The origin core's time to issue one MPI_Put (descriptor, doorbell) [U]; the data moves meanwhile.
  double put_issue_s = 0.3e-6;
  // What MPI_Win_create allgathers per rank: base, size, displacement unit, remote key [U].
  std::int64_t window_info_bytes = 32;
  // What the counts/displacements exchange sends per pair: a count and a displacement [U].
  std::int64_t metadata_bytes = 8;
  // The lock-persistent variant's notification flag per origin and target [U].
  std::int64_t flag_bytes = 8;
};

struct RmaAlltoallvBench {
  int nodes = 4;
  int ppn = 112;
  std::int64_t min_bytes = 8;
  std::int64_t max_bytes = 1 << 20;
  int iterations = 100;
  // Uniform: every rank puts `bytes` into every other. Sparse: a pair exchanges with probability
  // `density`, then count(i, j) = bytes x (0.5 + u), u uniform on [0, 1) (mean `bytes`) [U].
  bool sparse = false;
  double density = 0.1;
  std::uint64_t seed = 1;
  RmaCosts costs;
};

struct RmaAlltoallvRow {
  std::int64_t bytes = 0;                         // the size the counts are scaled to
  std::array<double, kRmaVariants> init_s{};      // once per run (0 for the baseline)
  std::array<double, kRmaVariants> iteration_s{}; // one iteration, the last rank's end
  std::array<double, kRmaVariants> total_s{};     // init + iterations x iteration
};

/// The count rank i puts into rank j for a given size (0: no put); deterministic in the bench's seed.
std::int64_t rma_count(const RmaAlltoallvBench& bench, int i, int j, std::int64_t bytes);

/// The sizes run: powers of two from min_bytes to max_bytes.
std::vector<std::int64_t> rma_sizes(const RmaAlltoallvBench& bench);

/// Throws InputError naming the flag when the layout or a parameter does not fit.
void check_rma_alltoallv(const ResolvedScenario& scenario, const RmaAlltoallvBench& bench);

/// Runs the benchmark in this process's SimGrid engine (once per process), after check_rma_alltoallv.
std::vector<RmaAlltoallvRow> simulate_rma_alltoallv(const ResolvedScenario& scenario,
                                                    const RmaAlltoallvBench& bench);

/// The smallest size from which the `variant`'s run is shorter than the baseline's at that size and every
/// larger one; 0 when it is not shorter at the largest size.
std::int64_t rma_break_even_bytes(const std::vector<RmaAlltoallvRow>& rows,
                                  RmaVariant variant = RmaVariant::FencePersistent);

} // namespace hplsim::sim
