#include "traces/hpl_bcast.hpp"

#include <algorithm>

namespace hplsim::traces {

namespace {

// Distances are measured from the root along the row (member = root + d mod size).
struct Ring {
  int root, size;
  int member(int distance) const { return mod_add(root, distance % size, size); }
};

// HPL_bcast_1ring: the root sends to its right neighbour; every other member
// receives from its left neighbour and forwards to the right, except the last.
void one_ring(const Ring& ring, int d, std::int64_t bytes, Pattern& out) {
  if (d == 0) {
    add_send(out, ring.member(1), bytes);
    return;
  }
  add_recv(out, ring.member(d - 1), bytes);
  if (d + 1 < ring.size) add_send(out, ring.member(d + 1), bytes);
}

// HPL_bcast_1rinM ("modified"): the root sends to distances 1 and 2; distance 1
// keeps the panel (it factors the next one), the ring continues from distance 2.
void one_ring_modified(const Ring& ring, int d, std::int64_t bytes, Pattern& out) {
  if (d == 0) {
    add_send(out, ring.member(1), bytes);
    if (ring.size > 2) add_send(out, ring.member(2), bytes);
    return;
  }
  add_recv(out, ring.member(d <= 2 ? 0 : d - 1), bytes);
  if (d >= 2 && d + 1 < ring.size) add_send(out, ring.member(d + 1), bytes);
}

// HPL_bcast_2ring: two rings, from the root to distance 1 and to distance
// h = ceil(size/2); each runs right up to the start of the other / the root.
void two_ring(const Ring& ring, int d, std::int64_t bytes, Pattern& out) {
  const int h = (ring.size + 1) / 2;
  if (d == 0) {
    add_send(out, ring.member(1), bytes);
    if (ring.size > 2) add_send(out, ring.member(h), bytes);
    return;
  }
  add_recv(out, ring.member((d == 1 || d == h) ? 0 : d - 1), bytes);
  if (d + 1 != h && d + 1 < ring.size) add_send(out, ring.member(d + 1), bytes);
}

// HPL_bcast_2rinM: as 2ring, but distance 1 only receives (next panel's owner)
// and the first ring starts at distance 2, which the root serves directly.
void two_ring_modified(const Ring& ring, int d, std::int64_t bytes, Pattern& out) {
  const int h = (ring.size + 1) / 2;
  if (d == 0) {
    add_send(out, ring.member(1), bytes);
    if (ring.size > 2) {
      if (h != 2) add_send(out, ring.member(2), bytes);
      add_send(out, ring.member(h), bytes);
    }
    return;
  }
  add_recv(out, ring.member((d == 1 || d == 2 || d == h) ? 0 : d - 1), bytes);
  if (d != 1 && d + 1 != h && d + 1 < ring.size) add_send(out, ring.member(d + 1), bytes);
}

// Chunk c of `total` elements split over `parts` members (HPL_blong/HPL_blonM):
// chunks of floor(total/parts) (at least 1) elements, the last one takes the rest.
std::int64_t chunk_elements(std::int64_t total, std::int64_t per, int parts, int c) {
  const std::int64_t begin = static_cast<std::int64_t>(c) * per;
  const std::int64_t end = c == parts - 1 ? total : begin + per;
  return std::max<std::int64_t>(0, std::min(total, end) - begin);
}

// Scatter + roll over `parts` virtual members (distance v from the root);
// `phys` maps a virtual member to a row member. Scatter: binomial tree, the
// receiver of subtree [s, s + bit) gets chunks [s, s + bit) (empty messages are
// sent too: MPI_Ssend/MPI_Recv with count 0). Roll: parts - 1 steps where the
// members alternate between their left and right neighbours, each step an
// MPI_Issend + MPI_Recv + MPI_Wait of one chunk each way.
template <class Phys>
void scatter_roll(int v, int parts, int roll_steps, std::int64_t total, std::int64_t elem, Phys phys,
                  Pattern& out) {
  const std::int64_t per = std::max<std::int64_t>(total / parts, 1);
  for (int bit = floor_pow2(std::max(parts - 1, 1)); bit > 0; bit >>= 1) {
    if ((v & (bit - 1)) != 0) continue;
    const int partner = v ^ bit;
    const int subtree = (v & bit) != 0 ? v : partner;
    std::int64_t len = total - static_cast<std::int64_t>(subtree) * per;
    if (subtree + bit < parts) len = std::min(len, static_cast<std::int64_t>(bit) * per);
    const std::int64_t bytes = std::max<std::int64_t>(len, 0) * elem;
    if ((v & bit) != 0)
      add_recv(out, phys(partner), bytes);
    else if (partner < parts)
      add_send(out, phys(partner), bytes);
  }
  const int prev = mod_sub(v, 1, parts);
  const int next = mod_add(v, 1, parts);
  for (int k = 0; k < roll_steps; ++k) {
    const int l = k >> 1;
    int send_chunk, recv_chunk, partner;
    if (((v + k) & 1) != 0) {
      send_chunk = (v + l) % parts;
      recv_chunk = mod_sub(v, (l + 1) % parts, parts);
      partner = prev;
    } else {
      send_chunk = mod_sub(v, l % parts, parts);
      recv_chunk = (v + l + 1) % parts;
      partner = next;
    }
    out.push_back({PeerMsg::Kind::SyncSendRecv, phys(partner),
                   elem * chunk_elements(total, per, parts, send_chunk),
                   elem * chunk_elements(total, per, parts, recv_chunk)});
  }
}

// HPL_bcast_blong: scatter over all members then size - 1 roll steps.
void blong(const Ring& ring, int d, std::int64_t len, std::int64_t elem, Pattern& out) {
  scatter_roll(
      d, ring.size, ring.size - 1, len, elem, [&](int v) { return ring.member(v); }, out);
}

// HPL_bcast_blonM: the root first sends the whole panel to distance 1 (the next
// panel's owner, which is then done); the root and distances 2..size-1 then run
// scatter + roll among themselves (virtual member v = 0 for the root, d - 1 else).
void blong_modified(const Ring& ring, int d, std::int64_t len, std::int64_t elem, Pattern& out) {
  if (d == 0) add_send(out, ring.member(1), len * elem);
  if (d == 1) add_recv(out, ring.member(0), len * elem);
  if (d == 1 || ring.size == 2) return;
  const int parts = ring.size - 1;
  const int v = d == 0 ? 0 : d - 1;
  scatter_roll(
      v, parts, parts - 1, len, elem, [&](int w) { return ring.member(w == 0 ? 0 : w + 1); }, out);
}

} // namespace

bool bcast_is_probed(HplConfig::Bcast variant) {
  return variant != HplConfig::Bcast::Blong && variant != HplConfig::Bcast::BlongM;
}

void bcast_pattern(HplConfig::Bcast variant, int me, int root, int size, std::int64_t len_doubles,
                   Pattern& out) {
  bcast_pattern(variant, me, root, size, len_doubles, 8, out);
}

void bcast_pattern(HplConfig::Bcast variant, int me, int root, int size, std::int64_t count,
                   std::int64_t element_bytes, Pattern& out) {
  if (size <= 1) return;
  const Ring ring{root, size};
  const int d = mod_sub(me, root, size);
  const std::int64_t bytes = count * element_bytes;
  switch (variant) {
  case HplConfig::Bcast::OneRing:
    return one_ring(ring, d, bytes, out);
  case HplConfig::Bcast::OneRingM:
    return one_ring_modified(ring, d, bytes, out);
  case HplConfig::Bcast::TwoRing:
    return two_ring(ring, d, bytes, out);
  case HplConfig::Bcast::TwoRingM:
    return two_ring_modified(ring, d, bytes, out);
  case HplConfig::Bcast::Blong:
    return blong(ring, d, count, element_bytes, out);
  case HplConfig::Bcast::BlongM:
    return blong_modified(ring, d, count, element_bytes, out);
  }
}

} // namespace hplsim::traces
