#include "traces/comm_pattern.hpp"

#include <algorithm>
#include <vector>

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

void allreduce_pattern(int me, int size, std::int64_t bytes, Pattern& out) {
  if (size <= 1) return;
  const int ip2 = floor_pow2(size);
  const int extra = size - ip2;
  if (me >= ip2) {
    add_send(out, me - ip2, bytes);
    add_recv(out, me - ip2, bytes);
    return;
  }
  if (me < extra) add_recv(out, me + ip2, bytes);
  for (int bit = 1; bit < ip2; bit <<= 1)
    add_send_recv(out, me ^ bit, bytes, bytes);
  if (me < extra) add_send(out, me + ip2, bytes);
}

namespace {

// emit_bcast's aggregated ring hop (see comm_pattern.hpp): first chunk, bulk,
// last chunk.
void emit_aggregated_ring(ProgramBuilder& b, const Communicator& comm, const Pattern& pattern,
                          std::int64_t chunk_bytes, std::int64_t bytes, Phase phase) {
  const bool receives = pattern.front().kind == PeerMsg::Kind::Recv;
  const int from = receives ? comm.rank_of(pattern.front().peer) : -1;
  const std::int64_t bulk = bytes - 2 * chunk_bytes;
  std::vector<int> to;
  for (std::size_t i = receives ? 1 : 0; i < pattern.size(); ++i)
    to.push_back(comm.rank_of(pattern[i].peer));
  if (receives) b.recv(from, chunk_bytes, phase);
  std::vector<std::uint32_t> first, body;
  for (int peer : to)
    first.push_back(b.send_async(peer, chunk_bytes, phase));
  const std::uint32_t body_in = receives ? b.recv_async(from, bulk, phase) : 0;
  for (std::size_t i = 0; i < to.size(); ++i) {
    b.wait(first[i]); // the bulk follows the first chunk on the link, as chunk 2 follows chunk 1
    body.push_back(b.send_async(to[i], bulk, phase));
  }
  b.wait(body_in);
  if (receives) b.recv(from, chunk_bytes, phase);
  std::vector<std::uint32_t> last;
  for (std::size_t i = 0; i < to.size(); ++i) {
    b.wait(body[i]);
    last.push_back(b.send_async(to[i], chunk_bytes, phase));
  }
  for (std::uint32_t tag : last)
    b.wait(tag);
}

} // namespace

void emit_bcast(ProgramBuilder& b, const Communicator& comm, const Pattern& pattern, std::int64_t chunk_bytes,
                Phase phase, bool aggregated) {
  bool ring = chunk_bytes > 0 && !pattern.empty();
  for (std::size_t i = 0; i < pattern.size() && ring; ++i) {
    const PeerMsg& m = pattern[i];
    ring = m.kind == PeerMsg::Kind::Send || (m.kind == PeerMsg::Kind::Recv && i == 0);
  }
  const std::int64_t bytes = ring ? std::max(pattern.front().send_bytes, pattern.front().recv_bytes) : 0;
  if (!ring || bytes <= chunk_bytes) return emit_pattern(b, comm, pattern, phase);
  if (aggregated && bytes > 3 * chunk_bytes)
    return emit_aggregated_ring(b, comm, pattern, chunk_bytes, bytes, phase);
  const bool receives = pattern.front().kind == PeerMsg::Kind::Recv;
  const std::size_t first_send = receives ? 1 : 0;
  std::vector<std::uint32_t> in_flight(pattern.size(), 0);
  for (std::int64_t offset = 0; offset < bytes; offset += chunk_bytes) {
    const std::int64_t size = std::min(chunk_bytes, bytes - offset);
    if (receives) b.recv(comm.rank_of(pattern.front().peer), size, phase);
    for (std::size_t i = first_send; i < pattern.size(); ++i) {
      b.wait(in_flight[i]);
      in_flight[i] = b.send_async(comm.rank_of(pattern[i].peer), size, phase);
    }
  }
  for (std::uint32_t tag : in_flight)
    b.wait(tag);
}

void emit_collective(ProgramBuilder& b, const Communicator& comm, const mpi::CollProgram& steps,
                     Phase phase) {
  for (const mpi::CollStep& s : steps) {
    if (s.sends.size() + s.recvs.size() == 1) {
      if (s.sends.empty())
        b.recv(comm.rank_of(s.recvs.front().peer), s.recvs.front().bytes, phase);
      else
        b.send(comm.rank_of(s.sends.front().peer), s.sends.front().bytes, phase);
      continue;
    }
    std::vector<std::uint32_t> tags;
    for (const mpi::CollMsg& m : s.recvs)
      tags.push_back(b.recv_async(comm.rank_of(m.peer), m.bytes, phase));
    for (const mpi::CollMsg& m : s.sends)
      tags.push_back(b.send_async(comm.rank_of(m.peer), m.bytes, phase));
    for (std::uint32_t t : tags)
      b.wait(t);
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
