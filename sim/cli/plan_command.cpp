// `hplsim plan SCENARIO --nodes a,b,c`: capacity planning (docs/studies.md,
// "Capacity planning"). Each node count is re-derived by
// sim/scenario/grid_rule.hpp, simulated without faults and then over
// --trials fault draws (sim/run/trials.hpp) in a process of its own, and the
// points are ranked under each objective (sim/study/plan.hpp). Under MPI the
// node counts are split across the ranks and rank 0 writes the files.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/cli/study_items.hpp"
#include "sim/distributed/world.hpp"
#include "sim/report/about.hpp"
#include "sim/run/simulate.hpp"
#include "sim/run/trials.hpp"
#include "sim/scenario/grid_rule.hpp"
#include "sim/scenario/memory_fit.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "sim/study/plan.hpp"
#include "sim/study/plan_grid.hpp"
#include "sim/support/child_process.hpp"
#include "sim/support/output_files.hpp"

namespace hplsim::sim {

namespace {

struct PlanArgs {
  std::string path, out_dir;
  std::vector<int> nodes;
  std::vector<std::string> objectives = {"rmax-in-window", "time-to-result"};
  double window_hours = 24.0;
  int trials = 50, jobs = 0;
  bool dry_run = false;
  StudyScenarioFlags scenario;
};

// The scenario at `nodes` nodes as sim/study/plan_grid.hpp chooses its run
// (the active nodes, their grid and N), validated as if given by flags (an
// error names --nodes).
ResolvedScenario point_scenario(const PlanArgs& a, const ScenarioOverrides& base_overrides,
                                const PlanGrid& g) {
  ScenarioOverrides o = base_overrides;
  o.nodes = g.active_nodes;
  o.p = g.p;
  o.q = g.q;
  o.n = g.n;
  return resolve(load_scenario(a.path, o));
}

void check_node_counts(const std::vector<int>& counts, const ResolvedScenario& base) {
  std::set<int> seen;
  for (const int nodes : counts) {
    const std::string flag = "--nodes " + std::to_string(nodes) + ": ";
    if (nodes < 1) throw InputError(flag + "a node count must be >= 1");
    if (!seen.insert(nodes).second) throw InputError(flag + "given twice");
    if (nodes > base.machine.topology.nodes)
      throw InputError(flag + "more nodes than the machine has (machine.topology.nodes = " +
                       std::to_string(base.machine.topology.nodes) + ")");
    const PlanGrid r = plan_grid(base, nodes);
    const std::int64_t blocks = (r.n + base.workload.nb - 1) / base.workload.nb;
    if (blocks < std::max(r.p, r.q))
      throw InputError(flag + "below the grid's minimum: the re-derived " + std::to_string(r.p) + " x " +
                       std::to_string(r.q) + " grid with N " + std::to_string(r.n) + " gives " +
                       std::to_string(blocks) + " blocks of NB " + std::to_string(base.workload.nb) +
                       ", fewer than one per process row and column");
  }
}

// One point, in this process (a child of the study's process: one SimGrid
// engine per process). Reference mode's trials do not simulate the run
// without faults: it runs in a process of its own first.
std::string simulate_point(const ResolvedScenario& sc, const PlanGrid& g, const PlanArgs& a, int jobs) {
  TrialsOptions o;
  o.trials = a.trials;
  o.jobs = jobs;
  TrialsResult t;
  if (effective_mode(sc) == Mode::Reference) {
    ResolvedScenario no_faults = sc;
    no_faults.faults.Clear();
    run_in_children(
        1, 1,
        [&](std::size_t) {
          const RunResult r = simulate(no_faults, {});
          const double figures[3] = {r.completed ? 1.0 : 0.0, r.time_s, r.rmax_flops_per_s};
          return std::string(reinterpret_cast<const char*>(figures), sizeof figures);
        },
        [&](std::size_t, const std::string& bytes) {
          double figures[3] = {};
          std::memcpy(figures, bytes.data(), std::min(bytes.size(), sizeof figures));
          t.fault_free = initial_result(sc, "reference");
          t.fault_free.completed = figures[0] != 0.0;
          t.fault_free.time_s = figures[1];
          t.fault_free.rmax_flops_per_s = figures[2];
        });
    const RunResult fault_free = t.fault_free;
    t = simulate_trials(sc, o);
    t.fault_free = fault_free;
  } else {
    t = simulate_trials(sc, o);
  }
  PlanPoint p = plan_point(t, a.window_hours * 3600.0);
  p.nodes = g.nodes;
  p.active_nodes = g.active_nodes;
  p.idle_ranks = g.idle_ranks;
  p.memory_capped = g.memory_capped;
  return std::string(reinterpret_cast<const char*>(&p), sizeof p);
}

int plan(PlanArgs a, const ScenarioOverrides& overrides) {
  const World& world = World::current();
  if (a.out_dir.empty()) a.out_dir = "hplsim-out/" + std::filesystem::path(a.path).stem().string() + "-plan";
  const ResolvedScenario base = resolve(load_scenario(a.path, overrides));
  check_node_counts(a.nodes, base);
  warn_if_trials_identical(base, a.path, "the " + std::to_string(a.trials) + " trials at each node count");
  std::sort(a.nodes.begin(), a.nodes.end());
  std::vector<Objective> objectives;
  for (const std::string& name : a.objectives)
    objectives.push_back(name == kObjectiveNames[0] ? Objective::RmaxInWindow : Objective::TimeToResult);
  // Every point's scenario is validated and its memory checked before anything is simulated.
  std::vector<PlanGrid> grids;
  std::vector<ResolvedScenario> points;
  for (const int nodes : a.nodes) {
    grids.push_back(plan_grid(base, nodes));
    points.push_back(point_scenario(a, overrides, grids.back()));
    check_memory_fits(points.back());
  }
  // The mode the points run in (auto picks by size, so points may differ),
  // for stdout and the report's title: "reference", or "reference and fast".
  std::vector<std::string> modes;
  for (const ResolvedScenario& sc : points)
    if (std::find(modes.begin(), modes.end(), to_string(effective_mode(sc))) == modes.end())
      modes.push_back(to_string(effective_mode(sc)));
  std::string mode;
  for (std::size_t i = 0; i < modes.size(); ++i)
    mode += (i == 0 ? "" : i + 1 == modes.size() ? " and " : ", ") + modes[i];
  if (a.dry_run) {
    std::cout << "Plan: " << base.name << ", " << mode << " mode\nRule: " << kRederiveRule << "\n";
    for (std::size_t i = 0; i < points.size(); ++i) {
      const PlanGrid& g = grids[i];
      const ResolvedScenario& sc = points[i];
      std::cout << g.nodes << " nodes: " << sc.workload.p << " x " << sc.workload.q << ", N " << sc.workload.n
                << ", NB " << sc.workload.nb << ", idle ranks " << g.idle_ranks;
      if (g.idle_ranks > 0) std::cout << " (" << g.nodes - g.active_nodes << " of the nodes idle)";
      if (g.memory_capped) std::cout << ", N capped to fit the memory";
      std::cout << "\n";
    }
    return kExitOk;
  }
  if (world.is_root()) {
    prepare_output_dir(a.out_dir);
    write_about_json({"plan", base.name, base.description, "", mode, base.options.seed}, a.out_dir);
    std::cout << "Plan: " << base.name << ", " << a.trials << " trials per node count, " << mode
              << " mode, seed " << base.options.seed << "\n"
              << "Rule: " << kRederiveRule << "\n";
  }
  const int jobs = a.jobs > 0 ? a.jobs : window_workers(0);
  const auto answers = run_study_items(
      points.size(), 1, [&](std::size_t i) { return simulate_point(points[i], grids[i], a, jobs); },
      [&](std::size_t i) { std::cerr << "plan: " << grids[i].nodes << " nodes done\n"; });
  if (!answers) return kExitOk; // another rank's: rank 0 writes the files
  std::vector<PlanPoint> results(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    if ((*answers)[i].size() != sizeof(PlanPoint))
      throw std::runtime_error("plan: a point's answer is malformed");
    std::memcpy(&results[i], (*answers)[i].data(), sizeof(PlanPoint));
  }
  print_plan(results, objectives, a.window_hours, std::cout);
  write_plan_csv(results, a.out_dir + "/plan.csv");
  write_plan_svg(results, objectives, a.window_hours, a.out_dir + "/plan.svg");
  std::cout << "outputs: " << a.out_dir << "/{plan.csv,plan.svg}\n";
  return kExitOk;
}

} // namespace

Command add_plan_command(CLI::App& app) {
  auto args = std::make_shared<PlanArgs>();
  auto* cmd = app.add_subcommand(
      "plan", "Capacity planning: the scenario at several node counts, its trials, the best node count");
  cmd->add_option("scenario", args->path, "Scenario file (.textproto)")->required();
  cmd->add_option("--nodes", args->nodes, "Node counts to compare, e.g. 7000,8000,9234")
      ->required()
      ->delimiter(',');
  cmd->add_option("--objective", args->objectives, "rmax-in-window and/or time-to-result (default: both)")
      ->delimiter(',')
      ->check(CLI::IsMember({kObjectiveNames[0], kObjectiveNames[1]}));
  cmd->add_option("--window-hours", args->window_hours,
                  "Allocation window for rmax-in-window, hours (default 24)")
      ->check(greater_than_zero());
  cmd->add_option("--trials", args->trials, "Fault draws per node count (default 50)")->check(at_least(1));
  cmd->add_option("--jobs", args->jobs, "Processes at a time per node count (default: the CPUs available)")
      ->check(at_least(1));
  cmd->add_option("--out", args->out_dir, "Output directory (default: hplsim-out/<scenario name>-plan)");
  cmd->add_flag("--dry-run", args->dry_run, "Print each node count's re-derived run and stop");
  add_study_scenario_flags(cmd, args->scenario);
  return {cmd, [args, cmd]() { return plan(*args, args->scenario.overrides(*cmd)); }};
}

} // namespace hplsim::sim
