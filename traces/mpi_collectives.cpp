#include "traces/mpi_collectives.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <utility>

#include "traces/grid.hpp"

namespace hplsim::mpi {

namespace {

using traces::floor_pow2;

// (a + b) mod n in [0, n), for any a, b.
int mod_add(int a, int b, int n) {
  return ((a + b) % n + n) % n;
}
using Range = std::pair<int, int>; // chunk indices [first, last)

// Chunk i of a vector of `bytes` cut in `chunks` nearly equal pieces.
std::int64_t chunk_bytes(std::int64_t bytes, int chunks, int i) {
  return bytes * (i + 1) / chunks - bytes * i / chunks;
}
std::int64_t range_bytes(std::int64_t bytes, int chunks, Range r) {
  return bytes * r.second / chunks - bytes * r.first / chunks;
}

// A step builder that drops empty messages unless told to keep them (the
// barrier's messages are empty by design).
class Steps {
public:
  explicit Steps(bool keep_empty = false) : keep_empty_(keep_empty) {}
  void exchange(int to, std::int64_t send_bytes, int from, std::int64_t recv_bytes,
                std::int64_t reduce_bytes = 0) {
    CollStep s;
    if (keep_empty_ || send_bytes > 0) s.sends.push_back({to, send_bytes});
    if (keep_empty_ || recv_bytes > 0) s.recvs.push_back({from, recv_bytes});
    s.reduce_bytes = s.recvs.empty() ? 0 : reduce_bytes;
    add(std::move(s));
  }
  void send(int to, std::int64_t bytes) {
    CollStep s;
    if (keep_empty_ || bytes > 0) s.sends.push_back({to, bytes});
    add(std::move(s));
  }
  void recv(int from, std::int64_t bytes, std::int64_t reduce_bytes = 0) {
    CollStep s;
    if (keep_empty_ || bytes > 0) s.recvs.push_back({from, bytes});
    s.reduce_bytes = s.recvs.empty() ? 0 : reduce_bytes;
    add(std::move(s));
  }
  void add(CollStep s) {
    if (!s.sends.empty() || !s.recvs.empty()) out_.push_back(std::move(s));
  }
  CollProgram take() { return std::move(out_); }

private:
  bool keep_empty_;
  CollProgram out_;
};

// MPICH's fold of a non-power-of-two communicator into p2 = floor_pow2(size)
// members (MPIR_Allreduce_intra_recursive_doubling): of the first 2 * rem
// members, the even ones hand their vector to the odd one above and wait for
// the result; the others are renumbered 0 .. p2 - 1.
// The reduce keeps the even ones instead (MPIR_Reduce_redscat_gather), so that
// member 0, the root in relative ranks, is never folded away.
struct Fold {
  int p2, rem;
  bool keep_even;
  explicit Fold(int size, bool keep_even_members = false)
      : p2(floor_pow2(size)), rem(size - floor_pow2(size)), keep_even(keep_even_members) {}
  int new_rank(int me) const {
    if (me < 2 * rem) return (me % 2 == 0) == keep_even ? me / 2 : -1;
    return me - rem;
  }
  int real_rank(int new_rank) const {
    return new_rank < rem ? 2 * new_rank + (keep_even ? 0 : 1) : new_rank + rem;
  }
};

// Recursive halving among the folded members: member `nr` keeps half of its
// range at each step (mask 1, 2, ..., p2 / 2) and receives (and combines) the
// peer's copy of that half. Returns the ranges before each step and after the
// last.
std::vector<Range> reduce_scatter_halving(const Fold& f, int nr, std::int64_t bytes, Steps& s) {
  std::vector<Range> history{{0, f.p2}};
  for (int mask = 1; mask < f.p2; mask <<= 1) {
    const Range cur = history.back();
    const int half = (cur.second - cur.first) / 2;
    const Range low{cur.first, cur.first + half}, high{cur.first + half, cur.second};
    const bool keep_low = (nr & mask) == 0;
    const Range keep = keep_low ? low : high, give = keep_low ? high : low;
    const int peer = f.real_rank(nr ^ mask);
    const std::int64_t in = range_bytes(bytes, f.p2, keep);
    s.exchange(peer, range_bytes(bytes, f.p2, give), peer, in, in);
    history.push_back(keep);
  }
  return history;
}

CollProgram allreduce(const CollCall& c, int me) {
  Steps s;
  const int p = c.size;
  if (c.algorithm == RING) {
    const int right = mod_add(me, 1, p), left = mod_add(me, -1, p);
    for (int k = 0; k < p - 1; ++k) {
      const std::int64_t in = chunk_bytes(c.bytes, p, mod_add(me, -k - 1, p));
      s.exchange(right, chunk_bytes(c.bytes, p, mod_add(me, -k, p)), left, in, in);
    }
    for (int k = 0; k < p - 1; ++k)
      s.exchange(right, chunk_bytes(c.bytes, p, mod_add(me, 1 - k, p)), left,
                 chunk_bytes(c.bytes, p, mod_add(me, -k, p)));
    return s.take();
  }
  const Fold f(p);
  const int nr = f.new_rank(me);
  if (nr < 0) { // folded away: hand over, get the result back
    s.send(me + 1, c.bytes);
    s.recv(me + 1, c.bytes);
    return s.take();
  }
  if (me < 2 * f.rem) s.recv(me - 1, c.bytes, c.bytes);
  if (c.algorithm == RABENSEIFNER) {
    std::vector<Range> h = reduce_scatter_halving(f, nr, c.bytes, s);
    for (int mask = f.p2 / 2, k = static_cast<int>(h.size()) - 2; mask >= 1; mask >>= 1, --k) {
      const int peer = f.real_rank(nr ^ mask);
      const Range mine = h[static_cast<std::size_t>(k) + 1];
      const Range whole = h[static_cast<std::size_t>(k)];
      const Range theirs =
          mine.first == whole.first ? Range{mine.second, whole.second} : Range{whole.first, mine.first};
      s.exchange(peer, range_bytes(c.bytes, f.p2, mine), peer, range_bytes(c.bytes, f.p2, theirs));
    }
  } else {
    for (int mask = 1; mask < f.p2; mask <<= 1) {
      const int peer = f.real_rank(nr ^ mask);
      s.exchange(peer, c.bytes, peer, c.bytes, c.bytes);
    }
  }
  if (me < 2 * f.rem) s.send(me - 1, c.bytes);
  return s.take();
}

CollProgram allgather(const CollCall& c, int me) {
  Steps s;
  const int p = c.size;
  if (c.algorithm == RING) {
    for (int k = 0; k < p - 1; ++k)
      s.exchange(mod_add(me, 1, p), c.bytes, mod_add(me, -1, p), c.bytes);
  } else if (c.algorithm == RECURSIVE_DOUBLING && floor_pow2(p) == p) {
    for (int mask = 1; mask < p; mask <<= 1)
      s.exchange(me ^ mask, mask * c.bytes, me ^ mask, mask * c.bytes);
  } else { // BRUCK, and recursive doubling on a count that is not a power of two (MPICH)
    for (int k = 1; k < p; k <<= 1) {
      const std::int64_t blocks = std::min(k, p - k);
      s.exchange(mod_add(me, -k, p), blocks * c.bytes, mod_add(me, k, p), blocks * c.bytes);
    }
  }
  return s.take();
}

CollProgram alltoall(const CollCall& c, int me) {
  Steps s;
  const int p = c.size;
  if (c.algorithm == BRUCK) {
    for (int k = 1; k < p; k <<= 1) {
      std::int64_t blocks = 0;
      for (int j = 0; j < p; ++j)
        blocks += (j & k) != 0 ? 1 : 0;
      s.exchange(mod_add(me, k, p), blocks * c.bytes, mod_add(me, -k, p), blocks * c.bytes);
    }
  } else if (c.algorithm == PAIRWISE) {
    const bool pow2 = floor_pow2(p) == p;
    for (int i = 1; i < p; ++i)
      s.exchange(pow2 ? me ^ i : mod_add(me, i, p), c.bytes, pow2 ? me ^ i : mod_add(me, -i, p), c.bytes);
  } else { // SCATTERED: MPICH posts `throttle` receives and sends at a time
    const int throttle = std::max(1, c.throttle);
    for (int first = 0; first < p; first += throttle) {
      CollStep step;
      for (int i = first; i < std::min(p, first + throttle); ++i) {
        // MPICH: receive from me + i, send to me - i, so that batch k's sends
        // meet batch k's receives.
        if (i % p == 0 || c.bytes == 0) continue;
        step.recvs.push_back({mod_add(me, i, p), c.bytes});
        step.sends.push_back({mod_add(me, -i, p), c.bytes});
      }
      s.add(std::move(step));
    }
  }
  return s.take();
}

// A tree broadcast of `radix` (2: binomial, MPICH's MPIR_Bcast_intra_binomial;
// more: k-nomial, the children of one level sent to together) in relative
// ranks; `sequential`: a send per step (MPICH's blocking sends).
void tree_bcast(int rel, int p, int root, std::int64_t bytes, int radix, bool sequential, Steps& s) {
  const auto real = [&](int r) { return mod_add(r, root, p); };
  int mask = 1;
  while (mask < p) {
    if (rel % (radix * mask) != 0) {
      s.recv(real(rel / (radix * mask) * (radix * mask)), bytes);
      break;
    }
    mask *= radix;
  }
  for (mask /= radix; mask > 0; mask /= radix) {
    CollStep level;
    for (int j = radix - 1; j >= 1; --j) {
      const int child = rel + j * mask;
      if (child >= p || rel % (radix * mask) != 0) continue;
      if (sequential)
        s.send(real(child), bytes);
      else if (bytes > 0)
        level.sends.push_back({real(child), bytes});
    }
    s.add(std::move(level));
  }
}

CollProgram bcast(const CollCall& c, int me) {
  Steps s;
  const int p = c.size;
  const int rel = mod_add(me, -c.root, p);
  const auto real = [&](int r) { return mod_add(r, c.root, p); };
  switch (c.algorithm) {
  case LINEAR:
    if (rel == 0)
      for (int r = 1; r < p; ++r)
        s.send(real(r), c.bytes);
    else
      s.recv(c.root, c.bytes);
    break;
  case KNOMIAL:
    tree_bcast(rel, p, c.root, c.bytes, std::max(2, c.radix), false, s);
    break;
  case BINOMIAL:
    tree_bcast(rel, p, c.root, c.bytes, 2, true, s);
    break;
  default: { // scatter + allgather (van de Geijn; MPICH's MPII_Scatter_for_bcast)
    const std::int64_t ss = (c.bytes + p - 1) / p;
    const auto chunk = [&](int j) { return std::clamp(c.bytes - j * ss, std::int64_t{0}, ss); };
    std::int64_t curr = rel == 0 ? c.bytes : 0;
    int mask = 1;
    for (; mask < p; mask <<= 1)
      if ((rel & mask) != 0) {
        curr = std::clamp(c.bytes - rel * ss, std::int64_t{0}, mask * ss);
        s.recv(real(rel - mask), curr);
        break;
      }
    for (mask >>= 1; mask > 0; mask >>= 1)
      if (rel + mask < p) {
        const std::int64_t out = curr - ss * mask;
        if (out > 0) {
          s.send(real(rel + mask), out);
          curr -= out;
        }
      }
    if (c.algorithm == SCATTER_RECURSIVE_DOUBLING_ALLGATHER && floor_pow2(p) == p) {
      const auto group = [&](int r, int m) {
        std::int64_t b = 0;
        for (int j = r & ~(m - 1); j < (r & ~(m - 1)) + m; ++j)
          b += chunk(j);
        return b;
      };
      for (mask = 1; mask < p; mask <<= 1) {
        const int peer = rel ^ mask;
        s.exchange(real(peer), group(rel, mask), real(peer), group(peer, mask));
      }
    } else { // ring allgather of the chunks (MPICH's long-message broadcast)
      for (int k = 0; k < p - 1; ++k)
        s.exchange(real(mod_add(rel, 1, p)), chunk(mod_add(rel, -k, p)), real(mod_add(rel, -1, p)),
                   chunk(mod_add(rel, -k - 1, p)));
    }
  }
  }
  return s.take();
}

CollProgram reduce(const CollCall& c, int me) {
  Steps s;
  const int p = c.size;
  const int rel = mod_add(me, -c.root, p);
  const auto real = [&](int r) { return mod_add(r, c.root, p); };
  if (c.algorithm == LINEAR) {
    if (rel == 0)
      for (int r = 1; r < p; ++r)
        s.recv(real(r), c.bytes, c.bytes);
    else
      s.send(c.root, c.bytes);
  } else if (c.algorithm == RABENSEIFNER) {
    // In relative ranks: fold (the odd members of the first 2 rem hand their
    // vector to the even one below), reduce-scatter by halving, then a
    // binomial gather of the pieces to member 0, the root (MPICH's
    // MPIR_Reduce_redscat_gather).
    const Fold f(p, true);
    const int nr = f.new_rank(rel);
    if (nr < 0) {
      s.send(real(rel - 1), c.bytes);
      return s.take();
    }
    if (rel < 2 * f.rem) s.recv(real(rel + 1), c.bytes, c.bytes);
    Steps rs;
    // reduce_scatter_halving speaks real ranks of the fold: map them to the root's frame.
    std::vector<Range> h = reduce_scatter_halving(f, nr, c.bytes, rs);
    for (CollStep step : rs.take()) {
      for (CollMsg& m : step.sends)
        m.peer = real(m.peer);
      for (CollMsg& m : step.recvs)
        m.peer = real(m.peer);
      s.add(std::move(step));
    }
    for (int mask = f.p2 / 2, k = static_cast<int>(h.size()) - 2; mask >= 1; mask >>= 1, --k) {
      if (nr >= 2 * mask) continue; // sent its part at an earlier (higher) level
      const int peer = real(f.real_rank(nr ^ mask));
      const Range mine = h[static_cast<std::size_t>(k) + 1];
      const Range whole = h[static_cast<std::size_t>(k)];
      if ((nr & mask) != 0) {
        s.send(peer, range_bytes(c.bytes, f.p2, mine));
        break;
      }
      const Range theirs =
          mine.first == whole.first ? Range{mine.second, whole.second} : Range{whole.first, mine.first};
      s.recv(peer, range_bytes(c.bytes, f.p2, theirs));
    }
  } else { // BINOMIAL (MPICH's MPIR_Reduce_intra_binomial, commutative)
    for (int mask = 1; mask < p; mask <<= 1) {
      if ((rel & mask) == 0) {
        if ((rel | mask) < p) s.recv(real(rel | mask), c.bytes, c.bytes);
      } else {
        s.send(real(rel & ~mask), c.bytes);
        break;
      }
    }
  }
  return s.take();
}

CollProgram gather_scatter(const CollCall& c, int me, bool gather) {
  Steps s;
  const int p = c.size;
  const int rel = mod_add(me, -c.root, p);
  const auto real = [&](int r) { return mod_add(r, c.root, p); };
  if (c.algorithm == LINEAR) {
    for (int r = 1; r < p; ++r)
      if (rel == 0) gather ? s.recv(real(r), c.bytes) : s.send(real(r), c.bytes);
    if (rel != 0) gather ? s.send(c.root, c.bytes) : s.recv(c.root, c.bytes);
    return s.take();
  }
  // Binomial: member rel holds the blocks of its subtree [rel, rel + lowbit(rel)).
  const auto subtree = [&](int r, int mask) { return std::int64_t{std::min(mask, p - r)} * c.bytes; };
  int mask = 1;
  for (; mask < p; mask <<= 1) {
    if ((rel & mask) != 0) break;
    if ((rel | mask) < p) gather ? s.recv(real(rel | mask), subtree(rel | mask, mask)) : void();
  }
  if (gather) {
    if (rel != 0) s.send(real(rel & ~mask), subtree(rel, mask));
    return s.take();
  }
  if (rel != 0) s.recv(real(rel & ~mask), subtree(rel, mask));
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rel + mask < p) s.send(real(rel + mask), subtree(rel + mask, mask));
  return s.take();
}

CollProgram barrier(const CollCall& c, int me) {
  Steps s(true);
  const int p = c.size;
  if (c.algorithm == RECURSIVE_DOUBLING) {
    const Fold f(p);
    const int nr = f.new_rank(me);
    if (nr < 0) {
      s.send(me + 1, 0);
      s.recv(me + 1, 0);
      return s.take();
    }
    if (me < 2 * f.rem) s.recv(me - 1, 0);
    for (int mask = 1; mask < f.p2; mask <<= 1) {
      const int peer = f.real_rank(nr ^ mask);
      s.exchange(peer, 0, peer, 0);
    }
    if (me < 2 * f.rem) s.send(me - 1, 0);
    return s.take();
  }
  for (int k = 1; k < p; k <<= 1)
    s.exchange(mod_add(me, k, p), 0, mod_add(me, -k, p), 0);
  return s.take();
}

} // namespace

bool implements(CollectiveAlgorithm a, Collective c) {
  switch (c) {
  case ALLREDUCE:
    return a == RECURSIVE_DOUBLING || a == RABENSEIFNER || a == RING;
  case ALLGATHER:
    return a == RECURSIVE_DOUBLING || a == BRUCK || a == RING;
  case ALLTOALL:
    return a == BRUCK || a == PAIRWISE || a == SCATTERED;
  case BCAST:
    return a == BINOMIAL || a == KNOMIAL || a == SCATTER_RECURSIVE_DOUBLING_ALLGATHER ||
           a == SCATTER_RING_ALLGATHER || a == LINEAR;
  case REDUCE:
    return a == BINOMIAL || a == RABENSEIFNER || a == LINEAR;
  case BARRIER:
    return a == DISSEMINATION || a == RECURSIVE_DOUBLING;
  case GATHER:
  case SCATTER:
    return a == BINOMIAL || a == LINEAR;
  default:
    return false;
  }
}

CollProgram collective_program(const CollCall& c, int me) {
  if (c.node_aware) {
    if (c.table == nullptr || c.ppn < 2 || c.size % c.ppn != 0)
      throw std::invalid_argument("node-aware " + collective_name(c.collective) +
                                  ": needs its table and a communicator of several nodes of ppn members");
    return node_aware_program(c, me);
  }
  if (!implements(c.algorithm, c.collective))
    throw std::invalid_argument("collective " + collective_name(c.collective) + " has no algorithm " +
                                algorithm_name(c.algorithm));
  if (c.size < 1 || me < 0 || me >= c.size || c.root < 0 || c.root >= c.size || c.bytes < 0)
    throw std::invalid_argument("collective " + collective_name(c.collective) + ": member " +
                                std::to_string(me) + " or root " + std::to_string(c.root) +
                                " outside a communicator of " + std::to_string(c.size) +
                                ", or negative bytes");
  if (c.size <= 1) return {}; // a communicator of one: nothing to send
  switch (c.collective) {
  case ALLREDUCE:
    return allreduce(c, me);
  case ALLGATHER:
    return allgather(c, me);
  case ALLTOALL:
    return alltoall(c, me);
  case BCAST:
    return bcast(c, me);
  case REDUCE:
    return reduce(c, me);
  case BARRIER:
    return barrier(c, me);
  case GATHER:
    return gather_scatter(c, me, true);
  case SCATTER:
    return gather_scatter(c, me, false);
  default:
    return {};
  }
}

} // namespace hplsim::mpi
