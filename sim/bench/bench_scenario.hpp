#pragma once
// The scenario a microbenchmark runs on: some nodes of the scenario's machine.

#include <string>

#include "sim/scenario/scenario_config.hpp"
#include "sim/support/errors.hpp"

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

/// The --nodes and --ppn of a microbenchmark: within the machine's nodes and a node's cores, and at
/// least 2 ranks in all; an InputError naming the flag otherwise.
inline void check_bench_ranks(const ResolvedScenario& sc, int nodes, int ppn) {
  if (nodes < 1 || nodes > sc.machine.topology.nodes)
    throw InputError("--nodes " + std::to_string(nodes) + ": the machine has " +
                     std::to_string(sc.machine.topology.nodes) + " nodes");
  const int cores = sc.machine.node.cores_per_node();
  if (ppn < 1 || ppn > cores)
    throw InputError("--ppn " + std::to_string(ppn) + ": a node has " + std::to_string(cores) + " cores");
  if (nodes * ppn < 2) throw InputError("--nodes x --ppn: at least 2 ranks are needed");
}

} // namespace hplsim::sim
