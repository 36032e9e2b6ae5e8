// `hplsim run SCENARIO`: one simulation, its reports and plots.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <unistd.h>

#include "sim/cli/commands.hpp"
#include "sim/cli/run_trials.hpp"
#include "sim/distributed/world.hpp"
#include "sim/fast/fast_cost.hpp"
#include "sim/report/about.hpp"
#include "sim/report/faults_report.hpp"
#include "sim/report/plot_svg.hpp"
#include "sim/report/report.hpp"
#include "sim/run/simulate.hpp"
#include "sim/run/trials.hpp"
#include "sim/scenario/hpl_dat.hpp"
#include "sim/scenario/memory_fit.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "sim/study/hpl_dat_points.hpp"
#include "sim/study/trials_study.hpp"
#include "sim/support/child_process.hpp"
#include "sim/support/output_files.hpp"

namespace hplsim::sim {

namespace {

// A progress bar on stderr, shown only when stderr is a terminal and the run
// has lasted more than two seconds.
class ProgressBar {
public:
  explicit ProgressBar(bool shown = true)
      : enabled_(shown && isatty(STDERR_FILENO) != 0), start_(std::chrono::steady_clock::now()) {}
  void update(double fraction) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    const double elapsed_s = std::chrono::duration<double>(now - start_).count();
    if (elapsed_s < 2.0 || now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    shown_ = true;
    const int width = 40;
    const int filled = static_cast<int>(fraction * width);
    const double eta_s = fraction > 0 ? elapsed_s * (1.0 - fraction) / fraction : 0.0;
    std::fprintf(stderr, "\r[%.*s%*s] %5.1f%%  elapsed %.0fs  eta %.0fs ", filled,
                 "########################################", width - filled, "", 100.0 * fraction, elapsed_s,
                 eta_s);
    std::fflush(stderr);
  }
  void finish() {
    if (shown_) std::fprintf(stderr, "\r%*s\r", 80, "");
  }

private:
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_{};
};

struct RunArgs {
  std::string path, out_dir, mode, hpl_dat, machine;
  ScenarioOverrides overrides;
  unsigned long long seed = 0;
  bool seed_given = false;
  bool dry_run = false;
  int trials = 0; // 0: one run (no --trials)
  int jobs = 0;   // 0: the CPUs the run may use
  std::vector<std::string> strategies;
};

// --hpl-dat F --machine SCENARIO: the scenario's machine with the HPL.dat's
// run (one point), or the HPL.dat's runs as a sweep (several). Returns the
// sweep's exit code, or nothing when `a` now names the one run.
std::optional<int> take_hpl_dat(RunArgs& a, const CLI::App& cmd) {
  if (a.hpl_dat.empty()) {
    if (!a.machine.empty())
      throw InputError("--machine goes with --hpl-dat (give both, or a scenario alone)");
    if (a.path.empty()) throw InputError("run: give a scenario, or --hpl-dat HPL.dat --machine SCENARIO");
    return std::nullopt;
  }
  if (!a.path.empty())
    throw InputError("run --hpl-dat: the scenario " + a.path +
                     " is given as well; the machine comes from --machine SCENARIO");
  if (a.machine.empty()) throw InputError("run --hpl-dat: give the machine with --machine SCENARIO");
  for (const char* flag : {"--nodes", "--ppn", "--N", "--NB", "--P", "--Q", "--depth"})
    if (cmd.count(flag) > 0)
      throw InputError(std::string("run --hpl-dat: ") + flag + " is the HPL.dat's to give (or use --set)");
  const HplDat dat = read_hpl_dat(a.hpl_dat);
  const ResolvedScenario machine = resolve(load_scenario(a.machine, a.overrides));
  std::vector<SweepPoint> points = hpl_dat_points(dat, machine, a.overrides);
  const std::string stem = std::filesystem::path(a.hpl_dat).filename().string();
  if (points.size() > 1) {
    if (a.trials > 0)
      throw InputError("run --hpl-dat --trials: " + a.hpl_dat + " lists " + std::to_string(points.size()) +
                       " runs; trials take one (leave one value per line)");
    std::cout << a.hpl_dat << " lists " << points.size() << " runs: they run as a sweep\n";
    if (a.out_dir.empty()) a.out_dir = "hplsim-out/" + stem + "-sweep";
    return run_sweep_points(
        {a.machine, a.out_dir, a.jobs, kHplDatPlacementRule, a.hpl_dat, dat.warnings, a.dry_run}, points);
  }
  for (const std::string& w : dat.warnings)
    std::cerr << "hplsim: warning: " << w << "\n";
  std::cout << "Placement: " << kHplDatPlacementRule << "\n";
  a.path = a.machine;
  a.overrides = points.front().overrides;
  if (a.out_dir.empty()) a.out_dir = "hplsim-out/" + stem;
  return std::nullopt;
}

int run(RunArgs a, const CLI::App& cmd) {
  if (!a.mode.empty()) a.overrides.mode = a.mode;
  if (a.seed_given) a.overrides.seed = a.seed;
  if (const std::optional<int> swept = take_hpl_dat(a, cmd)) return *swept;
  if (a.out_dir.empty()) a.out_dir = "hplsim-out/" + std::filesystem::path(a.path).stem().string();
  const World& world = World::current();
  if (!a.strategies.empty() && a.trials == 0)
    throw InputError("--strategies compares strategies over trials: give --trials K");
  if (world.size() > 1 && a.trials == 0)
    throw InputError("hplsim run under MPI (" + std::to_string(world.size()) +
                     " ranks) needs --trials: one run is one process's work, a study's trials are split");
  const LoadedScenario loaded = load_scenario(a.path, a.overrides);
  const ResolvedScenario sc = resolve(loaded);
  // Analytic mode is HPL's closed form: the panel-exchange strategies only
  // differ in the simulated modes, so comparing them here would print the
  // same row once per strategy.
  if (!a.strategies.empty() && effective_mode(sc) == Mode::Analytic)
    throw InputError(
        "--strategies: analytic mode prices every panel-exchange strategy the same (HPL's closed "
        "form); they differ only in the simulated modes: use --mode fast or --mode reference");
  if (a.trials > 0) warn_if_trials_identical(sc, a.path, "the " + std::to_string(a.trials) + " trials");
  if (a.dry_run) {
    std::cout << sc.name << ": " << to_string(sc.workload.benchmark) << ", N " << sc.workload.n << ", NB "
              << sc.workload.nb << ", " << sc.workload.p << " x " << sc.workload.q << " on "
              << sc.workload.nodes << " nodes (" << sc.workload.ranks_per_node << " ranks per node), mode "
              << to_string(effective_mode(sc)) << "\n"
              << (sc.rederive_note.empty() ? "" : sc.rederive_note + "\n") << memory_report(sc) << "\n";
    if (effective_mode(sc) == Mode::Fast) std::cout << fast_cost_report(sc) << "\n";
    return 0;
  }
  // A configuration real HPL could not allocate is refused before anything runs.
  check_memory_fits(sc);
  // Before any simulation: a path that cannot take the outputs is found now,
  // not after the run.
  if (world.is_root()) {
    prepare_output_dir(a.out_dir);
    write_about_json({a.trials > 0 ? "trials" : "run", sc.name, sc.description, "",
                      to_string(effective_mode(sc)), sc.options.seed},
                     a.out_dir);
  }
  if (a.trials > 0) {
    ProgressBar bar(world.is_root());
    TrialsArgs t{
        a.path, a.out_dir, a.overrides, a.trials, a.jobs, a.strategies, [&bar](double f) { bar.update(f); }};
    const int code = run_trials(t, sc);
    bar.finish();
    return code;
  }
  ProgressBar bar;
  SimulateOptions options;
  options.progress = [&bar](double f) { bar.update(f); };
  const auto t0 = std::chrono::steady_clock::now();
  RunResult result = simulate(sc, options);
  bar.finish();
  result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result.peak_rss_bytes = peak_rss_bytes(RUSAGE_SELF);
  if (result.window_processes > 0) {
    result.window_peak_rss_bytes = peak_rss_bytes(RUSAGE_CHILDREN);
    result.main_fault_bytes_while_windows_ran = fault_bytes_while_children_ran();
  }
  write_summary_json(result, a.out_dir + "/summary.json");
  write_steps_csv(result, a.out_dir + "/steps.csv");
  write_stats_json(result, a.out_dir + "/stats.json");
  write_phase_plot_svg(result, a.out_dir + "/phases.svg");
  if (result.has_faults) write_faults_csv(result, a.out_dir + "/faults.csv");
  print_summary(result, std::cout);
  std::cout << "outputs: " << a.out_dir << "/{summary.json,steps.csv,stats.json,phases.svg"
            << (result.has_faults ? ",faults.csv" : "") << "}\n";
  return 0;
}

} // namespace

Command add_run_command(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  auto* run_cmd =
      app.add_subcommand("run", "Simulate a scenario and write summary.json, steps.csv, phases.svg");
  run_cmd->add_option("scenario", args->path, "Scenario file (.textproto)");
  run_cmd
      ->add_option("--hpl-dat", args->hpl_dat,
                   "Take the workload from an HPL.dat (netlib HPL 2.3's format; with --machine). Several "
                   "values on its lines make a sweep")
      ->check(CLI::ExistingFile);
  run_cmd->add_option("--machine", args->machine, "With --hpl-dat: the scenario whose machine runs it");
  run_cmd->add_option("--mode", args->mode, "reference | fast | analytic | auto (default: the scenario's)")
      ->check(CLI::IsMember({"reference", "fast", "analytic", "auto"}));
  run_cmd->add_option("--seed", args->seed, "Random seed (default: the scenario's)");
  run_cmd->add_option("--out", args->out_dir, "Output directory (default: hplsim-out/<scenario name>)");
  run_cmd->add_flag(
      "--dry-run", args->dry_run,
      "Print the configuration, its memory use per rank and per device and, in fast mode, the estimated wall "
      "time and memory of the run, and stop");
  run_cmd->add_flag(
      "--allow-oversubscription", args->overrides.allow_oversubscription,
      "Simulate even if the matrix does not fit in the declared memory (fits_in_memory: false)");
  run_cmd
      ->add_option("--trials", args->trials,
                   "Monte Carlo: K runs on independent fault draws; writes trials.csv and outcome.json")
      ->check(at_least(1));
  run_cmd->add_option("--jobs", args->jobs, "Processes at a time for --trials (default: the CPUs available)")
      ->check(at_least(1));
  run_cmd
      ->add_option("--strategies", args->strategies,
                   "With --trials: compare panel exchange strategies on the same fault draws, e.g. "
                   "P2P,HYBRID,COLLECTIVE")
      ->delimiter(',')
      ->check(CLI::IsMember({"P2P", "HYBRID", "COLLECTIVE"}));
  add_scenario_flags(run_cmd, args->overrides);
  return {run_cmd, [args, run_cmd]() {
            args->seed_given = run_cmd->count("--seed") > 0;
            return run(*args, *run_cmd);
          }};
}

} // namespace hplsim::sim
