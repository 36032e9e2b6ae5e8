#pragma once
// The verbs of `hplsim`, one file each (sim/cli/<verb>_command.cpp). Each adds
// its subcommand and flags to the application and returns what runs it; the
// dispatcher (sim/cli/cli.cpp) runs the one that was parsed and is the only
// place that turns errors into exit codes (sim/support/errors.hpp).
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sim/scenario/scenario_defaults.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "sim/study/sweep.hpp"

namespace hplsim::sim {

struct Command {
  CLI::App* app = nullptr;  // the subcommand
  std::function<int()> run; // its action, once parsed; returns the exit code
};

Command add_run_command(CLI::App& app);
Command add_topo_command(CLI::App& app);
Command add_trace_command(CLI::App& app);
Command add_calibrate_command(CLI::App& app);
Command add_osu_command(CLI::App& app);
Command add_noise_bench_command(CLI::App& app);
Command add_plan_command(CLI::App& app);
Command add_sweep_command(CLI::App& app);
Command add_sensitivity_command(CLI::App& app);
Command add_report_command(CLI::App& app);
Command add_rma_alltoallv_command(CLI::App& app);

/// A whole-number flag's lower bound, its error in the flag's words:
/// "--trials: must be at least 1 (got 0)".
CLI::Validator at_least(long long minimum);
/// A positive number flag: "--window-hours: must be greater than 0 (got -1)".
CLI::Validator greater_than_zero();

/// Warns on stderr that `what` ("the 50 trials") are all identical when the
/// scenario has no fault process to draw from (listed faults are the same in
/// every trial, and a trial's draws are its only difference).
void warn_if_trials_identical(const ResolvedScenario& scenario, const std::string& path,
                              const std::string& what);

/// `hplsim --version`: hplsim's version, then the SimGrid and Protobuf it was built with.
std::string version_text();

/// The scenario flags every verb that takes a scenario shares: --set and the
/// HPL.dat-style --nodes --ppn --N --NB --P --Q --depth.
void add_scenario_flags(CLI::App* cmd, ScenarioOverrides& overrides);

/// What a study's verbs (plan, sweep) take of the scenario: --mode, --seed,
/// --set (the workload itself is theirs to vary).
struct StudyScenarioFlags {
  std::string mode;
  unsigned long long seed = 0;
  std::vector<std::string> set;
  bool sourced_only = false;
  /// The overrides they make; call once parsed (`cmd` tells whether --seed was given).
  ScenarioOverrides overrides(const CLI::App& cmd) const;
};
void add_study_scenario_flags(CLI::App* cmd, StudyScenarioFlags& flags);

/// A sweep's points to run (sim/cli/sweep_command.cpp): `hplsim sweep` and
/// `hplsim run --hpl-dat` with several runs.
struct SweepRun {
  std::string scenario_path, out_dir;
  int jobs = 0;                      ///< 0: the CPUs available
  std::string rule;                  ///< printed with the table
  std::string source;                ///< the HPL.dat the points come from ("": --vary/--grids)
  std::vector<std::string> warnings; ///< printed on stderr before the runs
  bool dry_run = false;              ///< list the validated points and stop
};
/// Validates every point (an error names the HPL.dat run when `source` is
/// set), runs them, writes sweep.csv and sweep.svg and prints the ranking.
int run_sweep_points(const SweepRun& run, const std::vector<SweepPoint>& points);

} // namespace hplsim::sim
