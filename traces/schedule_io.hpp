#pragma once
// Length-delimited Protobuf stream of a panel schedule: one ScheduleHeader,
// then StepSchedule messages, one at a time.
#include <istream>
#include <memory>
#include <ostream>

#include "traces/schedule.pb.h"

namespace hplsim::traces {

class ScheduleWriter {
public:
  explicit ScheduleWriter(std::ostream& out);
  ~ScheduleWriter();
  void write_header(const ScheduleHeader& header);
  void write_step(const StepSchedule& step);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

class ScheduleReader {
public:
  explicit ScheduleReader(std::istream& in);
  ~ScheduleReader();
  /// False on a malformed or missing header.
  bool read_header(ScheduleHeader& header);
  /// False at the end of the stream; throws std::runtime_error on a truncated message.
  bool read_step(StepSchedule& step);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace hplsim::traces
