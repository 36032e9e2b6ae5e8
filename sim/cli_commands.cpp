#include "sim/cli_commands.hpp"

#include <fstream>
#include <iostream>

#include <google/protobuf/text_format.h>
#include <nlohmann/json.hpp>

#include "sim/scenario_defaults.hpp"
#include "sim/schedule_source.hpp"
#include "sim/simulation.hpp"
#include "topologies/topology.hpp"
#include "traces/schedule_io.hpp"

namespace hplsim::sim {

int cmd_topo(const std::string& scenario_path, bool json) {
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
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << topology->describe() << "\n" << topo::metrics_text(m) << "\n";
  }
  return 0;
}

int cmd_trace(const std::string& scenario_path, const ScenarioOverrides& overrides, const std::string& steps,
              const std::string& out_path, bool text) {
  const ResolvedScenario sc = resolve(load_scenario(scenario_path, overrides));
  const auto colon = steps.find(':');
  long long a = 0, b = 0;
  try {
    if (colon == std::string::npos) throw std::invalid_argument("no colon");
    std::size_t used = 0;
    a = std::stoll(steps.substr(0, colon), &used);
    if (used != colon) throw std::invalid_argument("trailing characters");
    const std::string tail = steps.substr(colon + 1);
    b = std::stoll(tail, &used);
    if (used != tail.size()) throw std::invalid_argument("trailing characters");
  } catch (const std::exception&) {
    throw InputError("--steps " + steps + ": expected A:B with integers A <= B");
  }
  const long long last = sc.workload.steps();
  if (a < 0 || b < a || b > last)
    throw InputError("--steps " + steps + ": steps must satisfy 0 <= A <= B <= " + std::to_string(last) +
                     " (ceil(N/NB) = " + std::to_string(last) + " is the final solve)");
  const auto source = make_schedule_source(sc);
  std::ofstream out(out_path, std::ios::binary);
  if (!out) throw InputError(out_path + ": cannot open for writing");
  traces::StepSchedule step;
  if (text) {
    std::string s;
    google::protobuf::TextFormat::PrintToString(source->header(), &s);
    out << "# header\n" << s;
    for (long long k = a; k <= b; ++k) {
      step.Clear();
      source->step(k, step);
      google::protobuf::TextFormat::PrintToString(step, &s);
      out << "# step " << k << "\n" << s;
    }
  } else {
    traces::ScheduleWriter writer(out);
    writer.write_header(source->header());
    for (long long k = a; k <= b; ++k) {
      step.Clear();
      source->step(k, step);
      writer.write_step(step);
    }
  }
  std::cout << "wrote steps " << a << ".." << b << " of " << last << " to " << out_path << "\n";
  return 0;
}

} // namespace hplsim::sim
