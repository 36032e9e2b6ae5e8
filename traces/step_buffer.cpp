#include "traces/step_buffer.hpp"

namespace hplsim::traces {

StepBuffer::StepBuffer(std::size_t initial_bytes) : initial_(initial_bytes) {
  google::protobuf::ArenaOptions options;
  options.initial_block = initial_.data();
  options.initial_block_size = initial_.size();
  options.start_block_size = std::size_t{1} << 20;
  options.max_block_size = std::size_t{64} << 20;
  arena_ = std::make_unique<google::protobuf::Arena>(options);
  step_ = google::protobuf::Arena::CreateMessage<StepSchedule>(arena_.get());
}

StepSchedule& StepBuffer::fresh() {
  arena_->Reset(); // keeps the initial block (user-provided), frees the others
  step_ = google::protobuf::Arena::CreateMessage<StepSchedule>(arena_.get());
  return *step_;
}

} // namespace hplsim::traces
