#pragma once
// The runs an HPL.dat asks for (sim/scenario/hpl_dat.hpp), on the machine of a
// scenario: `hplsim run --hpl-dat F --machine SCENARIO` and `hplsim sweep
// SCENARIO --hpl-dat F` (docs/studies.md, "HPL.dat input").
#include <vector>

#include "sim/scenario/hpl_dat.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "sim/study/sweep.hpp"

namespace hplsim::sim {

/// How an HPL.dat's grid is placed on the machine (printed with the runs).
inline constexpr const char* kHplDatPlacementRule =
    "ranks per node: the largest divisor of P x Q not above the machine scenario's ranks_per_node; nodes: "
    "P x Q / ranks per node (mpirun filling each node's slots in turn)";

/// The runs in HPL 2.3's order (testing/ptest/HPL_pddriver.c: grids, then N,
/// NB, DEPTH, BCAST, RFACT, NBMIN, NDIV, the last fastest); each point's
/// `values` are the lines that list more than one value (and nodes and ppn
/// when they differ between grids). The scenario keeps its machine, options
/// and faults; its workload becomes the HPL.dat's. InputError naming the
/// HPL.dat line: a grid needing more nodes than the machine has, or a
/// machine scenario whose benchmark is not HPL.
std::vector<SweepPoint> hpl_dat_points(const HplDat& dat, const ResolvedScenario& machine,
                                       const ScenarioOverrides& base_overrides);

} // namespace hplsim::sim
