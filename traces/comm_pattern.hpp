#pragma once
// A rank's part of a collective, as a list of point-to-point messages between
// members of a communicator (a process row or column), before it is written
// into a program. The collective algorithms (broadcasts, swaps, pivot
// exchange) produce patterns; `emit_pattern` turns members into ranks and
// messages into Send/Recv/Wait ops with the MPI call semantics HPL uses.
#include <cstdint>
#include <vector>

#include "traces/grid.hpp"
#include "traces/program_builder.hpp"

namespace hplsim::traces {

struct PeerMsg {
  enum class Kind : std::uint8_t {
    Send,         ///< blocking MPI_Send / MPI_Ssend (sent even when empty)
    Recv,         ///< blocking MPI_Recv (received even when empty)
    SendRecv,     ///< HPL_sdrv: Irecv + Send + Wait, each side skipped when its count is 0
    SyncSendRecv, ///< HPL_blong roll step: Issend + Recv + Wait, empty messages included
  };
  Kind kind;
  int peer; ///< member index in the communicator
  std::int64_t send_bytes = 0;
  std::int64_t recv_bytes = 0;
};

using Pattern = std::vector<PeerMsg>;

inline void add_send(Pattern& p, int peer, std::int64_t bytes) {
  p.push_back({PeerMsg::Kind::Send, peer, bytes, 0});
}
inline void add_recv(Pattern& p, int peer, std::int64_t bytes) {
  p.push_back({PeerMsg::Kind::Recv, peer, 0, bytes});
}
inline void add_send_recv(Pattern& p, int peer, std::int64_t send_bytes, std::int64_t recv_bytes) {
  if (send_bytes > 0 || recv_bytes > 0) p.push_back({PeerMsg::Kind::SendRecv, peer, send_bytes, recv_bytes});
}

/// Binomial-tree broadcast of `bytes` from member `root` over `size` members,
/// highest distance bit first (src/grid/HPL_broadcast.c; the same tree spreads
/// the pivot row among the non-power-of-two members in src/pfact/HPL_pdmxswp.c
/// and U among them in src/pgesv/HPL_pdlaswp00T.c). Members are given by their
/// distance from the root; `first_member` maps distance 0 to a member index
/// through (first_member + distance) mod `ring`.
void binomial_bcast(int my_distance, int size, std::int64_t bytes, int first_member, int ring, Pattern& out);

/// Writes the pattern into the program; members map to ranks through `comm`.
void emit_pattern(ProgramBuilder& b, const Communicator& comm, const Pattern& pattern, Phase phase);

/// Bytes of a message of `count` doubles.
inline constexpr std::int64_t doubles(std::int64_t count) { return count * 8; }

} // namespace hplsim::traces
