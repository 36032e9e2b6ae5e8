#pragma once
// Point-to-point matching for the ranks of a collective program (traces/mpi_collectives.hpp) run step by
// step: a message starts when both its send and its receive are posted (MPI's matching: per sender and
// receiver, in order), and then crosses the route between the two ranks' hosts. Host-to-host comms keep
// the memory flat: a mailbox per pair would cost a SimGrid mailbox for each of the p^2 pairs of an
// alltoall. Used by the OSU collectives (osu_collectives.hpp) and the RMA Alltoallv (rma_alltoallv.hpp).
#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include "sim/bench/comm_waiter.hpp"
#include "sim/engine/platform.hpp"
#include "traces/mpi_collectives.hpp"

namespace hplsim::models {
class NoiseModel;
class ProtocolModel;
} // namespace hplsim::models

namespace hplsim::sim {

/// System noise on the ranks' cores while they run a collective program (null: a quiet machine). A rank
/// that goes on to a step first pays its messages' software overheads (`protocol`'s send and receive
/// overheads; none when null) on its core, and a detour there holds it until it ends, as a detour holds
/// a rank polling in MPI; a reduction's local combine is CPU work the detours stretch likewise
/// (the treatment of noise-bench's messages: sim/bench/noise_bench.hpp).
struct StepNoise {
  const models::NoiseModel* noise = nullptr;
  const models::ProtocolModel* protocol = nullptr;
};

class CollMatcher {
public:
  CollMatcher(const Platform& platform, int ranks);

  /// Posts every message of a step of `rank`; comms are filled in as they start.
  void post(int rank, const mpi::CollStep& step);

  /// Waits until every message of the rank's posted step has started and ended.
  void wait(int rank) { state_[static_cast<std::size_t>(rank)].wait_all(); }

  /// Runs `rank`'s whole program: each step posted, waited for, then its
  /// local combine timed at `reduce_bytes_per_s` (0: instantly). From the rank's actor.
  void run(int rank, const mpi::CollProgram& program, double reduce_bytes_per_s, const StepNoise& noise = {});

private:
  struct Pending {
    int owner;
    std::size_t slot;
    std::int64_t bytes;
  };
  struct Queues {
    std::deque<Pending> sends, recvs;
  };

  void offer(int from, int to, std::int64_t bytes, std::size_t slot, bool is_send);

  const Platform& platform_;
  int ranks_;
  std::vector<CommWaiter> state_;
  std::unordered_map<std::uint64_t, Queues> pairs_;
};

} // namespace hplsim::sim
