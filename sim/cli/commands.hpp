#pragma once
// The verbs of `hplsim`, one file each (sim/cli/<verb>_command.cpp). Each adds
// its subcommand and flags to the application and returns what runs it; the
// dispatcher (sim/cli/cli.cpp) runs the one that was parsed and is the only
// place that turns errors into exit codes (sim/support/errors.hpp).
#include <functional>

#include <CLI/CLI.hpp>

#include "sim/scenario/scenario_loader.hpp"

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
Command add_plan_command(CLI::App& app);
Command add_sweep_command(CLI::App& app);

/// The scenario flags every verb that takes a scenario shares: --set and the
/// HPL.dat-style --nodes --ppn --N --NB --P --Q --depth.
void add_scenario_flags(CLI::App* cmd, ScenarioOverrides& overrides);

} // namespace hplsim::sim
