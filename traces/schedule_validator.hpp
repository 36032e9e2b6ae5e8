#pragma once
// Consistency checks of a window of consecutive steps of a schedule, under the
// replay's semantics (programs run step after step; messages of one ordered
// pair of ranks match in program order; a blocking send completes only once
// its receive is posted):
//  - every op is well formed (kind, kernel, resource, phase set; peers in range
//    and not the rank itself; no negative size);
//  - per ordered pair (src, dst), the sends of src to dst and the receives of
//    dst from src agree in number and, message by message, in bytes;
//  - async tags are unique among a rank's in-flight ops, every Wait names an
//    in-flight tag and every async op is waited (by the end of the window, or
//    of its own step with tags_within_step);
//  - optionally, the programs run to completion in an abstract execution
//    (compute and copies take no time, a blocking send waits for its receive:
//    rendezvous, the strictest MPI protocol), i.e. they cannot deadlock.
#include <cstdint>
#include <string>
#include <vector>

#include "traces/schedule.pb.h"

namespace hplsim::traces {

struct ValidationOptions {
  bool check_deadlock = true;
  bool tags_within_step = false;
  std::size_t max_errors = 20;
};

struct ValidationReport {
  std::vector<std::string> errors; ///< empty when the window is consistent
  std::int64_t ops = 0;
  std::int64_t messages = 0; ///< sends
  std::int64_t message_bytes = 0;
  bool ok() const { return errors.empty(); }
  std::string summary() const; ///< the errors, one per line, or "ok"
};

/// `ranks` = P * Q; `window` = consecutive steps in program order.
ValidationReport validate_schedule(int ranks, const std::vector<const StepSchedule*>& window,
                                   const ValidationOptions& options = {});

} // namespace hplsim::traces
