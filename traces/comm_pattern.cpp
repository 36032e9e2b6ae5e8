#include "traces/comm_pattern.hpp"

namespace hplsim::traces {

void binomial_bcast(int my_distance, int size, std::int64_t bytes, int first_member, int ring, Pattern& out) {
  if (size <= 1) return;
  // The tree halves from the top: at level `bit` (a power of two, largest first)
  // the members whose distance is a multiple of 2*bit send to distance + bit.
  int bit = floor_pow2(size - 1);
  const auto member = [&](int distance) { return mod_add(first_member, distance, ring); };
  for (; bit > 0; bit >>= 1) {
    if ((my_distance & (bit - 1)) != 0) continue;
    const int partner = my_distance ^ bit;
    if ((my_distance & bit) != 0)
      add_recv(out, member(partner), bytes);
    else if (partner < size)
      add_send(out, member(partner), bytes);
  }
}

void emit_pattern(ProgramBuilder& b, const Communicator& comm, const Pattern& pattern, Phase phase) {
  for (const PeerMsg& m : pattern) {
    const int peer = comm.rank_of(m.peer);
    switch (m.kind) {
    case PeerMsg::Kind::Send:
      b.send(peer, m.send_bytes, phase);
      break;
    case PeerMsg::Kind::Recv:
      b.recv(peer, m.recv_bytes, phase);
      break;
    case PeerMsg::Kind::SendRecv:
      b.send_recv(peer, m.send_bytes, m.recv_bytes, phase);
      break;
    case PeerMsg::Kind::SyncSendRecv: {
      const std::uint32_t tag = b.send_async(peer, m.send_bytes, phase);
      b.recv(peer, m.recv_bytes, phase);
      b.wait(tag);
      break;
    }
    }
  }
}

} // namespace hplsim::traces
