#pragma once
// Internal to the scenario loader: the validation rules of a parsed scenario.
#include <google/protobuf/text_format.h>

#include "sim/scenario/loaded_scenario.hpp"
#include "sim/scenario/scenario_check.hpp"
#include "sim/scenario/scenario_defaults.hpp"

namespace hplsim::sim::detail {

/// The validation rules (sim/scenario/scenario_validate.cpp): checks `loaded.scenario`
/// after overrides, reads machine.kernels_file into `loaded.kernels` and
/// machine.protocol_file into `loaded.protocol`. Throws
/// ScenarioError on the first problem.
void validate_scenario(LoadedScenario& loaded, const google::protobuf::TextFormat::ParseInfoTree& tree,
                       const OverrideLog& overrides);

/// The fields every scenario gives (sim/scenario/required_fields.cpp): each
/// one missing reported, all at once, at the block it belongs in; throws
/// when any is.
void check_required_fields(const Checker& c, const Scenario& s);

/// The faults' rules (sim/scenario/faults_validate.cpp), on the validated
/// rest of the scenario `resolved`.
void check_faults(const Checker& c, const Scenario& s, const ResolvedScenario& resolved,
                  const std::string& base_dir);

/// machine.node's own rules (sim/scenario/node_validate.cpp), `n` at "machine.node".
void check_node(const MessageCheck& n, const Node& node);
/// machine.node against machine.placement, on the resolved values; reports.
void check_node_placement(const Checker& c, const ResolvedScenario& r);

/// The noise rules (sim/scenario/noise_validate.cpp) of `noise` at `prefix`
/// ("machine.variability.noise", or "noise" in a variability file).
void check_noise(const Checker& c, const models::NoiseParams& noise, const std::string& base_dir,
                 const std::string& prefix);

/// Reads the file that machine.`field` names (sim/scenario/scenario_paths.hpp)
/// into `out`, `tree` locating its fields; returns the path as opened. Errors
/// name the field (sim/scenario/machine_files.cpp).
std::string read_machine_file(const Checker& c, const LoadedScenario& loaded, const std::string& field,
                              const std::string& relative, google::protobuf::Message& out,
                              google::protobuf::TextFormat::ParseInfoTree& tree);

/// machine.mpi_file (if any) with machine.mpi over it into loaded.mpi, each
/// part validated where it was written (sim/scenario/machine_files.cpp).
void load_mpi(const Checker& c, LoadedScenario& loaded);

} // namespace hplsim::sim::detail
