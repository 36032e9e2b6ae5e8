// The `hplsim` command line: the verbs (sim/cli/commands.hpp) and the one
// place where errors become exit codes (sim/support/errors.hpp).
#include "sim/cli/cli.hpp"

#include <exception>
#include <iostream>
#include <vector>

#include <CLI/CLI.hpp>

#include "sim/cli/commands.hpp"
#include "sim/distributed/world.hpp"
#include "sim/support/errors.hpp"

namespace hplsim::sim {

void add_scenario_flags(CLI::App* cmd, ScenarioOverrides& ov) {
  cmd->add_option("--set", ov.set, "Override a scenario field: FIELD.PATH=VALUE (repeatable)");
  cmd->add_option("--nodes", ov.nodes, "Nodes used (workload.nodes)");
  cmd->add_option("--ppn", ov.ppn, "Ranks per node (workload.ranks_per_node)");
  cmd->add_option("--N", ov.n, "Matrix order N (workload.n)");
  cmd->add_option("--NB", ov.nb, "Block size NB (workload.nb)");
  cmd->add_option("--P", ov.p, "Process rows P (workload.p)");
  cmd->add_option("--Q", ov.q, "Process columns Q (workload.q)");
  cmd->add_option("--depth", ov.depth, "Look-ahead depth 0 or 1 (workload.depth)");
  cmd->add_flag("--sourced-only", ov.sourced_only,
                "Leave out the fitted parameters (calibration files that declare fit_targets): the model of "
                "sourced figures alone");
}

void add_study_scenario_flags(CLI::App* cmd, StudyScenarioFlags& f) {
  cmd->add_option("--mode", f.mode, "reference | fast | analytic | auto (default: the scenario's)")
      ->check(CLI::IsMember({"reference", "fast", "analytic", "auto"}));
  cmd->add_option("--seed", f.seed, "Random seed (default: the scenario's)");
  cmd->add_option("--set", f.set, "Override a scenario field: FIELD.PATH=VALUE (repeatable)");
  cmd->add_flag("--sourced-only", f.sourced_only,
                "Leave out the fitted parameters (calibration files that declare fit_targets): the model of "
                "sourced figures alone");
}

ScenarioOverrides StudyScenarioFlags::overrides(const CLI::App& cmd) const {
  ScenarioOverrides o;
  o.set = set;
  o.sourced_only = sourced_only;
  if (!mode.empty()) o.mode = mode;
  if (cmd.count("--seed") > 0) o.seed = seed;
  return o;
}

int run_cli(int argc, char** argv) {
  CLI::App app{"hplsim: discrete-event simulation of HPL and HPL-MxP runs on exascale machines"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every subcommand");
  const std::vector<Command> commands = {
      add_run_command(app), add_topo_command(app), add_trace_command(app), add_calibrate_command(app),
      add_osu_command(app), add_plan_command(app), add_sweep_command(app), add_report_command(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help is a "successful" parse error (0); every other one is a usage error.
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  // Under MPI (sim/distributed/world.hpp) an error on one rank ends the whole
  // job with its exit code: the other ranks may be waiting for its answers.
  const World& world = World::current();
  const auto failed = [&world](int code) {
    world.abort(code);
    return code;
  };
  try {
    for (const Command& c : commands)
      if (*c.app) return c.run();
    return kExitUsage;
  } catch (const ScenarioErrors& e) {
    for (const std::string& problem : e.problems())
      std::cerr << "error: " << problem << "\n";
    return failed(kExitInput);
  } catch (const UserError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return failed(kExitInput);
  } catch (const OutputError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return failed(kExitOutput);
  } catch (const std::exception& e) {
    std::cerr << "hplsim: internal error: " << e.what() << "\n";
    return failed(kExitInternal);
  }
}

} // namespace hplsim::sim
