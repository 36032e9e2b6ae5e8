#include "sim/engine/phase_accounts.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace hplsim::sim {

int phase_index(traces::Phase phase) {
  switch (phase) {
  case traces::PFACT:
    return static_cast<int>(PhaseId::Pfact);
  case traces::BCAST:
    return static_cast<int>(PhaseId::Bcast);
  case traces::SWAP:
    return static_cast<int>(PhaseId::Swap);
  case traces::TRSM:
    return static_cast<int>(PhaseId::Trsm);
  case traces::GEMM:
    return static_cast<int>(PhaseId::Gemm);
  case traces::SOLVE:
    return static_cast<int>(PhaseId::Solve);
  case traces::COPY:
    return -1; // staging copies outside any phase are not attributed
  }
  return -1;
}

double PhaseAccounts::union_length(std::vector<std::pair<double, double>>& intervals) {
  std::sort(intervals.begin(), intervals.end());
  double total = 0.0, from = 0.0, to = -1.0;
  for (const auto& [start, end] : intervals) {
    if (start > to) {
      total += std::max(0.0, to - from);
      from = start;
      to = end;
    } else {
      to = std::max(to, end);
    }
  }
  return total + std::max(0.0, to - from);
}

void PhaseAccounts::open(std::size_t pos) {
  if (spare_.empty()) {
    open_.push_back({pos, {}, {}});
  } else {
    open_.push_back(std::move(spare_.back()));
    spare_.pop_back();
    open_.back().pos = pos;
    open_.back().outside.clear();
  }
}

void PhaseAccounts::add(std::size_t pos, int phase, double start_s, double end_s) {
  if (phase < 0) return;
  if (phase >= kOutsideGemm)
    return add_outside(pos, phase - kOutsideGemm, static_cast<int>(PhaseId::Gemm), start_s, end_s);
  for (auto& a : open_)
    if (a.pos == pos) {
      if (end_s <= start_s) return;
      // Ops mostly come in program order, back to back: one that starts
      // inside the last interval extends it, which keeps the list short.
      auto& intervals = a.intervals[static_cast<std::size_t>(phase)];
      if (!intervals.empty() && start_s >= intervals.back().first && start_s <= intervals.back().second)
        intervals.back().second = std::max(intervals.back().second, end_s);
      else
        intervals.emplace_back(start_s, end_s);
      return;
    }
  throw std::logic_error("replay: accounting for a closed step");
}

void PhaseAccounts::add_outside(std::size_t pos, int phase, int outside, double start_s, double end_s) {
  if (phase < 0 || end_s <= start_s) return;
  for (auto& a : open_)
    if (a.pos == pos) {
      a.outside.push_back({phase, outside, start_s, end_s});
      return;
    }
  throw std::logic_error("replay: accounting for a closed step");
}

void PhaseAccounts::settle_outside(Accumulator& a) {
  for (const Accumulator::Outside& o : a.outside) {
    // The `outside` phase's intervals as a sorted disjoint union.
    std::vector<std::pair<double, double>> cover = a.intervals[static_cast<std::size_t>(o.outside)];
    std::sort(cover.begin(), cover.end());
    double from = o.start_s;
    auto& into = a.intervals[static_cast<std::size_t>(o.phase)];
    for (const auto& [start, end] : cover) {
      if (end <= from) continue;
      if (start >= o.end_s) break;
      if (start > from) into.emplace_back(from, start);
      from = std::max(from, end);
      if (from >= o.end_s) break;
    }
    if (from < o.end_s) into.emplace_back(from, o.end_s);
  }
  a.outside.clear();
}

void PhaseAccounts::close(std::size_t current, const std::function<bool(std::size_t)>& busy,
                          const std::function<void(std::size_t, const RankPhases&)>& closed) {
  for (auto it = open_.begin(); it != open_.end();) {
    const bool old = current == std::numeric_limits<std::size_t>::max() || it->pos + 2 <= current;
    if (old && !busy(it->pos)) {
      settle_outside(*it);
      RankPhases phase_s{};
      for (std::size_t p = 0; p < phase_s.size(); ++p)
        phase_s[p] = union_length(it->intervals[p]);
      closed(it->pos, phase_s);
      for (auto& intervals : it->intervals)
        intervals.clear();
      spare_.push_back(std::move(*it));
      it = open_.erase(it);
    } else {
      ++it;
    }
  }
}

} // namespace hplsim::sim
