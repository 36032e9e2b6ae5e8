#pragma once
// A rank's part of a collective, as a list of point-to-point messages between
// members of a communicator (a process row or column), before it is written
// into a program. The collective algorithms (broadcasts, swaps, pivot
// exchange) produce patterns; `emit_pattern` turns members into ranks and
// messages into Send/Recv/Wait ops with the MPI call semantics HPL uses.
#include <cstdint>
#include <vector>

#include "traces/grid.hpp"
#include "traces/mpi_collectives.hpp"
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

/// Recursive-doubling allreduce of `bytes` among `size` members (MPICH's
/// MPIR_Allreduce_intra_recursive_doubling; Thakur, Rabenseifner & Gropp, "Optimization
/// of collective communication operations in MPICH", IJHPCA 19(1), 2005): members
/// ip2.. first send their vector to member - ip2, the largest power of two ip2 <=
/// size exchange in log2(ip2) rounds, and the result goes back to the folded members.
void allreduce_pattern(int me, int size, std::int64_t bytes, Pattern& out);

/// Writes the pattern into the program; members map to ranks through `comm`.
void emit_pattern(ProgramBuilder& b, const Communicator& comm, const Pattern& pattern, Phase phase);

/// Writes a broadcast pattern, pipelining it when it is a ring (only whole-message
/// Sends and at most one leading Recv): each message is cut in chunks of at most
/// `chunk_bytes`, a member receives chunk c (blocking) and forwards it with an
/// asynchronous send, waiting for its previous send to the same peer first (one
/// send and one receive in flight, as rocHPL-MxP's src/comm/hplmxp_bcast_1ring.cpp
/// does with 2 MiB chunks). chunk_bytes <= 0, or a pattern that is not a ring,
/// is written as is (emit_pattern). Every member of one broadcast must be given
/// the same chunk_bytes, and 0 for a non-ring algorithm (blong), whose
/// receive-only members would otherwise look like ring members.
///
/// `aggregated` (fast mode; docs/fast-mode.md, "4. Aggregated ring broadcasts"):
/// a message of more than 3 chunks crosses each hop as 3 messages instead: the
/// first chunk, the bulk (all but the first and last chunks) and the last
/// chunk. A member forwards the first chunk once it has it, then forwards the
/// bulk while its own bulk is still arriving, and sends the last chunk once
/// its bulk has arrived and gone out and the last chunk has arrived. On
/// idle links with equal bandwidths hop h then ends at (chunks + h - 1) chunk
/// times, as the chunk-by-chunk pipeline does; a hop whose outgoing link is
/// faster than its incoming one cannot finish early either, since the last
/// chunk waits for the incoming bulk.
void emit_bcast(ProgramBuilder& b, const Communicator& comm, const Pattern& pattern, std::int64_t chunk_bytes,
                Phase phase, bool aggregated = false);

/// Writes an MPI collective's steps (mpi::collective_program; members map to
/// ranks through `comm`): a step of one send or one receive is a blocking
/// MPI_Send / MPI_Recv, a step of several messages posts them all (MPI_Isend /
/// MPI_Irecv) and waits for them. The local combine of a reduction is not
/// written (a CPU sum at memory speed, below the messages' cost).
void emit_collective(ProgramBuilder& b, const Communicator& comm, const mpi::CollProgram& steps, Phase phase);

/// Bytes of a message of `count` doubles.
inline constexpr std::int64_t doubles(std::int64_t count) {
  return count * 8;
}

} // namespace hplsim::traces
