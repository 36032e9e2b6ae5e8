#include "sim/engine/collective_sync.hpp"

#include <stdexcept>
#include <string>

#include <simgrid/s4u.hpp>

#include "traces/grid.hpp"

namespace hplsim::sim {

int CollectiveSyncs::active_members(const traces::Sync& x) {
  const Comm comm{x.base(), x.stride(), x.size()};
  if (active_ == nullptr) return x.size();
  if (const auto it = active_count_.find(comm); it != active_count_.end()) return it->second;
  const traces::Communicator c{x.base(), x.stride(), x.size()};
  int n = 0;
  for (int m = 0; m < x.size(); ++m)
    n += (*active_)[static_cast<std::size_t>(c.rank_of(m))] ? 1 : 0;
  return active_count_.emplace(comm, n).first->second;
}

void CollectiveSyncs::meet(int rank, const traces::Sync& x, std::size_t pos, int seq, bool stalled,
                           double recovery_s) {
  if (traces::Communicator{x.base(), x.stride(), x.size()}.member_of(rank) < 0)
    throw std::runtime_error("schedule: rank " + std::to_string(rank) + " is not a member of its collective");
  const int expected = active_members(x);
  if (expected <= 1) return;
  const auto key = std::make_tuple(Comm{x.base(), x.stride(), x.size()}, pos, seq);
  auto it = meetings_.find(key);
  if (it == meetings_.end())
    it = meetings_.emplace(key, sg4::Barrier::create(static_cast<unsigned>(expected))).first;
  const sg4::BarrierPtr barrier = it->second;
  Stall& stall = stalls_[key];
  stall.stalled = stall.stalled || stalled;
  ++stall.left;
  if (++arrived_[key] == expected) {
    meetings_.erase(it);
    arrived_.erase(key);
  }
  barrier->wait();
  const auto s = stalls_.find(key);
  const bool recover = s->second.stalled && recovery_s > 0.0;
  if (--s->second.left == 0) stalls_.erase(s);
  if (recover) sg4::this_actor::sleep_for(recovery_s);
}

} // namespace hplsim::sim
