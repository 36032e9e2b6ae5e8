#pragma once
// Which traffic a NIC-cable flap can meet, read off the schedule (docs/faults.md,
// "Flaps in fast mode"): a message crosses the NIC of its rank's node that the
// placement picks for the pair (Platform::nic_of), so a NIC no message, pivot
// exchange or swap roll of the node's ranks uses in a window's steps carries
// nothing a flap could fail there.
#include <cstdint>
#include <set>

#include "sim/engine/platform.hpp"
#include "sim/workload/schedule_source.hpp"

namespace hplsim::sim {

/// The NICs of run node `node` (0 .. NICs per node - 1) that the ops of its
/// ranks in steps [first, last] cross: their messages' and exchanges' peers on
/// other nodes, through Platform::nic_of. Ranks are node * ranks_per_node + l.
std::set<int> nics_used(const ScheduleSource& source, const Platform& platform, int node, std::int64_t first,
                        std::int64_t last);

} // namespace hplsim::sim
