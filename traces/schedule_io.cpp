#include "traces/schedule_io.hpp"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/util/delimited_message_util.h>
#include <stdexcept>

namespace hplsim::traces {

namespace pbio = google::protobuf::io;
namespace pbu = google::protobuf::util;

struct ScheduleWriter::Impl {
  explicit Impl(std::ostream& out) : stream(&out) {}
  pbio::OstreamOutputStream stream;
};

ScheduleWriter::ScheduleWriter(std::ostream& out) : impl_(std::make_unique<Impl>(out)) {}
ScheduleWriter::~ScheduleWriter() = default;

void ScheduleWriter::write_header(const ScheduleHeader& header) {
  if (!pbu::SerializeDelimitedToZeroCopyStream(header, &impl_->stream))
    throw std::runtime_error("schedule stream: cannot write the header");
}

void ScheduleWriter::write_step(const StepSchedule& step) {
  if (!pbu::SerializeDelimitedToZeroCopyStream(step, &impl_->stream))
    throw std::runtime_error("schedule stream: cannot write step " + std::to_string(step.step()));
}

struct ScheduleReader::Impl {
  explicit Impl(std::istream& in) : stream(&in) {}
  pbio::IstreamInputStream stream;
};

ScheduleReader::ScheduleReader(std::istream& in) : impl_(std::make_unique<Impl>(in)) {}
ScheduleReader::~ScheduleReader() = default;

// protobuf's ParseDelimitedFromZeroCopyStream merges into the message: clear it
// first so that a reused message holds only the record just read.
bool ScheduleReader::read_header(ScheduleHeader& header) {
  header.Clear();
  bool clean_eof = false;
  return pbu::ParseDelimitedFromZeroCopyStream(&header, &impl_->stream, &clean_eof);
}

bool ScheduleReader::read_step(StepSchedule& step) {
  step.Clear();
  bool clean_eof = false;
  if (pbu::ParseDelimitedFromZeroCopyStream(&step, &impl_->stream, &clean_eof)) return true;
  if (clean_eof) return false;
  throw std::runtime_error("schedule stream: truncated or malformed step message");
}

} // namespace hplsim::traces
