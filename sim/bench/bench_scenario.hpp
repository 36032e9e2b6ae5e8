#pragma once
// The scenario a microbenchmark runs on: some nodes of the scenario's machine.

#include "sim/scenario/scenario_config.hpp"

namespace hplsim::sim {

/// `sc`'s machine cut to `nodes` nodes with `ranks_per_node` ranks on each, one core a rank, laid out
/// as one process row (1 x nodes * ranks_per_node) of an HPL workload that only places the ranks: the
/// OSU collectives, the RMA Alltoallv and the noise benchmark run their own programs on it.
inline ResolvedScenario bench_scenario(const ResolvedScenario& sc, int nodes, int ranks_per_node) {
  ResolvedScenario s = sc;
  s.workload.nodes = nodes;
  s.workload.ranks_per_node = ranks_per_node;
  s.workload.panel_threads = 1;
  s.workload.p = 1;
  s.workload.q = nodes * ranks_per_node;
  s.workload.benchmark = Benchmark::Hpl;
  return s;
}

} // namespace hplsim::sim
