// `hplsim sensitivity SCENARIO --rate-scale ... --duration-scale ... --trials K
// [--strategies A,B] [--collective-recovery-s D1,D2]`: the flap process's
// sensitivity study (docs/faults.md, "Sensitivity to the flap process" and
// "When HYBRID pays"; sim/study/sensitivity.hpp). Each strategy's trials at
// every scale (and each recovery value) run in one process of its own (one SimGrid
// engine per process; in fast mode the fault-free windows are then simulated
// once for all the scales); under MPI the trials are split across the ranks
// (trial i on rank i mod size) and rank 0 gathers them.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/distributed/world.hpp"
#include "sim/report/about.hpp"
#include "sim/run/simulate.hpp"
#include "sim/run/trials.hpp"
#include "sim/scenario/memory_fit.hpp"
#include "sim/study/sensitivity.hpp"
#include "sim/support/bytes.hpp"
#include "sim/support/child_process.hpp"
#include "sim/support/errors.hpp"
#include "sim/support/output_files.hpp"

namespace hplsim::sim {

namespace {

struct SensitivityArgs {
  std::string path, out_dir, mode;
  ScenarioOverrides overrides;
  unsigned long long seed = 0;
  std::vector<double> rate_scales, duration_scales{1.0};
  std::vector<double> recoveries; ///< --collective-recovery-s: empty, the scenario's value alone
  std::vector<std::string> strategies;
  int trials = 0, jobs = 0;
  bool dry_run = false;
};

// What a strategy's process sends back.
struct FaultFreeFigures {
  double time_s = 0.0, rmax_flops_per_s = 0.0;
};

// The shortest text that reads back as `v` (a --set value).
std::string exact_text(double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

// workload.hpl.panel_exchange's name ("" for HPL-MxP, which has none).
std::string strategy_of(const ResolvedScenario& sc) {
  return initial_result(sc, "fast").panel_exchange;
}

int sensitivity(SensitivityArgs a, const CLI::App& cmd) {
  if (!a.mode.empty()) a.overrides.mode = a.mode;
  if (cmd.count("--seed") > 0) a.overrides.seed = a.seed;
  // Rates may be 0 (no flap drawn); a flap's duration may not; a recovery may be 0.
  for (const auto& [flag, values, zero] : {std::tuple{"--rate-scale", &a.rate_scales, true},
                                           std::tuple{"--duration-scale", &a.duration_scales, false},
                                           std::tuple{"--collective-recovery-s", &a.recoveries, true}}) {
    for (std::size_t i = 0; i < values->size(); ++i) {
      const double v = (*values)[i];
      if (!std::isfinite(v) || v < 0.0 || (v == 0.0 && !zero))
        throw InputError(std::string(flag) + ": a " + (values == &a.recoveries ? "value" : "scale") +
                         " must be a finite number " + (zero ? ">= 0" : "> 0") + " (got " +
                         std::to_string(v) + ")");
      if (std::find(values->begin(), values->begin() + static_cast<std::ptrdiff_t>(i), v) !=
          values->begin() + static_cast<std::ptrdiff_t>(i))
        throw InputError(std::string(flag) + ": " + std::to_string(v) + " is given twice");
    }
  }
  for (std::size_t i = 0; i < a.strategies.size(); ++i)
    if (std::find(a.strategies.begin(), a.strategies.begin() + static_cast<std::ptrdiff_t>(i),
                  a.strategies[i]) != a.strategies.begin() + static_cast<std::ptrdiff_t>(i))
      throw InputError("--strategies: " + a.strategies[i] + " is given twice");
  const ResolvedScenario base = resolve(load_scenario(a.path, a.overrides));
  if (effective_mode(base) == Mode::Analytic)
    throw InputError("sensitivity: the analytic mode does not simulate flaps; give --mode fast or reference");
  bool flaps = false;
  if (base.faults.has_flap_process())
    for (const auto& c : base.faults.flap_process().classes())
      flaps = flaps || c.rate_per_link_per_hour() > 0.0;
  if (!flaps)
    throw InputError("sensitivity: " + a.path +
                     " has no flap process with a positive rate (faults.flap_process) to scale");
  if (!a.strategies.empty() && base.workload.benchmark != Benchmark::Hpl)
    throw InputError("--strategies: only HPL has panel exchange strategies (workload.hpl.panel_exchange)");
  check_memory_fits(base);
  std::vector<FlapScale> scales;
  for (const double r : a.rate_scales)
    for (const double d : a.duration_scales)
      scales.push_back({r, d});
  // Every strategy at every recovery value (strategy-major), in ascending order of the values.
  std::sort(a.recoveries.begin(), a.recoveries.end());
  std::vector<ResolvedScenario> scenarios;
  const std::vector<std::string> strategies =
      a.strategies.empty() ? std::vector<std::string>{""} : a.strategies;
  for (const std::string& s : strategies) {
    ScenarioOverrides o = a.overrides;
    if (!s.empty()) o.set.push_back("workload.hpl.panel_exchange=" + s);
    if (a.recoveries.empty()) {
      scenarios.push_back(s.empty() ? base : resolve(load_scenario(a.path, o)));
      continue;
    }
    for (const double d : a.recoveries) {
      ScenarioOverrides od = o;
      od.set.push_back("faults.retry.collective_recovery_s=" + exact_text(d));
      scenarios.push_back(resolve(load_scenario(a.path, od)));
    }
  }
  // "x 2 strategies" (and " x 4 recovery values" with the axis).
  const std::string grid =
      std::to_string(strategies.size()) + " strateg" + (strategies.size() == 1 ? "y" : "ies") +
      (a.recoveries.empty() ? std::string()
                            : " x " + std::to_string(a.recoveries.size()) + " recovery values");
  if (a.dry_run) {
    const WorkloadConfig& w = base.workload;
    std::cout << "Sensitivity: " << base.name << ", " << to_string(effective_mode(base)) << " mode, seed "
              << base.options.seed << ": N " << w.n << ", NB " << w.nb << ", " << w.p << " x " << w.q
              << " on " << w.nodes << " nodes\n"
              << scales.size() << " flap scales x " << a.trials << " trials x " << grid << " = "
              << scales.size() * static_cast<std::size_t>(a.trials) * scenarios.size() << " runs\n";
    for (const FlapScale& s : scales)
      std::cout << "  rate x" << s.rate << ", duration x" << s.duration << "\n";
    if (!a.recoveries.empty()) {
      std::cout << "  each at faults.retry.collective_recovery_s";
      for (std::size_t i = 0; i < a.recoveries.size(); ++i)
        std::cout << (i == 0 ? " " : ", ") << exact_text(a.recoveries[i]);
      std::cout << " s\n";
    }
    return kExitOk;
  }
  if (a.out_dir.empty())
    a.out_dir = "hplsim-out/" + std::filesystem::path(a.path).stem().string() + "-sensitivity";
  const World& world = World::current();
  if (world.is_root()) {
    prepare_output_dir(a.out_dir);
    write_about_json(
        {"sensitivity", base.name, base.description, "", to_string(effective_mode(base)), base.options.seed},
        a.out_dir);
    std::cout << "Sensitivity: " << base.name << ", " << scales.size() << " flap scales x " << a.trials
              << " trials x " << grid << ", " << to_string(effective_mode(base)) << " mode, seed "
              << base.options.seed << "\n";
  }
  TrialsOptions options;
  options.trials = a.trials;
  options.jobs = a.jobs > 0 ? a.jobs : window_workers(0);
  options.share = world.rank();
  options.share_count = world.size();
  options.flap_scales = scales;
  const std::size_t n = static_cast<std::size_t>(a.trials), per = scales.size() * n;
  std::vector<FaultFreeFigures> fault_free(scenarios.size());
  std::vector<std::pair<std::size_t, std::string>> mine; // (item, encoded row)
  // Each cell's trials in a process of its own (one SimGrid engine a
  // process), cells side by side, their windows together at most `jobs` at a time.
  std::size_t cells_done = 0;
  run_studies_side_by_side(
      scenarios.size(), options.jobs,
      [&](std::size_t s) {
        const TrialsResult t = simulate_trials(scenarios[s], options);
        FaultFreeFigures figures{t.fault_free.time_s, t.fault_free.rmax_flops_per_s};
        if (!(figures.time_s > 0.0) && world.is_root()) { // only rank 0 writes the figures
          // Reference mode simulates the trials alone (each in a process of
          // its own): the run without faults is one more such process.
          // Without the flaps and node failures; degradations stay, as in
          // fast mode's fault-free run.
          ResolvedScenario no_faults = scenarios[s];
          no_faults.faults.clear_flap_process();
          no_faults.faults.clear_link_flaps();
          no_faults.faults.clear_failure_process();
          no_faults.faults.clear_node_failures();
          run_in_children(
              1, 1,
              [&](std::size_t) {
                const RunResult r = simulate(no_faults, {});
                if (!r.completed)
                  throw std::runtime_error("sensitivity: the run without faults did not complete: " +
                                           r.failure);
                ByteWriter fw;
                fw.put(FaultFreeFigures{r.time_s, r.rmax_flops_per_s});
                return fw.take();
              },
              [&](std::size_t, const std::string& bytes) {
                ByteReader fr(bytes, "sensitivity: the run without faults");
                fr.get(figures);
                fr.expect_done();
              });
        }
        ByteWriter w;
        w.put(figures);
        w.put(static_cast<std::uint64_t>(t.trials.size()));
        for (const TrialRow& r : t.trials)
          w.put_string(encode(r));
        return w.take();
      },
      [&](std::size_t s, const std::string& bytes) {
        ByteReader r(bytes, "sensitivity: a strategy's answer");
        r.get(fault_free[s]);
        const auto rows = r.get<std::uint64_t>();
        const std::size_t share = rows / scales.size();
        for (std::uint64_t k = 0; k < rows; ++k) {
          const std::string row = r.get_string();
          const std::size_t scale = k / share;
          const std::size_t trial = static_cast<std::size_t>(decode_trial_row(row).trial);
          mine.emplace_back(s * per + scale * n + trial, row);
        }
        r.expect_done();
        if (world.is_root())
          std::cerr << "sensitivity: " << ++cells_done << " of " << scenarios.size()
                    << (a.recoveries.empty() ? " strategies" : " strategy and recovery pairs") << " done\n";
      });
  const std::vector<std::string> gathered =
      world.size() == 1 ? std::vector<std::string>{pack_items(mine)} : world.gather(pack_items(mine));
  if (!world.is_root()) return kExitOk;
  std::vector<SensitivityInput> inputs(scenarios.size());
  std::size_t received = 0;
  for (std::size_t s = 0; s < scenarios.size(); ++s) {
    inputs[s].strategy = strategy_of(scenarios[s]);
    inputs[s].collective_recovery_s = scenarios[s].faults.retry().collective_recovery_s();
    inputs[s].fault_free_time_s = fault_free[s].time_s;
    inputs[s].fault_free_rmax_flops_per_s = fault_free[s].rmax_flops_per_s;
    inputs[s].rows.resize(per);
  }
  for (const std::string& packed : gathered)
    for (const auto& [index, bytes] : unpack_items(packed)) {
      if (index >= scenarios.size() * per)
        throw std::runtime_error("sensitivity: a rank's answer is malformed");
      inputs[index / per].rows[index % per] = decode_trial_row(bytes);
      ++received;
    }
  if (received != scenarios.size() * per)
    throw std::runtime_error("sensitivity: a rank's answers are missing");
  const SensitivityStudy study = sensitivity_of(scales, a.trials, std::move(inputs), a.recoveries);
  write_sensitivity_csv(study, a.out_dir + "/sensitivity.csv");
  write_sensitivity_differences_csv(study, a.out_dir + "/sensitivity-differences.csv");
  write_sensitivity_trials_csv(study, base, a.out_dir + "/sensitivity-trials.csv");
  write_sensitivity_faults_csv(study, base, a.out_dir + "/sensitivity-faults.csv");
  write_sensitivity_svg(study, a.out_dir + "/sensitivity.svg");
  if (study.recoveries.size() >= 2)
    write_sensitivity_recovery_csv(study, a.out_dir + "/sensitivity-recovery.csv");
  print_sensitivity(study, std::cout);
  std::cout << "outputs: " << a.out_dir
            << "/{sensitivity.csv,sensitivity-differences.csv,sensitivity-trials.csv,sensitivity-faults.csv,"
            << (study.recoveries.size() >= 2 ? "sensitivity-recovery.csv," : "") << "sensitivity.svg}\n";
  return kExitOk;
}

} // namespace

Command add_sensitivity_command(CLI::App& app) {
  auto args = std::make_shared<SensitivityArgs>();
  auto* cmd = app.add_subcommand("sensitivity", "Resilience: the trials at a grid of flap rate and duration "
                                                "scales, per strategy, on common random numbers");
  cmd->add_option("scenario", args->path,
                  "Scenario file (.textproto) with a flap process (faults.flap_process)")
      ->required();
  cmd->add_option("--rate-scale", args->rate_scales,
                  "Multipliers of every flap class's rate per link, e.g. 0.5,1,2,4")
      ->delimiter(',')
      ->required();
  cmd->add_option("--duration-scale", args->duration_scales,
                  "Multipliers of every flap class's mean duration, e.g. 1,4 (default 1)")
      ->delimiter(',');
  cmd->add_option("--trials", args->trials, "Trials at every scale (the same draws at each)")
      ->required()
      ->check(at_least(2));
  cmd->add_option(
         "--strategies", args->strategies,
         "Panel exchange strategies compared on the same draws, e.g. P2P,HYBRID,COLLECTIVE (default: the "
         "scenario's)")
      ->delimiter(',');
  cmd->add_option("--collective-recovery-s", args->recoveries,
                  "Values of faults.retry.collective_recovery_s, seconds, each cell run at each on the same "
                  "draws, e.g. 0,0.5,2,8 (default: the scenario's value alone)")
      ->delimiter(',');
  cmd->add_option("--jobs", args->jobs, "Processes at a time (default: the CPUs available)")
      ->check(at_least(1));
  cmd->add_option("--mode", args->mode, "reference | fast | analytic | auto (default: the scenario's)")
      ->check(CLI::IsMember({"reference", "fast", "analytic", "auto"}));
  cmd->add_option("--seed", args->seed, "Random seed (default: the scenario's)");
  cmd->add_option("--out", args->out_dir,
                  "Output directory (default: hplsim-out/<scenario name>-sensitivity)");
  cmd->add_flag("--dry-run", args->dry_run,
                "Validate the scenario, the flags and every cell, list the grid and stop");
  add_scenario_flags(cmd, args->overrides);
  return {cmd, [args, cmd]() { return sensitivity(*args, *cmd); }};
}

} // namespace hplsim::sim
