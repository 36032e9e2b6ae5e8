#pragma once
// A scenario as loaded (sim/scenario/scenario_loader.hpp): the validated
// message and the calibrations it names, before defaults are filled in.
#include <string>

#include "sim/scenario/scenario.pb.h"
#include "traces/collectives.pb.h"

namespace hplsim::sim {

struct LoadedScenario {
  std::string path;     // as given
  std::string base_dir; // directory of the file, for relative paths inside it
  Scenario
      scenario; // validated, defaults NOT filled in (use resolve() in sim/scenario/scenario_defaults.hpp)
  // The kernel calibration in effect: machine.kernels, or the validated
  // contents of machine.kernels_file; empty when the scenario gives neither.
  hplsim::models::KernelCalibration kernels;
  std::string kernels_path; // machine.kernels_file as opened (base_dir joined); empty otherwise
  // The protocol parameters in effect: machine.protocol, or the validated
  // contents of machine.protocol_file; empty when the scenario gives neither.
  hplsim::models::ProtocolParams protocol;
  std::string protocol_path; // machine.protocol_file as opened (base_dir joined); empty otherwise
  // The variability in effect: machine.variability_file's contents with
  // machine.variability's fields over them, validated.
  hplsim::models::VariabilityParams variability;
  std::string variability_path; // machine.variability_file as opened (base_dir joined); empty otherwise
  // The MPI library's collectives in effect: machine.mpi_file's contents with
  // machine.mpi's fields over them, validated; empty when neither is given.
  hplsim::mpi::MpiCollectives mpi;
  std::string mpi_path; // machine.mpi_file as opened (base_dir joined); empty otherwise
  // --sourced-only: a variability_file that declares fit_targets is left out;
  // its path is kept here so the outputs can say what was left out.
  bool sourced_only = false;
  std::string left_out_fitted_path;
  // --nodes K alone: what the grid rule re-derived (P x Q, N); empty otherwise.
  std::string rederive_note;
  // With a reference figure: when the overrides changed the run the figure
  // was published for (nodes, N, NB, P x Q, benchmark), that run's values
  // and this run's, of the fields that differ ("9,234 nodes", "16 nodes");
  // both empty when the run is the reference's.
  std::string reference_run, this_run;
};

} // namespace hplsim::sim
