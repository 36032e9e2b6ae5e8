#pragma once
// One replayed step of hand-written per-rank programs (shared by the sim tests).
#include <cstdint>
#include <vector>

#include "sim/replay.hpp"

namespace hplsim::sim {

/// A schedule whose step 0 gives rank r the ops programs[r] (other steps are empty).
inline StepSource one_step_source(const std::vector<std::vector<traces::Op>>& programs) {
  return [&programs](std::int64_t k, traces::StepSchedule& out) {
    out.set_step(k);
    if (k != 0) return;
    for (std::size_t r = 0; r < programs.size(); ++r) {
      auto* p = out.add_ranks();
      p->set_rank(static_cast<int>(r));
      for (const auto& op : programs[r])
        *p->add_ops() = op;
    }
  };
}

/// Replay options for step 0 alone.
inline ReplayOptions one_step_options() {
  ReplayOptions ro;
  ro.steps = 1;
  ro.n = 1;
  ro.nb = 1;
  ro.step_list = {0};
  return ro;
}

} // namespace hplsim::sim
