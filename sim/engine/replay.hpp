#pragma once
// Replay of a panel schedule on a SimGrid platform: one actor per rank runs its
// program (traces/schedule.proto) op by op. Computes become executions on the
// rank's CPU or GPU host, sends/receives become mailbox communications that
// cross the machine zone's links, copies become host<->device transfers over
// PCIe. Overlap (look-ahead, copy engines) and contention come out of the
// simulation; nothing here adds times up by formula.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "models/kernel_model.hpp"
#include "models/noise.hpp"
#include "models/protocol_model.hpp"
#include "sim/engine/platform.hpp"
#include "sim/engine/rank_mean.hpp"
#include "sim/result/run_result.hpp"
#include "sim/workload/step_source.hpp"
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

/// Starts the rank actors. Call after the platform is built and before
/// Engine::run(); read the results after run() returns.
class Replay {
public:
  Replay(const Platform& platform, const models::KernelModels& kernels, const models::ProtocolModel* protocol,
         StepSource source, ReplayOptions options);
  ~Replay();
  /// Creates the rank actors and returns them (join them to wait for the end).
  std::vector<sg4::ActorPtr> start();
  /// From inside an actor: starts the rank actors and waits until they end.
  void run_to_end();
  /// Per-step records (index = position in the step list) once the simulation ended.
  const std::vector<StepRecord>& records() const;
  /// Per rank (index = rank): its phase times summed over the steps it ran
  /// (each step's union of the rank's op intervals by phase, as the records'), once the simulation ended.
  const std::vector<RankPhases>& rank_phase_totals_s() const;
  /// Per rank: the seconds its kernels took (as priced, jitter included), by phase.
  const std::vector<RankPhases>& rank_kernel_totals_s() const;
  /// Per rank: the broadcast work (BCAST phase) its probes did while it was in
  /// a PolledUpdate's row swap, which netlib HPL's laswp timer counts.
  const std::vector<double>& rank_swap_bcast_s() const;
  const ReplayStats& stats() const;
  /// By Mark id (traces::Mark): the latest time a rank passed it, NaN for an
  /// id no rank passed; empty when the schedule has no marks.
  const std::vector<double>& marks() const;
  double makespan_s() const;
  /// Ranks whose program ran to the end (a deadlock or a failure leaves fewer).
  int finished_ranks() const;
  int active_ranks() const;

  struct State; // shared by the rank actors (replay.cpp)

private:
  std::unique_ptr<State> state_;
};

} // namespace hplsim::sim
