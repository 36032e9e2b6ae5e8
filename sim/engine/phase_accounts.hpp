#pragma once
// One rank's phase accounting in the replay (docs/replay.md, "Phase
// accounting"): per open step, the intervals of the rank's ops by phase; a
// phase's time in the step is their union (ops of one phase overlap: an async
// receive posted before the blocking send of the same exchange, a rank's
// GEMMs on its several GPUs, copies, and are counted once).
#include <array>
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

#include "sim/engine/rank_mean.hpp"
#include "sim/result/run_result.hpp"
#include "traces/schedule.pb.h"

namespace hplsim::sim {

/// The PhaseId index a schedule phase is accounted under (-1: none; staging
/// copies outside any phase are not attributed).
int phase_index(traces::Phase phase);

class PhaseAccounts {
public:
  /// The phase code of an op charged to `phase` only outside the step's GEMM
  /// intervals (Recv.timer_outside_gemm); add() takes it like a phase.
  static constexpr int kOutsideGemm = 1 << 8;
  static int outside_gemm(int phase) { return phase < 0 ? phase : phase + kOutsideGemm; }

  /// Opens step position `pos` (every rank opens one per step).
  void open(std::size_t pos);
  /// Adds an op of `phase` (-1: none; outside_gemm(p): add_outside(p, GEMM)) that ran over
  /// [start_s, end_s] in step `pos`.
  /// Throws std::logic_error when the step is closed (a replay bug).
  void add(std::size_t pos, int phase, double start_s, double end_s);
  /// As add, counted only outside the step's intervals of phase `outside`
  /// (subtracted when the step closes: Recv.timer_outside_gemm).
  void add_outside(std::size_t pos, int phase, int outside, double start_s, double end_s);
  /// Closes the steps at least two positions before `current` (every step
  /// when `current` is SIZE_MAX) for which `busy(pos)` is false, calling
  /// `closed(pos, phase_s)` with each one's per-phase times, in opening order.
  void close(std::size_t current, const std::function<bool(std::size_t)>& busy,
             const std::function<void(std::size_t, const RankPhases&)>& closed);

  /// The length of the union of `intervals` (sorted in place).
  static double union_length(std::vector<std::pair<double, double>>& intervals);

private:
  struct Accumulator {
    std::size_t pos;
    std::array<std::vector<std::pair<double, double>>, kPhaseCount> intervals;
    struct Outside {
      int phase, outside;
      double start_s, end_s;
    };
    std::vector<Outside> outside;
  };
  // Moves each Outside interval, less the union of its `outside` phase's, into its phase.
  static void settle_outside(Accumulator& a);
  // Accumulators are recycled (their interval vectors keep their capacity).
  std::vector<Accumulator> open_, spare_;
};

} // namespace hplsim::sim
