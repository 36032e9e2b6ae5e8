#pragma once
// An arena-backed StepSchedule to generate steps into, reused from step to step.
// Generating a big step (10^5 - 10^6 ops) into a heap-allocated message is
// dominated by malloc and by touching scattered memory; an arena whose first
// block is kept across steps makes it a sequential bump allocation (measured
// numbers in traces/README.md).
#include <cstddef>
#include <memory>
#include <vector>

#include <google/protobuf/arena.h>

#include "traces/schedule.pb.h"

namespace hplsim::traces {

class StepBuffer {
public:
  /// `initial_bytes`: the arena block kept across steps (grows with further blocks if a step needs more).
  explicit StepBuffer(std::size_t initial_bytes = std::size_t{64} << 20);
  StepBuffer(const StepBuffer&) = delete;
  StepBuffer& operator=(const StepBuffer&) = delete;

  /// Frees the previous step and returns an empty StepSchedule on the arena.
  StepSchedule& fresh();
  /// The StepSchedule last returned by fresh() (empty before the first call).
  StepSchedule& current() { return *step_; }

private:
  std::vector<char> initial_;
  std::unique_ptr<google::protobuf::Arena> arena_;
  StepSchedule* step_ = nullptr;
};

} // namespace hplsim::traces
