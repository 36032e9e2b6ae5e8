#include "sim/scenario/prescreen_rule.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "models/prescreen.hpp"
#include "models/variability.hpp"
#include "sim/scenario/grid_rule.hpp"
#include "sim/scenario/memory_fit.hpp"
#include "sim/scenario/scenario_check.hpp"
#include "sim/scenario/scenario_paths.hpp"
#include "sim/support/errors.hpp"

namespace hplsim::sim {

namespace {

std::set<int> nodes_in_file(const ResolvedScenario& sc, const std::string& file, int machine_nodes) {
  const std::string path = find_scenario_file(sc.base_dir, file).path;
  std::ifstream in(path);
  if (!in) throw ScenarioError(path + ": cannot open (faults.prescreen.drop_nodes_file)");
  std::set<int> nodes;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const auto hash = line.find('#');
    if (hash != std::string::npos) line = line.substr(0, hash);
    std::istringstream words(line);
    std::string word;
    if (!(words >> word)) continue;
    std::size_t used = 0;
    int node = -1;
    try {
      node = std::stoi(word, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != word.size() || node < 0 || node >= machine_nodes)
      throw ScenarioError(path + ":" + std::to_string(number) + ": expected a node index in [0, " +
                          std::to_string(machine_nodes) + "), got \"" + word + "\"");
    nodes.insert(node);
  }
  return nodes;
}

} // namespace

std::string apply_prescreen(ResolvedScenario& sc) {
  if (!sc.faults.has_prescreen()) return "";
  const Prescreen& p = sc.faults.prescreen();
  // An out-of-range fraction is the validation's to report, at its line.
  if (!(p.drop_slowest_fraction() >= 0.0 && p.drop_slowest_fraction() < 1.0)) return "";
  const int machine_nodes = sc.machine.topology.nodes;
  const models::Variability variability(sc.machine.variability, machine_nodes,
                                        std::max(1, sc.machine.node.gpus_per_node()), sc.options.seed,
                                        sc.base_dir);
  std::vector<int> kept = models::prescreen(variability, machine_nodes, p.drop_slowest_fraction());
  if (p.has_drop_nodes_file()) {
    const std::set<int> named = nodes_in_file(sc, p.drop_nodes_file(), machine_nodes);
    kept.erase(std::remove_if(kept.begin(), kept.end(), [&](int n) { return named.contains(n); }),
               kept.end());
  }
  auto& w = sc.workload;
  std::ostringstream said;
  said << "Pre-screening: " << machine_nodes - static_cast<int>(kept.size()) << " of " << machine_nodes
       << " machine nodes left out";
  if (static_cast<int>(kept.size()) >= w.nodes) {
    w.node_map.assign(kept.begin(), kept.begin() + w.nodes);
    said << "; the run's " << w.nodes << " nodes are the lowest-numbered of the rest";
    return said.str();
  }
  if (kept.empty()) throw ScenarioError(sc.path + ": faults.prescreen leaves no node to run on");
  const int nodes = static_cast<int>(kept.size());
  const Rederived r = rederive_for_nodes(w, nodes);
  said << "; " << nodes << " nodes remain (the run asked for " << w.nodes << "): re-derived " << r.p << " x "
       << r.q << " (was " << w.p << " x " << w.q << ")";
  if (r.active_nodes < nodes)
    said << " on " << r.active_nodes << " of them (" << nodes - r.active_nodes
         << " idle: their ranks would factor badly)";
  const std::int64_t was_n = w.n;
  w.nodes = r.active_nodes;
  w.p = r.p;
  w.q = r.q;
  w.n = r.n;
  w.node_map.assign(kept.begin(), kept.begin() + r.active_nodes);
  said << ", N " << r.n << " (was " << was_n << ", same matrix memory per rank)";
  if (const auto fits = fit_n_to_memory(sc)) {
    w.n = *fits;
    said << ", lowered to " << *fits << " to fit the declared memory with its panels";
  }
  return said.str();
}

} // namespace hplsim::sim
