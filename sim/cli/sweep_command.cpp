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
#include "sim/report/report.hpp"
#include "sim/run/simulate.hpp"
#include "sim/scenario/memory_fit.hpp"
#include "sim/study/sweep.hpp"
#include "sim/support/child_process.hpp"
#include "sim/support/output_files.hpp"

namespace hplsim::sim {

namespace {

struct SweepArgs {
  std::string path, out_dir, grids;
  std::vector<std::string> vary;
  int jobs = 0;
  StudyScenarioFlags scenario;
};

int sweep(SweepArgs a, const ScenarioOverrides& overrides) {
  const World& world = World::current();
  if (a.out_dir.empty()) a.out_dir = "hplsim-out/" + std::filesystem::path(a.path).stem().string() + "-sweep";
  std::vector<Vary> varies;
  for (const std::string& v : a.vary)
    varies.push_back(parse_vary(v));
  std::optional<GridRange> grids;
  if (!a.grids.empty()) grids = parse_grids(a.grids);
  if (varies.empty() && !grids)
    throw InputError("sweep: nothing varies (give --vary NAME=v1,v2 or --grids auto)");
  const ResolvedScenario base = resolve(load_scenario(a.path, overrides));
  const std::vector<SweepPoint> points = sweep_points(base, overrides, varies, grids);
  // Every point's scenario is validated and its memory checked before anything runs.
  std::vector<ResolvedScenario> scenarios;
  for (const SweepPoint& p : points) {
    scenarios.push_back(resolve(load_scenario(a.path, p.overrides)));
    check_memory_fits(scenarios.back());
  }
  const int cpus = a.jobs > 0 ? a.jobs : window_workers(0);
  // Fast mode's points run one at a time, each with its windows `cpus` at a
  // time; the other modes' points run `cpus` at a time.
  const bool fast = effective_mode(base) == Mode::Fast;
  for (ResolvedScenario& sc : scenarios)
    sc.options.fast.workers = fast ? cpus : 1;
  if (world.is_root()) {
    prepare_output_dir(a.out_dir);
    std::cout << "Sweep: " << base.name << ", " << points.size() << " points, "
              << to_string(effective_mode(base)) << " mode, seed " << base.options.seed
              << "\nRule: " << kSweepRule << "\n";
  }
  const auto answers = run_study_items(
      points.size(), fast ? 1 : cpus,
      [&](std::size_t i) { return summary_json_text(simulate(scenarios[i], {})); },
      [&](std::size_t i) { std::cerr << "sweep: point " << i + 1 << " of " << points.size() << " done\n"; });
  if (!answers) return kExitOk; // another rank's: rank 0 writes the files
  std::vector<SweepResult> results;
  for (std::size_t i = 0; i < points.size(); ++i)
    results.push_back({points[i].values, (*answers)[i]});
  const std::vector<Ranked> ranking = rank_points(results);
  print_ranking(results, ranking, std::cout);
  write_sweep_csv(results, ranking, a.out_dir + "/sweep.csv");
  write_sweep_svg(results, ranking, a.out_dir + "/sweep.svg");
  std::cout << "outputs: " << a.out_dir << "/{sweep.csv,sweep.svg}\n";
  return kExitOk;
}

} // namespace

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
  cmd->add_option("--jobs", args->jobs, "Processes at a time (default: the CPUs available)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--out", args->out_dir, "Output directory (default: hplsim-out/<scenario name>-sweep)");
  add_study_scenario_flags(cmd, args->scenario);
  return {cmd, [args, cmd]() { return sweep(*args, args->scenario.overrides(*cmd)); }};
}

} // namespace hplsim::sim
