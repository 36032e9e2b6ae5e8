// `hplsim topo SCENARIO`: the machine graph's counts, bandwidths and diameter.
#include <memory>
#include <string>

#include "sim/cli/commands.hpp"

#include <iostream>

#include <nlohmann/json.hpp>

#include "sim/scenario/machine_topology.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "topologies/topology.hpp"

namespace hplsim::sim {

namespace {

int topo(const std::string& scenario_path, bool json) {
  const ResolvedScenario sc = resolve(load_scenario(scenario_path));
  const auto topology = make_topology(sc.machine);
  const topo::Metrics m = topology->metrics();
  if (json) {
    nlohmann::ordered_json j;
    j["description"] = topology->describe();
    j["nodes"] = m.nodes;
    j["nics"] = m.nics;
    j["switches"] = m.switches;
    j["links"] = m.links;
    j["injection_bandwidth_bytes_per_s"] = m.injection_bandwidth_bytes_per_s;
    j["bisection_bandwidth_bytes_per_s"] = m.bisection_bandwidth_bytes_per_s;
    j["diameter_switch_hops"] = m.diameter_switch_hops;
    // The link classes a fault names (sim/scenario/faults.proto: index < count).
    nlohmann::ordered_json classes;
    for (const LinkClass c : {NIC_PORT, SWITCH_LOCAL, GLOBAL})
      classes[LinkClass_Name(c)] = links_of_class(*topology, c).size();
    j["fault_link_classes"] = classes;
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << topology->describe() << "\n" << topo::metrics_text(m) << "\n";
    std::cout << "link classes for faults: NIC_PORT " << links_of_class(*topology, NIC_PORT).size()
              << ", SWITCH_LOCAL " << links_of_class(*topology, SWITCH_LOCAL).size() << ", GLOBAL "
              << links_of_class(*topology, GLOBAL).size() << "\n";
  }
  return 0;
}

} // namespace

Command add_topo_command(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("topo", "Counts, bandwidths and diameter of a scenario's machine");
  cmd->add_option("scenario", *path, "Scenario file (.textproto)")->required();
  cmd->add_flag("--json", *json, "Print JSON instead of text");
  return {cmd, [path, json]() { return topo(*path, *json); }};
}

} // namespace hplsim::sim
