#pragma once
// What the replay reads a schedule through (sim/engine/replay.hpp), and what
// a ScheduleSource (sim/workload/schedule_source.hpp) gives it.
#include <cstdint>
#include <functional>

#include "traces/schedule.pb.h"

namespace hplsim::sim {

/// Produces step k of the schedule (k in [0, steps]) into `out`.
using StepSource = std::function<void(std::int64_t k, traces::StepSchedule& out)>;

} // namespace hplsim::sim
