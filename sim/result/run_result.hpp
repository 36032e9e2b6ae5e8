#pragma once
// What a simulation produces, whatever the mode: per-step records and the
// whole-run figures. The report writer (sim/report/report.hpp) turns it into
// summary.json, steps.csv, the stdout line and plots (sim/report/).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hplsim::sim {

enum class PhaseId { Pfact = 0, Bcast = 1, Swap = 2, Trsm = 3, Gemm = 4, Solve = 5 };
inline constexpr int kPhaseCount = 6;
inline constexpr std::array<const char*, kPhaseCount> kPhaseNames = {"pfact", "bcast", "swap",
                                                                     "trsm",  "gemm",  "solve"};

/// One fast-mode window as it ran (stats.json: where the simulator's time went).
struct WindowStat {
  std::int64_t first = 0, last = 0; // steps simulated (last = steps: the final solve)
  std::uint64_t activities = 0;
  double wall_s = 0.0; // in its own process
  double peak_rss_bytes = 0.0;
  // At its end: the pages its process shared (smaps_rollup's Shared_*) and,
  // of them, the anonymous ones at least (WindowOutcome, sim/fast/window.hpp);
  // both 0 and shared_measured false when /proc could not be read.
  bool shared_measured = false;
  double shared_end_bytes = 0.0;
  double shared_anonymous_end_bytes = 0.0;
  // The most it held at once that neither the main process nor another window
  // held (docs/fast-mode.md, "What a run costs"): its anonymous pages shared
  // at its end were shared all along (it forks nothing, so none of its pages
  // becomes shared), so its RSS peak less them. Its RSS peak when unmeasured.
  double private_peak_bytes() const {
    return shared_measured ? peak_rss_bytes - shared_anonymous_end_bytes : peak_rss_bytes;
  }
};

struct StepRecord {
  std::int64_t step = 0; // 0-based panel step; the final solve is the last record
  bool final_solve = false;
  double matrix_fraction = 0.0; // k*NB/N at the start of the step
  double start_s = 0.0;         // simulated time the step started (first rank)
  double end_s = 0.0;           // simulated time every rank had finished the step
  // Per-phase time of the step: the maximum over ranks of the time a rank
  // spent in that phase's operations during the step (see docs/replay.md).
  std::array<double, kPhaseCount> phase_s{};
  // Per-phase time of the step averaged over all ranks of the run (what HPL's
  // per-rank phase timers show averaged; docs/replay.md). A folded
  // window estimates it by strata: the ranks that factor a panel in the step
  // (their whole process column is simulated) and the others, whose mean
  // stands for every rank folded away.
  std::array<double, kPhaseCount> mean_phase_s{};
  double flops = 0.0;            // useful flops of the step
  std::string how = "simulated"; // "simulated", "interpolated", "analytic", ...
};

// The published figure a run is held against (Scenario.reference) and what
// the run's calibration made of it.
struct ReferenceFigure {
  std::string id;
  std::string source;
  double rmax_flops_per_s = 0.0;
  // True when a calibration in effect was fitted to this very figure
  // (its fit_targets name the id): the agreement is then by construction.
  bool fit_target = false;
  // When this run is not the one the figure was published for (another
  // nodes, N, NB, P x Q or benchmark): the published run's values and this
  // run's, of what differs ("9,234 nodes" / "16 nodes"). The run is then not
  // compared with the figure. Both empty when it is that run.
  std::string reference_run, this_run;
  bool comparable() const { return reference_run.empty(); }
};

struct RunResult {
  std::string mode;      // "reference", "fast", "analytic"
  std::string benchmark; // "hpl" or "hpl-mxp"
  std::int64_t n = 0, nb = 0;
  int p = 0, q = 0, nodes = 0, ranks = 0, depth = 0;
  std::uint64_t seed = 0;
  std::int64_t steps = 0;        // panel steps
  double time_s = 0.0;           // simulated wall time of the run
  double rmax_flops_per_s = 0.0; // (2/3 N^3 + 3/2 N^2) / time_s for HPL
  bool completed = true;
  // Whether the worst rank's matrix and buffers fit in the memory the machine
  // declares (sim/scenario/memory_fit.hpp); unset when no memory is declared.
  std::optional<bool> fits_in_memory;
  std::string failure;                      // why not completed, empty if completed
  std::optional<ReferenceFigure> reference; // the scenario's published figure, if it names one
  // "calibrated" (a calibration file with fitted parameters in effect, named in
  // calibration_files), "sourced only" (--sourced-only left fitted files out) or
  // "sourced" (the scenario uses no fitted parameter).
  std::string calibration = "sourced";
  std::vector<std::string> calibration_files; // the fitted files in effect, or left out
  // System noise in effect (machine.variability.noise, docs/noise.md), set
  // only when the scenario has a noise source: its parameters as JSON (the
  // proto's JSON form) and a line for stdout.
  std::string noise_json, noise_text;
  // Faults (docs/faults.md): set only when the scenario has faults, so a
  // fault-free run's outputs do not change.
  struct FaultOutcome {
    int id = 0;
    std::string kind;   // "link_flap", "node_failure", "degradation"
    std::string target; // "NIC_PORT 12 (link 4031)", "node 3", "node 3 gpu 1"
    double start_s = 0.0, duration_s = 0.0;
    std::int64_t first_step = -1, last_step = -1; // the steps it touched (-1: none)
    bool touched() const { return first_step >= 0; }
    std::string steps() const { // "a-b", "" when none
      return touched() ? std::to_string(first_step) + "-" + std::to_string(last_step) : std::string();
    }
    int messages_failed = 0, retries = 0;
    double retry_wait_s = 0.0; // summed over the messages it failed
    bool reached = true;       // false: timed after the run's end
    bool ended_run = false;
    std::optional<double> delay_s; // what it added to the run's time (fast mode's fault windows)
  };
  /// Fast mode with link flaps: the run's time without them (the same windows' curve, before the flaps'
  /// delays).
  std::optional<double> fault_free_time_s;
  std::string
      panel_exchange; // HPL's workload.hpl.panel_exchange ("p2p", "hybrid", "collective"); empty for MxP
  /// HPL: the code whose step the run replayed (workload.hpl.code: "netlib-2.3", "intel-gpu",
  /// "rochpl-6", "rochpl-7", "nvidia"; docs/codes/) and the HPL.dat lines the
  /// scenario sets that this code does not read. Empty for MxP.
  std::string code, code_title;
  std::vector<std::string> code_ignores;
  /// HPL's workload.hpl.timer_rule ("netlib", "rochpl", "hpl_gpu", "async_bcast"): which phase column a
  /// wait for a panel is charged to (docs/replay.md, "The timer rule"); empty for MxP.
  std::string timer_rule;
  std::string prescreen; // what pre-screening did (empty without it)
  std::string rederived; // --nodes K: what the grid rule re-derived (empty without it)
  bool has_faults = false;
  std::vector<FaultOutcome> faults;
  double lost_work_s = 0.0;                     // an aborted run: the allocation time it used for nothing
  double restart_setup_s = 0.0;                 // faults.restart_setup_s
  std::optional<double> faults_drawn_through_s; // the seeded processes' horizon (none: listed events only)
  std::vector<StepRecord> step_records;
  // Fast mode's sampling error of Rmax, relative (docs/fast-mode.md, "integrating the curve"): the jackknife
  // over its interior windows, of which there were `sampling_windows`; negative when not estimated (other
  // modes, fewer than two interior windows, or every step simulated).
  double rmax_sampling_error_fraction = -1.0;
  int sampling_windows = 0;
  // MxP refinement
  double refinement_s = 0.0;
  int refinement_iterations = 0;
  // Of them, simulated in fast mode's final window; the others extrapolated
  // (docs/fast-mode.md, point 13). 0: all simulated.
  int refinement_iterations_simulated = 0;
  // Simulator statistics (never in summary.json: they are not deterministic
  // in wall time, only activities are).
  std::uint64_t activities = 0;
  double wall_s = 0.0;
  double peak_rss_bytes = 0.0; // of the main process
  // Fast mode's window processes (docs/fast-mode.md, point 10): how many
  // ran at once, and the largest one's peak RSS (each window's is in
  // `windows`). They share the main process's pages until they write them;
  // peak_rss_bound_bytes (sim/report/report.hpp) bounds the run's memory.
  int window_processes = 0;
  double window_peak_rss_bytes = 0.0;
  // The main process's page faults, as bytes, while window processes ran
  // (fault_bytes_while_children_ran, sim/support/child_process.hpp): it
  // bounds the pages a window kept that the main process had let go of.
  double main_fault_bytes_while_windows_ran = 0.0;
  std::vector<WindowStat> windows;
};

/// Fills time_s (the last step's end), refinement_s (HPL-MxP) and
/// rmax_flops_per_s (HPL's operation count over time_s) from the step records.
void finalize_result(RunResult& result);

} // namespace hplsim::sim
