#pragma once
// `hplsim plan` (docs/studies.md, "Capacity planning"): one scenario at
// several node counts, each re-derived by sim/scenario/grid_rule.hpp, its
// fault-free prediction and its trials (sim/run/trials.hpp), and the best node
// count under each objective:
//   rmax-in-window  the highest expected Rmax of a completed run within the
//                   allocation window: Rmax x P(a result within H hours);
//   time-to-result  the shortest expected wall time to one completed run,
//                   failed attempts and their restart set-up included.
// A point's figures are numbers only, so that a point computed in a process
// of its own (or on another MPI rank) travels back as raw bytes.
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/result/trial_row.hpp"
#include "sim/run/trials.hpp"
#include "sim/study/outcome.hpp"

namespace hplsim::sim {

enum class Objective : int { RmaxInWindow = 0, TimeToResult = 1 };
inline constexpr const char* kObjectiveNames[] = {"rmax-in-window", "time-to-result"};

struct PlanPoint {
  int nodes = 0, ranks = 0, p = 0, q = 0;
  /// The nodes whose ranks run HPL and the ranks left idle (sim/study/plan_grid.hpp); a point
  /// made by plan_point alone has every node active.
  int active_nodes = 0, idle_ranks = 0;
  bool memory_capped = false; ///< N lowered below the grid rule's to fit the memory
  std::int64_t n = 0, nb = 0;
  bool simulated = false;         ///< false: the fault-free simulation did not complete (`failure`)
  double fault_free_time_s = 0.0; ///< the run without faults
  double fault_free_rmax_flops_per_s = 0.0;
  double sampling_error_fraction = -1.0; ///< fast mode's own estimate; < 0: not estimated
  int trials = 0, completed = 0;
  double p_complete = 0.0, p_complete_low = 0.0, p_complete_high = 0.0;
  double time_mean_s = 0.0, rmax_mean_flops_per_s = 0.0; ///< over the completed trials (0: none)
  double restart_setup_s = 0.0;
  /// Expected wall time to one result and its interval (infinite when none completed, or when
  /// P(complete)'s lower bound is 0).
  double time_to_result_s = 0.0, time_to_result_low_s = 0.0, time_to_result_high_s = 0.0;
  /// P(a completed run within the window) and its interval.
  double p_in_window = 0.0, p_in_window_low = 0.0, p_in_window_high = 0.0;
  /// Rmax of a completed run x P(a completed run within the window), and its interval.
  double rmax_in_window_flops_per_s = 0.0, rmax_in_window_low = 0.0, rmax_in_window_high = 0.0;
  char failure[200] = {}; ///< why the fault-free simulation did not complete
};
static_assert(std::is_trivially_copyable_v<PlanPoint>, "travels as raw bytes");

/// The wall-clock probability of a first completed run within `window_s`:
/// attempts follow each other (a failed one costs its abort time plus the
/// restart set-up), each drawn from the trials' empirical distribution with
/// the completed trials weighted p / completed and the failed ones (1 - p) /
/// failed. Evaluated on a grid of `grid` points over [0, window_s], each
/// failed attempt's cost rounded up to the grid (so a lower bound, within one
/// grid step per attempt).
double p_result_within(const std::vector<TrialRow>& rows, double p, double restart_setup_s, double window_s,
                       int grid = 4000);

/// E[time to a result] at P(complete) = p: (1 - p) / p (E[X] + R) + E[T]
/// (sim/study/outcome.hpp); infinite at p = 0.
double expected_time_to_result_at(double p, double mean_failed_s, double restart_setup_s,
                                  double mean_completed_s);

/// The point's figures from its trials. Intervals: P(complete)'s 95% Wilson
/// bounds carried through each objective (both are monotone in p), the
/// completed runs' Rmax and times and the failed runs' abort times held at
/// their trial values, then widened by twice fast mode's own sampling error
/// of the run (its jackknife) when it has one.
PlanPoint plan_point(const TrialsResult& trials, double window_s);

/// The index of the best point under `objective` (nullopt: none qualifies),
/// and whether its interval is clear of every other point's (a real winner,
/// not sampling noise).
struct Best {
  std::optional<std::size_t> index;
  bool separated = false;
};
Best best_point(const std::vector<PlanPoint>& points, Objective objective);

/// plan.csv: one row per node count.
void write_plan_csv(const std::vector<PlanPoint>& points, const std::string& path);
/// plan.svg: each objective against node count, with intervals, the best marked.
void write_plan_svg(const std::vector<PlanPoint>& points, const std::vector<Objective>& objectives,
                    double window_h, const std::string& path);
/// The table and the best node count under each objective.
void print_plan(const std::vector<PlanPoint>& points, const std::vector<Objective>& objectives,
                double window_h, std::ostream& out);

} // namespace hplsim::sim
