#pragma once
// Replay of a panel schedule on a SimGrid platform: one actor per rank runs its
// program (traces/schedule.proto) op by op. CPU computes become executions on the
// rank's CPU host, sends/receives mailbox communications that cross the machine
// zone's links; GPU kernels and host<->device copies run on the rank's own GPU
// and GPU link, shared as SimGrid shares them (rank_runner.hpp,
// private_resource.hpp). Overlap (look-ahead, copy engines) and contention come
// out of the simulation; nothing here adds times up by formula.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "models/kernel_model.hpp"
#include "models/noise.hpp"
#include "models/protocol_model.hpp"
#include "sim/engine/platform.hpp"
#include "sim/engine/rank_mean.hpp"
#include "sim/engine/replay_options.hpp"
#include "sim/result/run_result.hpp"
#include "sim/workload/step_source.hpp"
#include "traces/schedule.pb.h"

namespace hplsim::sim {

struct ReplayState;

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

private:
  std::unique_ptr<ReplayState> state_; // shared by the rank actors (replay_state.hpp)
};

} // namespace hplsim::sim
