#pragma once
// Reports of one simulated run (sim/result/run_result.hpp): summary.json and
// steps.csv (deterministic: same RunResult => same bytes), stats.json (the
// simulator's own, non-deterministic figures) and a human summary in the
// spirit of HPL's output. Plots are in sim/report/plot_svg.hpp.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "sim/report/crossover.hpp"
#include "sim/result/run_result.hpp"

namespace hplsim::sim {

/// Sum over the step records of each phase's time, indexed by PhaseId.
std::array<double, kPhaseCount> phase_totals_s(const RunResult& result);
/// The same for the rank-mean phase times (StepRecord::mean_phase_s).
std::array<double, kPhaseCount> mean_phase_totals_s(const RunResult& result);

/// Which phase is the largest of the rank-mean times (pfact, bcast, swap,
/// trsm, gemm), as runs of consecutive panel steps: the per-step phase curve
/// of an HPL timer report, in which the Aurora paper sees "GEMM dominates the
/// early steps; as the trailing matrix shrinks, SWAP becomes the largest
/// per-step phase". Decided per bin of 1% of the panel steps (kDominanceBins;
/// one step per bin below 100 steps) on the bin's summed times, so that phases
/// trading places step by step near a crossing do not split the answer into a
/// run per step. Bins without any phase time are skipped.
inline constexpr std::size_t kDominanceBins = 100;
struct DominantRun {
  PhaseId phase = PhaseId::Gemm;
  std::int64_t first_step = 0;
  std::int64_t last_step = 0;
};
std::vector<DominantRun> dominant_phases(const RunResult& result);

/// A step's rate: flops / (end_s - start_s) / 1e12; 0 when the step has no duration.
double step_rate_tflops(const StepRecord& record);

/// summary.json, keys in this order: benchmark, mode, seed, n, nb, p, q, nodes,
/// ranks, depth, steps, time_s, rmax_tflops, rmax_flops_per_s, phase_totals_s
/// {pfact, bcast, swap, trsm, gemm, solve}, phase_mean_totals_s (the same
/// keys), dominant_phases [{phase, first_step, last_step}], crossover_step,
/// crossover_fraction, rate_drop_step, rate_drop_fraction, gemm_below_comm_step,
/// gemm_below_comm_fraction, gemm_below_phase_step, gemm_below_phase_fraction, gemm_below_phase (the
/// phase GEMM falls below; sim/report/crossover.hpp), timer_rule (HPL: which column a wait for a
/// panel is in; docs/replay.md, "The timer rule"), completed, failure, fits_in_memory (null when the
/// machine declares no memory), and for hpl-mxp refinement_s, refinement_iterations.
/// No wall-clock figure, path or timestamp. Doubles are written as the shortest
/// text that reads back to the same value; non-finite ones as null.
/// Throws OutputError (sim/support/errors.hpp) when the file cannot be written.
void write_summary_json(const RunResult& result, const std::string& path);
/// The same document as text (a sweep's point sends it back to be tabulated).
std::string summary_json_text(const RunResult& result);

/// steps.csv: header
///   step,matrix_fraction,start_s,end_s,step_s,pfact_s,bcast_s,swap_s,trsm_s,gemm_s,solve_s,
///   pfact_mean_s,bcast_mean_s,swap_mean_s,trsm_mean_s,gemm_mean_s,solve_mean_s,flops,rate_tflops,how
/// then one row per step record (final solve included). step_s = end_s - start_s,
/// rate_tflops = step_rate_tflops(). Throws OutputError.
void write_steps_csv(const RunResult& result, const std::string& path);

/// The run's memory bound with fast mode's window processes: the main
/// process's peak RSS, plus the pages it faulted in while windows ran, plus
/// the window_processes largest private window peaks (WindowStat). Without
/// recorded windows: main's peak plus window_processes times the largest
/// window's RSS peak.
double peak_rss_bound_bytes(const RunResult& result);

/// stats.json: wall_s, activities, activities_per_s (null when wall_s <= 0),
/// peak_rss_bytes. Not deterministic. Throws OutputError.
void write_stats_json(const RunResult& result, const std::string& path);

/// HPL-style human summary: the "T/V N NB P Q Time Gflops" table, Rmax in the
/// unit that fits, phase totals, crossover, outcome, simulator statistics.
void print_summary(const RunResult& result, std::ostream& out);

} // namespace hplsim::sim
