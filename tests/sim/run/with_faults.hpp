#pragma once
// The shipped small-dragonfly scenario with a `faults { ... }` block appended,
// resolved as if it lived in scenarios/ (its model files found from there).
#include <fstream>
#include <sstream>
#include <string>

#include "sim/scenario/scenario_loader.hpp"

namespace hplsim::sim {

inline ResolvedScenario small_dragonfly_with_faults(const std::string& faults) {
  const std::string path = std::string(HPLSIM_SOURCE_DIR) + "/scenarios/small-dragonfly.textproto";
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return resolve(
      load_scenario_text(s.str() + faults, std::string(HPLSIM_SOURCE_DIR) + "/scenarios/x.textproto", {}));
}

} // namespace hplsim::sim
