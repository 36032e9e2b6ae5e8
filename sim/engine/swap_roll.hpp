#pragma once
// Fast mode's collective swap roll (traces::Exchange with a SwapRoll; docs/fast-mode.md, "12. Collective
// swap roll"): what the replay needs to price HPL_rollT's P - 1 ring steps of one row swap without sending
// them: every member's roll pattern, and how many rolls share each of the nodes' links.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sim/engine/exchange_network.hpp"
#include "traces/comm_pattern.hpp"
#include "traces/hpl_swap.hpp"
#include "traces/schedule.pb.h"

namespace hplsim::sim {

/// Every member's part of HPL_rollT (index = member = process row) for the
/// row swap of `ncols` local columns with this layout, the steps whose two
/// messages are both empty left out (the replay of messages sends nothing
/// for them, and both members of such a step agree it is empty).
std::vector<traces::Pattern> swap_roll_patterns(const traces::SwapLayout& layout, std::int64_t ncols);

/// How many messages share the node link `link` (NIC, shared memory, UPI)
/// for a roll whose first member arrives at `first_s`: its own round's
/// `round_load`, or one more than the rolls priced before it (in `busy`)
/// that still hold the link at `first_s`, whichever is larger. Ends at or
/// before `first_s` are dropped from `busy`. A roll priced earlier is not
/// slowed down again by the ones that start during it (docs/fast-mode.md,
/// "12. Collective swap roll", measures what that leaves out).
double swap_roll_busy_share(RollBusy& busy, const void* link, double first_s, int round_load);

/// Registers a priced roll in `busy`: every node link on its members'
/// routes is held until the latest `done_s` of the members that use it.
void swap_roll_hold(RollBusy& busy, const std::vector<traces::Pattern>& patterns, ExchangeNetwork& column,
                    const std::vector<double>& done_s);

} // namespace hplsim::sim
