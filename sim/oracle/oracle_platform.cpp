// The platform library smpirun loads (`-platform libhplsim_oracle.so`): SimGrid
// 3.32 dlopens a platform path ending in .so and calls its `load_platform`
// (src/kernel/EngineImpl.cpp, EngineImpl::load_platform), so SMPI's ranks run
// on exactly the hosts, routes and protocol factors hplsim's reference mode
// builds for the same scenario (docs/smpi-oracle.md, "The platform").
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>

#include "models/protocol_model.hpp"
#include "models/variability.hpp"
#include "sim/engine/engine_setup.hpp"
#include "sim/engine/machine.hpp"
#include "sim/engine/platform.hpp"
#include "sim/oracle/oracle_machine.hpp"
#include "sim/scenario/machine_topology.hpp"
#include "sim/support/errors.hpp"

namespace hplsim::sim {
namespace {

// The network configuration hplsim's engine sets (sim/engine/engine_setup.cpp,
// create_engine); smpirun's own defaults differ, and the configuration is
// frozen once the first zone exists, so it must come from the command line.
void check_network_config() {
  namespace cfg = simgrid::config;
  const auto need = [](bool ok, const std::string& flag, const std::string& got) {
    if (!ok)
      throw InputError("hplsim oracle: smpirun needs --cfg=" + flag +
                       " (hplsim's network configuration), got " + got);
  };
  const std::string model = cfg::get_value<std::string>("network/model");
  need(model == "CM02", "network/model:CM02", model);
  const bool cross = cfg::get_value<bool>("network/crosstraffic");
  need(!cross, "network/crosstraffic:0", "1");
  const double gamma = cfg::get_value<double>("network/TCP-gamma");
  need(gamma == 0.0, "network/TCP-gamma:0", std::to_string(gamma));
}

struct OraclePlatform {
  std::unique_ptr<topo::Topology> topology;
  std::unique_ptr<models::Variability> variability;
  std::unique_ptr<Platform> platform;
  std::unique_ptr<models::ProtocolModel> protocol;
};

void build() {
  check_network_config();
  const OracleMachine& m = oracle_machine();
  const ResolvedScenario& sc = m.scenario;
  // Kept for the engine's life: the zone reads the spec and the topology.
  static OraclePlatform p;
  p.topology = make_topology(sc.machine);
  p.variability = std::make_unique<models::Variability>(sc.machine.variability, p.topology->node_count(), 1,
                                                        sc.options.seed, sc.base_dir);
  p.platform = std::make_unique<Platform>(make_platform_spec(sc, *p.topology, *p.variability));
  if (sc.machine.protocol.ByteSizeLong() > 0) {
    p.protocol = std::make_unique<models::ProtocolModel>(sc.machine.protocol);
    install_protocol(*p.protocol, p.platform.get());
  }
}

} // namespace
} // namespace hplsim::sim

extern "C" void load_platform(const simgrid::s4u::Engine& /*engine*/) {
  try {
    hplsim::sim::build();
  } catch (const std::exception& e) {
    // An exception cannot cross SimGrid's C loader: report and stop, as hplsim's CLI does.
    std::fprintf(stderr, "error: %s\n", e.what());
    std::exit(2);
  }
}
