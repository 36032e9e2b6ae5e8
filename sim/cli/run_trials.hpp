#pragma once
// `hplsim run --trials K [--strategies A,B,...]` (docs/faults.md, "Trials"):
// the Monte Carlo study of one scenario, or of several resilience strategies
// on common random numbers. Under MPI the trials are split across the ranks
// (trial i on rank i mod size) and rank 0 gathers them and writes the files.
#include <functional>
#include <string>
#include <vector>

#include "sim/scenario/scenario_defaults.hpp"
#include "sim/scenario/scenario_loader.hpp"

namespace hplsim::sim {

struct TrialsArgs {
  std::string path, out_dir;
  ScenarioOverrides overrides; ///< the scenario's, as `run` loaded it
  int trials = 1;
  int jobs = 0;                         ///< 0: the CPUs the run may use
  std::vector<std::string> strategies;  ///< workload.hpl.panel_exchange values; empty: the scenario's own
  std::function<void(double)> progress; ///< fraction done (one study in this process only)
};

/// Runs the study and writes trials.csv and outcome.json; returns the exit code.
int run_trials(const TrialsArgs& args, const ResolvedScenario& scenario);

} // namespace hplsim::sim
