#pragma once
// Where a file a scenario names is read from (machine.kernels_file,
// machine.protocol_file, machine.variability_file,
// machine.variability.node_rates_file, faults.prescreen.drop_nodes_file):
//   1. relative to the scenario file;
//   2. when nothing is there, relative to hplsim's data root (the directory
//      that holds models/), with the path's leading "../" components removed.
// So a scenario copied out of the source tree still finds
// "../models/calibrations/aurora-node.textproto" under the data root.
#include <string>
#include <vector>

namespace hplsim::sim {

/// hplsim's data root: the environment variable HPLSIM_DATA_DIR when set and
/// not empty, else the source tree hplsim was built from.
std::string data_root();

/// A file named in a scenario, as looked up.
struct ScenarioFile {
  std::string path;               // the first candidate that exists; the first candidate when none does
  bool found = false;             // whether `path` exists
  std::vector<std::string> tried; // every candidate, in the order tried
};

/// Looks up `value` (a *_file field) for a scenario in `base_dir`. An absolute
/// `value` is its only candidate, as written.
ScenarioFile find_scenario_file(const std::string& base_dir, const std::string& value);

/// The candidates for an error message: "\"a\" (next to the scenario), \"b\" (under the data root)".
std::string describe_tried(const ScenarioFile& file);

} // namespace hplsim::sim
