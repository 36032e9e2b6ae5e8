// `hplsim sweep SCENARIO --vary NAME=v1,v2 ...`: what-if studies
// (docs/studies.md, "Sweeps"; sim/study/sweep.hpp). Every point is validated
// before any runs; each runs in a process of its own (one SimGrid engine per
// process) and sends back its summary.json; rank 0 of an MPI job gathers them.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/cli/study_items.hpp"
#include "sim/distributed/world.hpp"
#include "sim/report/about.hpp"
#include "sim/report/report.hpp"
#include "sim/run/simulate.hpp"
#include "sim/scenario/hpl_dat.hpp"
#include "sim/scenario/memory_fit.hpp"
#include "sim/study/hpl_dat_points.hpp"
#include "sim/study/sweep.hpp"
#include "sim/support/child_process.hpp"
#include "sim/support/output_files.hpp"

namespace hplsim::sim {

namespace {

struct SweepArgs {
  std::string path, out_dir, grids, hpl_dat;
  std::vector<std::string> vary;
  int jobs = 0;
  bool dry_run = false;
  bool fixed_n = false;
  StudyScenarioFlags scenario;
};

int sweep(SweepArgs a, const ScenarioOverrides& overrides) {
  std::vector<Vary> varies;
  for (const std::string& v : a.vary)
    varies.push_back(parse_vary(v));
  std::optional<GridRange> grids;
  if (!a.grids.empty()) grids = parse_grids(a.grids);
  const ResolvedScenario base = resolve(load_scenario(a.path, overrides));
  if (!a.hpl_dat.empty()) {
    if (!varies.empty() || grids || a.fixed_n)
      throw InputError(
          "sweep --hpl-dat: the HPL.dat lists the runs; --vary, --grids and --fixed-N are not taken with it");
    const HplDat dat = read_hpl_dat(a.hpl_dat);
    if (a.out_dir.empty())
      a.out_dir = "hplsim-out/" + std::filesystem::path(a.hpl_dat).filename().string() + "-sweep";
    return run_sweep_points(
        {a.path, a.out_dir, a.jobs, kHplDatPlacementRule, a.hpl_dat, dat.warnings, a.dry_run},
        hpl_dat_points(dat, base, overrides));
  }
  if (varies.empty() && !grids)
    throw InputError("sweep: nothing varies (give --vary NAME=v1,v2, --grids auto or --hpl-dat FILE)");
  if (a.out_dir.empty()) a.out_dir = "hplsim-out/" + std::filesystem::path(a.path).stem().string() + "-sweep";
  return run_sweep_points({a.path, a.out_dir, a.jobs, kSweepRule, "", {}, a.dry_run},
                          sweep_points(base, overrides, varies, grids, a.fixed_n));
}

std::string label(const SweepPoint& p) {
  std::string s;
  for (const auto& [k, v] : p.values)
    s += (s.empty() ? "" : ", ") + k + " " + v;
  return s;
}

} // namespace

int run_sweep_points(const SweepRun& run, const std::vector<SweepPoint>& points) {
  const World& world = World::current();
  // Every point's scenario is validated and its memory checked before anything runs.
  std::vector<ResolvedScenario> scenarios;
  for (std::size_t i = 0; i < points.size(); ++i) {
    try {
      scenarios.push_back(resolve(load_scenario(run.scenario_path, points[i].overrides)));
      check_memory_fits(scenarios.back());
    } catch (const UserError& e) {
      if (run.source.empty()) throw;
      throw InputError(run.source + ": run " + std::to_string(i + 1) + " of " +
                       std::to_string(points.size()) +
                       (points[i].values.empty() ? "" : " (" + label(points[i]) + ")") + ": " + e.what());
    }
  }
  const ResolvedScenario& base = scenarios.front();
  if (run.dry_run) {
    for (const std::string& w : run.warnings)
      std::cerr << "hplsim: warning: " << w << "\n";
    std::cout << "Sweep: " << base.name << (run.source.empty() ? "" : " with " + run.source) << ", "
              << points.size() << " points, " << to_string(effective_mode(base))
              << " mode\nRule: " << run.rule << "\n";
    for (std::size_t i = 0; i < points.size(); ++i) {
      const WorkloadConfig& w = scenarios[i].workload;
      std::cout << i + 1 << ": "
                << (points[i].values.empty() ? std::string("the scenario") : label(points[i])) << " -> N "
                << w.n << (points[i].n_rederived ? " (re-derived)" : "") << ", NB " << w.nb << ", " << w.p
                << " x " << w.q << " on " << w.nodes << " nodes (" << w.ranks_per_node << " per node)\n";
    }
    return kExitOk;
  }
  const int cpus = run.jobs > 0 ? run.jobs : window_workers(0);
  // `cpus` points at a time, each with its fast-mode windows one at a time
  // (or, with fewer points than CPUs, the CPUs shared among them): a point's
  // serial parts (the schedule, the platform build, the last window of a
  // bisection pass) then overlap another point's windows instead of leaving a
  // CPU idle. Measured at full scale: docs/results.md, "Aurora at full scale". The outputs do
  // not depend on it (docs/fast-mode.md, "Windows in parallel").
  const int at_once = std::max(1, std::min<int>(cpus, static_cast<int>(points.size())));
  for (ResolvedScenario& sc : scenarios)
    sc.options.fast.workers = std::max(1, cpus / at_once);
  if (world.is_root()) {
    for (const std::string& w : run.warnings)
      std::cerr << "hplsim: warning: " << w << "\n";
    prepare_output_dir(run.out_dir);
    write_about_json({"sweep", base.name, base.description, run.source, to_string(effective_mode(base)),
                      base.options.seed},
                     run.out_dir);
    std::cout << "Sweep: " << base.name << (run.source.empty() ? "" : " with " + run.source) << ", "
              << points.size() << " points, " << to_string(effective_mode(base)) << " mode, seed "
              << base.options.seed << "\nRule: " << run.rule << "\n";
  }
  const auto answers = run_study_items(
      points.size(), at_once, [&](std::size_t i) { return summary_json_text(simulate(scenarios[i], {})); },
      [&, done = std::size_t{0}](std::size_t) mutable {
        // About twenty progress lines however many points there are.
        const std::size_t every = std::max<std::size_t>(1, points.size() / 20);
        if (++done % every == 0 || done == points.size())
          std::cerr << "sweep: " << done << " of " << points.size() << " points done\n";
      },
      // The dearest points first. In fast mode a point's cost grows with its
      // process rows P (the folded windows keep the owner columns' P ranks,
      // and the swap roll's steps are P - 1: docs/fast-mode.md); at full Aurora
      // scale the 228 x 243 points took about twice the others' time.
      [&](std::size_t i) { return static_cast<double>(scenarios[i].workload.p); });
  if (!answers) return kExitOk; // another rank's: rank 0 writes the files
  std::vector<SweepResult> results;
  for (std::size_t i = 0; i < points.size(); ++i)
    results.push_back({points[i].values, (*answers)[i], points[i].n_rederived});
  const std::vector<Ranked> ranking = rank_points(results);
  print_ranking(results, ranking, std::cout);
  write_sweep_csv(results, ranking, run.out_dir + "/sweep.csv");
  write_sweep_svg(results, ranking, run.out_dir + "/sweep.svg");
  const bool heatmap = write_sweep_heatmap_svg(results, ranking, run.out_dir + "/sweep-heatmap.svg");
  std::cout << "outputs: " << run.out_dir << "/{sweep.csv,sweep.svg" << (heatmap ? ",sweep-heatmap.svg" : "")
            << "}\n";
  return kExitOk;
}

Command add_sweep_command(CLI::App& app) {
  auto args = std::make_shared<SweepArgs>();
  auto* cmd =
      app.add_subcommand("sweep", "What-if study: the cross product of --vary values, ranked by Rmax");
  cmd->add_option("scenario", args->path, "Scenario file (.textproto)")->required();
  cmd->add_option(
      "--vary", args->vary,
      "NAME=v1,v2,... (repeatable): N, NB, PxQ (AxB), depth, nodes, ppn, bcast, swap, pfact, nbmin, "
      "ndiv (HPL.dat's codes or names), or a scenario field path");
  cmd->add_option("--grids", args->grids,
                  "auto[:LO-HI]: every P x Q of the ranks with P <= Q and LO <= P/Q <= HI (default 0.25-1)");
  cmd->add_option("--hpl-dat", args->hpl_dat,
                  "An HPL.dat (netlib HPL 2.3's format): the runs it lists, on the scenario's machine")
      ->check(CLI::ExistingFile);
  cmd->add_flag("--fixed-N", args->fixed_n,
                "Hold the scenario's N (its own, or --set workload.n=...) for every point. Without it, when "
                "nodes, ppn or NB vary and N does not, each point's N is re-derived to keep the scenario's "
                "matrix memory per rank (marked * in the table)");
  cmd->add_flag("--dry-run", args->dry_run, "Validate and list the points (N, NB, P x Q, nodes) and stop");
  cmd->add_option("--jobs", args->jobs, "Processes at a time (default: the CPUs available)")
      ->check(at_least(1));
  cmd->add_option("--out", args->out_dir, "Output directory (default: hplsim-out/<scenario name>-sweep)");
  add_study_scenario_flags(cmd, args->scenario);
  return {cmd, [args, cmd]() { return sweep(*args, args->scenario.overrides(*cmd)); }};
}

} // namespace hplsim::sim
