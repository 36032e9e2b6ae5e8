#pragma once
// hplsim's side of the oracle's kernel check: the seconds of every CPU kernel
// op in the schedule hplsim replays for the oracle's scenario, summed per rank
// and phase, priced exactly as the replay prices them (sim/engine/replay.cpp,
// compute()). Set beside the totals xhpl's hooks charged
// (HPLSIM_ORACLE_REPORT), they show whether the two sides run the same
// kernels, before any comparison of their times.
#include <string>

#include "sim/oracle/oracle_machine.hpp"

namespace hplsim::sim {

/// Writes {"kernel_seconds": [{"rank": r, "<PHASE>": [ops, seconds], ...}, ...]},
/// the layout of the hooks' report.
void write_schedule_kernels(const OracleMachine& machine, const std::string& path);

} // namespace hplsim::sim
