#pragma once
// Loads and validates a scenario (.textproto). Every user-input error is a
// ScenarioError whose message reads like a compiler's:
//   scenarios/x.textproto:14:5: machine.node.nic_bandwidth_bytes_per_s must be > 0, got -1
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/scenario/loaded_scenario.hpp"
#include "sim/scenario/scenario.pb.h"
#include "sim/support/errors.hpp"

namespace hplsim::sim {

// Overrides are applied to the parsed message before validation. A bad path
// or value throws naming the override ("--set workload.nbb=3: Workload has no
// field nbb"); a validation error on a field an override set is located at the
// override ("--NB -1: workload.nb must be >= 1, got -1") instead of a file line.
struct ScenarioOverrides {
  // --set FIELD.PATH=VALUE, applied in order (e.g. "workload.nb=256",
  // "machine.node.copy_overlap=false", "options.mode=FAST"). Sub-messages are
  // created as needed; enums by value name, bools true|false, numbers parsed
  // strictly. A repeated field takes an index, "faults.link_flaps[0].duration_s=3":
  // an existing element is changed and the index one past the last appends
  // one; any other index is refused, and so is switching a oneof member.
  std::vector<std::string> set;
  // HPL.dat-style flags; applied after `set`. Unset = keep the scenario's value.
  std::optional<int> nodes, ppn, p, q, depth;
  std::optional<long long> n, nb;
  std::optional<std::string> mode; // reference|analytic|fast|auto
  std::optional<unsigned long long> seed;
  bool allow_oversubscription = false; // --allow-oversubscription
  // --sourced-only: leave out every calibration file that declares fit_targets
  // (the fitted parameters), so the run is the model of sourced figures alone.
  bool sourced_only = false;
};

/// Parses, applies overrides, validates. Throws ScenarioError.
LoadedScenario load_scenario(const std::string& path, const ScenarioOverrides& overrides = {});

/// Parses text (for tests); `display_name` is used in messages, and its
/// directory (or "." when it has none) resolves relative paths inside.
LoadedScenario load_scenario_text(const std::string& text, const std::string& display_name,
                                  const ScenarioOverrides& overrides = {});

} // namespace hplsim::sim
