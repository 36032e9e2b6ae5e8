#include "sim/bench/coll_matcher.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <simgrid/s4u.hpp>

#include "models/noise.hpp"
#include "models/protocol_model.hpp"

namespace hplsim::sim {

namespace sg4 = simgrid::s4u;

CollMatcher::CollMatcher(const Platform& platform, int ranks)
    : platform_(platform), ranks_(ranks), state_(static_cast<std::size_t>(ranks)) {}

void CollMatcher::post(int rank, const mpi::CollStep& step) {
  CommWaiter& me = state_[static_cast<std::size_t>(rank)];
  me.comms.assign(step.sends.size() + step.recvs.size(), nullptr);
  me.missing = 0;
  std::size_t slot = 0;
  for (const mpi::CollMsg& m : step.sends)
    offer(rank, m.peer, m.bytes, slot++, true);
  for (const mpi::CollMsg& m : step.recvs)
    offer(m.peer, rank, m.bytes, slot++, false);
}

void CollMatcher::run(int rank, const mpi::CollProgram& program, double reduce_bytes_per_s,
                      const StepNoise& noise) {
  const models::NoiseModel* detours = noise.noise != nullptr && noise.noise->active() ? noise.noise : nullptr;
  for (const mpi::CollStep& step : program) {
    if (detours != nullptr) {
      double overhead_s = 0.0;
      if (noise.protocol != nullptr) {
        for (const mpi::CollMsg& m : step.sends)
          overhead_s += noise.protocol->send_overhead_s(static_cast<double>(m.bytes));
        for (const mpi::CollMsg& m : step.recvs)
          overhead_s += noise.protocol->recv_overhead_s(static_cast<double>(m.bytes));
      }
      // The overheads themselves are priced by the protocol model with the message; only the detours' part
      // here.
      const double delay_s = detours->rank_delay_s(rank, 1, sg4::Engine::get_clock(), overhead_s);
      if (delay_s > 0.0) sg4::this_actor::sleep_for(delay_s);
    }
    post(rank, step);
    wait(rank);
    if (step.reduce_bytes > 0 && reduce_bytes_per_s > 0) {
      const double work_s = static_cast<double>(step.reduce_bytes) / reduce_bytes_per_s;
      const double delay_s =
          detours != nullptr ? detours->rank_delay_s(rank, 1, sg4::Engine::get_clock(), work_s) : 0.0;
      sg4::this_actor::sleep_for(work_s + delay_s);
    }
  }
}

void CollMatcher::offer(int from, int to, std::int64_t bytes, std::size_t slot, bool is_send) {
  const int owner = is_send ? from : to;
  const std::uint64_t key =
      static_cast<std::uint64_t>(from) * static_cast<std::uint64_t>(ranks_) + static_cast<std::uint64_t>(to);
  Queues& q = pairs_[key];
  std::deque<Pending>& other = is_send ? q.recvs : q.sends;
  if (other.empty()) {
    (is_send ? q.sends : q.recvs).push_back({owner, slot, bytes});
    ++state_[static_cast<std::size_t>(owner)].missing;
    return;
  }
  const Pending match = other.front();
  other.pop_front();
  if (q.sends.empty() && q.recvs.empty()) pairs_.erase(key);
  if (match.bytes != bytes)
    throw std::logic_error("collective program: " + std::to_string(from) + " -> " + std::to_string(to) +
                           " sends " + std::to_string(is_send ? bytes : match.bytes) + " bytes, receives " +
                           std::to_string(is_send ? match.bytes : bytes));
  // An empty message (the barrier's) crosses as one byte: a zero-byte
  // host-to-host comm leaks its network action in SimGrid 3.32 (LeakSanitizer).
  sg4::CommPtr comm = sg4::Comm::sendto_async(platform_.cpu(from), platform_.cpu(to),
                                              static_cast<std::uint64_t>(std::max<std::int64_t>(bytes, 1)));
  state_[static_cast<std::size_t>(owner)].comms[slot] = comm;
  CommWaiter& partner = state_[static_cast<std::size_t>(match.owner)];
  partner.comms[match.slot] = comm;
  partner.one_started();
}

} // namespace hplsim::sim
