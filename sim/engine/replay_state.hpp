#pragma once
// What the rank actors of a replay share (sim/engine/replay.hpp): the
// schedule, the records they fill, the collectives they meet in.
#include <cstdint>
#include <memory>
#include <vector>

#include "models/noise.hpp"
#include "models/protocol_model.hpp"
#include "sim/engine/collective_sync.hpp"
#include "sim/engine/panel_kernels.hpp"
#include "sim/engine/pivot_exchange.hpp"
#include "sim/engine/platform.hpp"
#include "sim/engine/rank_mean.hpp"
#include "sim/engine/replay_marks.hpp"
#include "sim/engine/replay_options.hpp"
#include "sim/engine/step_window.hpp"
#include "sim/result/run_result.hpp"
#include "sim/workload/step_source.hpp"

namespace hplsim::sim {

struct ReplayState {
  const Platform& platform;
  const models::KernelModels& kernels;
  const models::ProtocolModel* protocol;
  StepSource source;
  ReplayOptions options;
  std::vector<std::int64_t> steps;
  std::unique_ptr<StepWindow> window;
  std::vector<StepRecord> records;
  std::vector<RankMean> step_means;      // parallel to records (StepRecord::mean_phase_s)
  std::vector<RankPhases> rank_phase_s;  // per rank: its phase times summed over its closed steps
  std::vector<RankPhases> rank_kernel_s; // per rank: the seconds of its kernels, by phase
  std::vector<double> rank_swap_bcast_s; // per rank: broadcast work its probes did inside a row swap
  std::vector<int> ranks_done;           // parallel to records: active ranks done with the step
  ReplayMarks marks;
  std::unique_ptr<PivotExchanges> exchanges;
  std::unique_ptr<CollectiveSyncs> syncs;
  std::unique_ptr<models::NoiseModel> noise; // null when the run has no noise
  PanelKernels panel_kernels;                // the owner column's panel parts, priced once per distinct part
  ReplayStats stats;
  // Whether the ranks' GPU kernels and host-device copies are priced on their
  // private resources (sim/engine/private_resource.hpp) instead of as SimGrid activities.
  bool private_gpus = false;
  bool private_copies = false;
  double makespan_s = 0.0;
  int active = 0;
  int finished = 0;

  ReplayState(const Platform& p, const models::KernelModels& k, const models::ProtocolModel* pr, StepSource s,
              ReplayOptions o)
      : platform(p), kernels(k), protocol(pr), source(std::move(s)), options(std::move(o)),
        panel_kernels(k, options.panel_threading) {}
};

} // namespace hplsim::sim
