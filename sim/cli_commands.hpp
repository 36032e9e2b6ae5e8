#pragma once
// Subcommands of `hplsim` beyond `run` (sim/cli.cpp).
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>

#include "sim/scenario_loader.hpp"

namespace hplsim::sim {

/// A user-input error outside a scenario (a bad measurement file, a bad --steps range).
class InputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

int cmd_topo(const std::string& scenario_path, bool json);
int cmd_trace(const std::string& scenario_path, const ScenarioOverrides& overrides, const std::string& steps,
              const std::string& out_path, bool text);

/// `hplsim calibrate kernels|measure-cpu|network` (sim/cli_calibrate.cpp).
void add_calibrate_commands(CLI::App& app);
/// `hplsim osu latency|bw|bibw SCENARIO` (sim/osu.cpp).
void add_osu_command(CLI::App& app);
/// Runs the parsed `osu` command.
int run_osu_command();
/// Runs whichever calibrate subcommand was parsed; returns its exit code.
int run_calibrate_command(CLI::App& app);

} // namespace hplsim::sim
