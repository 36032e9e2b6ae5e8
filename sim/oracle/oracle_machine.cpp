#include "sim/oracle/oracle_machine.hpp"

#include <cstdlib>
#include <mutex>

#include "sim/engine/replay_setup.hpp"
#include "sim/scenario/hpl_dat.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "sim/study/hpl_dat_points.hpp"
#include "sim/support/errors.hpp"

namespace hplsim::sim {

namespace {

std::string required_env(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0')
    throw InputError(std::string("hplsim oracle: set ") + name + " (docs/smpi-oracle.md)");
  return value;
}

// What the oracle cannot put on both sides identically.
void check_reproducible(const ResolvedScenario& sc, const std::string& where) {
  if (sc.workload.benchmark != Benchmark::Hpl)
    throw InputError(where + ": the oracle runs netlib HPL; the scenario is not an HPL run");
  if (sc.machine.node.gpus_per_node() > 0)
    throw InputError(where + ": the oracle runs netlib HPL's CPU code; the machine has GPUs "
                             "(machine.node.gpus_per_node)");
  if (sc.machine.variability.kernel_jitter_cv() > 0.0)
    throw InputError(where + ": machine.variability.kernel_jitter_cv must be 0 for the oracle "
                             "(a per-call random draw cannot be replayed call for call in xhpl)");
  if (sc.faults.ByteSizeLong() > 0)
    throw InputError(where + ": the oracle has no faults; remove the scenario's faults section");
}

} // namespace

ResolvedScenario oracle_scenario(const std::string& machine_path, const std::string& hpl_dat_path) {
  const HplDat dat = read_hpl_dat(hpl_dat_path);
  const ResolvedScenario machine = resolve(load_scenario(machine_path));
  const std::vector<SweepPoint> points = hpl_dat_points(dat, machine, {});
  ScenarioOverrides overrides = points.front().overrides;
  overrides.mode = "reference";
  ResolvedScenario sc = resolve(load_scenario(machine_path, overrides));
  check_reproducible(sc, machine_path);
  return sc;
}

const OracleMachine& oracle_machine() {
  static std::once_flag once;
  static OracleMachine machine;
  std::call_once(once, [] {
    machine.scenario =
        oracle_scenario(required_env("HPLSIM_ORACLE_MACHINE"), required_env("HPLSIM_ORACLE_HPL_DAT"));
    machine.kernels = std::make_unique<models::KernelModels>(machine.scenario.machine.kernels);
    machine.options = replay_options(machine.scenario);
    if (const char* r = std::getenv("HPLSIM_ORACLE_REPORT")) machine.report_path = r;
  });
  return machine;
}

} // namespace hplsim::sim
