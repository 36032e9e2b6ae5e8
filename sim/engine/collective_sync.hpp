#pragma once
// The completion of an MPI collective in the replay (traces::Sync; docs/faults.md,
// "Collective versus point-to-point"): the active members of the collective's
// communicator meet, and none goes on before the last one has done its part.
// A folded-away member (a phantom) is taken to be there with the first active
// one, as phantoms are "as ready" as their active peers.
#include <cstddef>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include <simgrid/s4u/Barrier.hpp>

#include "sim/engine/platform_spec.hpp"
#include "traces/schedule.pb.h"

namespace hplsim::sim {

class CollectiveSyncs {
public:
  explicit CollectiveSyncs(const std::vector<bool>* active_ranks) : active_(active_ranks) {}

  /// Called by `rank` (from its actor) at its `seq`-th Sync of this
  /// communicator in step position `pos`; returns once every active member
  /// has called it, and `recovery_s` later when a member came `stalled` (a
  /// transfer of its failed in the collective's messages:
  /// faults.retry.collective_recovery_s).
  void meet(int rank, const traces::Sync& x, std::size_t pos, int seq, bool stalled = false,
            double recovery_s = 0.0);

private:
  int active_members(const traces::Sync& x);

  using Comm = std::tuple<int, int, int>; // base, stride, size
  const std::vector<bool>* active_;
  std::map<Comm, int> active_count_;
  std::map<std::tuple<Comm, std::size_t, int>, sg4::BarrierPtr> meetings_;
  std::map<std::tuple<Comm, std::size_t, int>, int> arrived_;
  struct Stall {
    bool stalled = false;
    int left = 0; // members still to read it
  };
  std::map<std::tuple<Comm, std::size_t, int>, Stall> stalls_;
};

} // namespace hplsim::sim
