#pragma once
// The schedule as the replay reads it: steps generated on demand and kept
// until every active rank has finished them, so memory holds a few steps
// whatever the run length.
#include <cstdint>
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <google/protobuf/arena.h>

#include "sim/result/run_result.hpp"
#include "sim/workload/step_source.hpp"
#include "traces/schedule.pb.h"

namespace hplsim::sim {

class StepWindow {
public:
  StepWindow(const StepSource& source, const std::vector<std::int64_t>& steps, int ranks, int active,
             std::vector<StepRecord>& records)
      : source_(source), steps_(steps), ranks_(ranks), active_(active), records_(records) {}

  const traces::RankProgram* program(std::size_t pos, int rank) {
    while (first_ + entries_.size() <= pos)
      generate(first_ + entries_.size());
    const Entry& e = entries_.at(pos - first_);
    const int idx = e.index[static_cast<std::size_t>(rank)];
    return idx < 0 ? nullptr : &e.schedule->ranks(idx);
  }
  void done(std::size_t pos) {
    Entry& e = entries_.at(pos - first_);
    --e.remaining;
    while (!entries_.empty() && entries_.front().remaining == 0) {
      entries_.pop_front();
      ++first_;
    }
  }

private:
  // Each step lives on its own arena: a step holds ~10^5 small messages and
  // heap allocation dominates generation otherwise (traces/README.md).
  struct Entry {
    std::unique_ptr<google::protobuf::Arena> arena;
    traces::StepSchedule* schedule = nullptr;
    std::vector<int> index;
    int remaining = 0;
  };
  void generate(std::size_t pos) {
    Entry e;
    google::protobuf::ArenaOptions options;
    options.start_block_size = std::size_t{1} << 20;
    options.max_block_size = std::size_t{16} << 20;
    e.arena = std::make_unique<google::protobuf::Arena>(options);
    e.schedule = google::protobuf::Arena::CreateMessage<traces::StepSchedule>(e.arena.get());
    source_(steps_.at(pos), *e.schedule);
    e.index.assign(static_cast<std::size_t>(ranks_), -1);
    for (int i = 0; i < e.schedule->ranks_size(); ++i) {
      const int r = e.schedule->ranks(i).rank();
      if (r < 0 || r >= ranks_)
        throw std::runtime_error("schedule step " + std::to_string(steps_.at(pos)) + ": rank " +
                                 std::to_string(r) + " out of range");
      e.index[static_cast<std::size_t>(r)] = i;
    }
    e.remaining = active_;
    records_[pos].flops = e.schedule->flops();
    entries_.push_back(std::move(e));
  }

  const StepSource& source_;
  const std::vector<std::int64_t>& steps_;
  int ranks_;
  int active_;
  std::vector<StepRecord>& records_;
  std::size_t first_ = 0;
  std::deque<Entry> entries_;
};

} // namespace hplsim::sim
