#pragma once
// The machine an SMPI oracle run simulates (docs/smpi-oracle.md): the same
// scenario hplsim's reference mode runs for an HPL.dat on a machine scenario
// (`hplsim run --hpl-dat F --machine SCENARIO`), built once per process from
// the environment, because SimGrid's smpirun loads the platform library and
// the program's BLAS hooks separately and neither can take hplsim's flags:
//   HPLSIM_ORACLE_MACHINE  the machine scenario (.textproto)
//   HPLSIM_ORACLE_HPL_DAT  the HPL.dat xhpl reads (its first run is simulated)
//   HPLSIM_ORACLE_REPORT   optional: where the per-rank kernel totals are written
#include <memory>
#include <string>

#include "models/kernel_model.hpp"
#include "sim/engine/replay.hpp"
#include "sim/scenario/scenario_defaults.hpp"

namespace hplsim::sim {

struct OracleMachine {
  ResolvedScenario scenario;
  std::unique_ptr<models::KernelModels> kernels;
  ReplayOptions options; ///< the replay's CPU threading per phase
  std::string report_path;
};

/// The oracle's scenario, loaded on first use from the environment. Throws
/// InputError/ScenarioError naming the variable or file on bad input, and
/// refuses what the oracle cannot reproduce (GPUs, kernel jitter, HPL-MxP).
const OracleMachine& oracle_machine();

/// The scenario an HPL.dat and a machine scenario make (the first run the
/// HPL.dat lists), as `hplsim run --hpl-dat` resolves it.
ResolvedScenario oracle_scenario(const std::string& machine_path, const std::string& hpl_dat_path);

} // namespace hplsim::sim
