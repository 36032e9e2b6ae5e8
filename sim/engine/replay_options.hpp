#pragma once
// What a replay (sim/engine/replay.hpp) is told and what it counts.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "models/kernel_model.hpp"
#include "models/noise.hpp"
#include "traces/schedule.pb.h"

namespace hplsim::sim {

class FaultsRuntime;

struct ReplayOptions {
  std::int64_t steps = 0; // panel steps; step `steps` is the final solve
  std::int64_t n = 0, nb = 0;
  bool copy_overlap = true; // D2H/H2D may run while the GPU computes
  int copy_engines = 2;     // concurrent copies per GPU
  double kernel_jitter_cv = 0.0;
  /// A node's GPU kernels in a panel step take S times as long, S lognormal
  /// (mean 1, this cv) keyed by (seed, node, step): shared by the node's GPUs.
  double node_gpu_step_cv = 0.0;
  /// How a rank's CPU kernels use its threads (docs/architecture.md): the
  /// panel factorization (phase PFACT) on workload.panel_threads; the other
  /// CPU kernels (phases SWAP, TRSM, GEMM, BCAST) and the final solve / refinement
  /// (phase SOLVE) as set here: one thread for HPL (Aurora's HPL: single-threaded
  /// BLAS on the CPU side; HPL_pdtrsv), the rank's threads for HPL-MxP.
  models::CpuThreading panel_threading;
  models::CpuThreading other_threading;
  models::CpuThreading solve_threading;
  /// The threading of a CPU kernel of `phase` (one of the three above).
  const models::CpuThreading& threading_for(traces::Phase phase) const {
    return phase == traces::PFACT   ? panel_threading
           : phase == traces::SOLVE ? solve_threading
                                    : other_threading;
  }
  std::uint64_t seed = 1;
  /// System noise on the CPU cores (models/noise.hpp): CPU kernels, message
  /// overheads and the priced collectives' CPU parts are stretched by the
  /// detours of the rank's cores, drawn from `seed`. nullptr: no noise.
  std::shared_ptr<const models::NoiseConfig> noise;
  /// GPU-aware MPI's device path (machine.placement): messages whose buffers
  /// are in GPU memory (Send/Recv.device) cost their sender this software time
  /// and move at most at this rate (0 = no cap).
  double device_message_overhead_s = 0.0;
  double device_message_rate_bytes_per_s = 0.0;
  /// Called from the simulation with the fraction of steps done (for a progress bar).
  std::function<void(double)> progress;
  /// Ranks that take part (nullptr = all): fast mode replays a subset.
  const std::vector<bool>* active_ranks = nullptr;
  /// Steps to replay, in order (empty = all of [0, steps]).
  std::vector<std::int64_t> step_list;
  /// Price each rank's GPU kernels and host-device copies on its private resources
  /// (sim/engine/private_resource.hpp) instead of as SimGrid activities; the same
  /// times, as long as nothing else uses those resources: copies where their link
  /// is the rank's own (Platform::copies_are_private), kernels on a GPU whose speed
  /// does not change in the run (no degradation from a later time).
  bool private_resources = true;
  /// Faults inside the run (sim/engine/faults_runtime.hpp): the retry handler
  /// the transfers use. nullptr: no fault, and no retry code on any path.
  FaultsRuntime* faults = nullptr;
};

struct ReplayStats {
  std::uint64_t executions = 0;
  std::uint64_t messages = 0;
  std::uint64_t copies = 0;
  std::uint64_t exchanges = 0; // collective pivot exchanges (fast mode), one per member
  std::uint64_t activities() const { return executions + messages + copies + exchanges; }
};

} // namespace hplsim::sim
