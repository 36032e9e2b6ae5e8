#pragma once
// hplsim's side of the oracle's kernel check: the seconds of every CPU kernel
// op in the schedule hplsim replays for the oracle's scenario, summed per rank
// and phase, priced exactly as the replay prices them (sim/engine/replay.cpp,
// compute()). Set beside the totals xhpl's hooks charged
// (HPLSIM_ORACLE_REPORT), they show whether the two sides run the same
// kernels, before any comparison of their times.
#include <vector>

#include "sim/oracle/kernel_totals.hpp"
#include "sim/oracle/oracle_machine.hpp"

namespace hplsim::sim {

/// Kernel ops and seconds per rank (index) and traces::Phase.
std::vector<RankKernelTotals> schedule_kernel_totals(const OracleMachine& machine);

} // namespace hplsim::sim
