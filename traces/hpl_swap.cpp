#include "traces/hpl_swap.hpp"

#include <algorithm>
#include <bit>
#include <numeric>

namespace hplsim::traces {

std::vector<std::int64_t> expected_pivot_rows(std::int64_t row_begin, std::int64_t n, std::int64_t nb,
                                              std::int64_t jb, int p, int icurrow) {
  std::vector<std::int64_t> count(static_cast<std::size_t>(p), 0);
  const std::int64_t active = n - row_begin;
  if (active <= 0 || jb <= 0) return count;
  // Exact integer shares jb * rows_r / active (jb * rows_r < 2^31 * 2^31 fits int64).
  std::vector<std::int64_t> remainder(static_cast<std::size_t>(p), 0);
  std::int64_t assigned = 0;
  for (int r = 0; r < p; ++r) {
    const std::int64_t share = jb * local_count(row_begin, n, nb, r, p);
    count[static_cast<std::size_t>(r)] = share / active;
    remainder[static_cast<std::size_t>(r)] = share % active;
    assigned += share / active;
  }
  std::vector<int> order(static_cast<std::size_t>(p));
  for (int d = 0; d < p; ++d)
    order[static_cast<std::size_t>(d)] = mod_add(icurrow, d, p);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return remainder[static_cast<std::size_t>(a)] > remainder[static_cast<std::size_t>(b)];
  });
  for (std::int64_t i = 0; i < jb - assigned; ++i)
    ++count[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])];
  return count;
}

SwapLayout make_swap_layout(std::int64_t row_begin, std::int64_t n, std::int64_t nb, std::int64_t jb, int p,
                            int icurrow) {
  SwapLayout s;
  s.p = p;
  s.icurrow = icurrow;
  s.jb = jb;
  s.pivots = expected_pivot_rows(row_begin, n, nb, jb, p, icurrow);
  // HPL_logsort: positions are distances from the panel's process row; a
  // position whose binary distance has fewer one bits sits nearer the root of
  // the spread tree and is given a longer segment (pairwise exchanges, lowest
  // popcount first), the panel's own row staying at position 0.
  const auto pu = static_cast<std::size_t>(p);
  std::vector<std::int64_t> len(pu);
  s.ipmap.resize(pu);
  int max_pop = 0;
  for (int pos = 0; pos < p; ++pos) {
    s.ipmap[static_cast<std::size_t>(pos)] = mod_add(icurrow, pos, p);
    len[static_cast<std::size_t>(pos)] =
        s.pivots[static_cast<std::size_t>(s.ipmap[static_cast<std::size_t>(pos)])];
    max_pop = std::max(max_pop, std::popcount(static_cast<unsigned>(pos)));
  }
  for (int k = 1; k <= max_pop; ++k)
    for (int j = 1; j < p; ++j) {
      if (std::popcount(static_cast<unsigned>(j)) != k) continue;
      for (int i = 2; i < p; ++i) {
        if (k >= std::popcount(static_cast<unsigned>(i))) continue;
        const auto ju = static_cast<std::size_t>(j), iu = static_cast<std::size_t>(i);
        if (len[ju] < len[iu]) {
          std::swap(len[ju], len[iu]);
          std::swap(s.ipmap[ju], s.ipmap[iu]);
        }
      }
    }
  s.ipmapm1.resize(pu);
  s.segment_begin.assign(pu + 1, 0);
  for (int pos = 0; pos < p; ++pos) {
    s.ipmapm1[static_cast<std::size_t>(s.ipmap[static_cast<std::size_t>(pos)])] = pos;
    s.segment_begin[static_cast<std::size_t>(pos) + 1] =
        s.segment_begin[static_cast<std::size_t>(pos)] + len[static_cast<std::size_t>(pos)];
  }
  return s;
}

SwapAlgorithm choose_swap(HplConfig::Swap swap, std::int64_t ncols, int threshold) {
  switch (swap) {
  case HplConfig::Swap::BinaryExchange:
    return SwapAlgorithm::BinaryExchange;
  case HplConfig::Swap::SpreadRoll:
    return SwapAlgorithm::SpreadRoll;
  case HplConfig::Swap::Mix:
    return ncols > threshold ? SwapAlgorithm::SpreadRoll : SwapAlgorithm::BinaryExchange;
  }
  return SwapAlgorithm::BinaryExchange;
}

void binary_exchange_pattern(const SwapLayout& s, int myrow, std::int64_t ncols, Pattern& out) {
  const int p = s.p;
  if (p <= 1 || ncols <= 0 || s.jb <= 0) return;
  const int d = mod_sub(myrow, s.icurrow, p);
  const int ip2 = floor_pow2(p);
  const int extra = p - ip2; // process rows beyond the largest power of two
  const auto member = [&](int distance) { return mod_add(s.icurrow, distance, p); };
  const std::int64_t u_bytes = doubles(s.jb * ncols);
  const auto w_bytes = [&](std::int64_t rows) { return doubles(rows * (ncols + 1)); };
  // Rows each distance contributes (the panel's own row keeps its rows in U).
  std::vector<std::int64_t> rows(static_cast<std::size_t>(p));
  for (int x = 0; x < p; ++x)
    rows[static_cast<std::size_t>(x)] = x == 0 ? 0 : s.pivots[static_cast<std::size_t>(member(x))];

  // 1. Fold-in: distance ip2 + i sends its rows to distance i; distance ip2
  //    also receives the panel row's U from distance 0 (one HPL_sdrv).
  const bool folded = extra > 0 && (d ^ ip2) < p;
  if (folded) {
    const int partner = d ^ ip2;
    if (d >= ip2)
      add_send_recv(out, member(partner), w_bytes(rows[static_cast<std::size_t>(d)]), d == ip2 ? u_bytes : 0);
    else
      add_send_recv(out, member(partner), d == 0 ? u_bytes : 0,
                    w_bytes(rows[static_cast<std::size_t>(partner)]));
  }
  for (int x = 1; x < extra; ++x)
    rows[static_cast<std::size_t>(x)] += rows[static_cast<std::size_t>(x + ip2)];

  if (d < ip2) {
    // 2. Recursive halving over the power-of-two part: at level k the pairs
    //    (x, x ^ 2^k) exchange the rows gathered in their aligned blocks of 2^k;
    //    the half that holds U (distances < 2^k) sends U instead.
    std::vector<std::int64_t> prefix(static_cast<std::size_t>(ip2) + 1, 0);
    for (int x = 0; x < ip2; ++x)
      prefix[static_cast<std::size_t>(x) + 1] =
          prefix[static_cast<std::size_t>(x)] + rows[static_cast<std::size_t>(x)];
    const auto block_rows = [&](int x, int size) {
      const int lo = x & ~(size - 1);
      return prefix[static_cast<std::size_t>(lo + size)] - prefix[static_cast<std::size_t>(lo)];
    };
    for (int bit = 1; bit < ip2; bit <<= 1) {
      const int partner = d ^ bit;
      if ((d >> 1) < bit) { // both in [0, 2 * bit): U moves to the upper half
        if (d < bit)
          add_send_recv(out, member(partner), u_bytes, w_bytes(block_rows(partner, bit)));
        else
          add_send_recv(out, member(partner), w_bytes(block_rows(d, bit)), u_bytes);
      } else {
        add_send_recv(out, member(partner), w_bytes(block_rows(d, bit)), w_bytes(block_rows(partner, bit)));
      }
    }
  } else if (extra > 1) {
    // 3. The folded rows pass the panel row's U among themselves (binomial tree
    //    rooted at distance ip2); they need it to put their pivot rows' places.
    binomial_bcast(d - ip2, extra, u_bytes, member(ip2), p, out);
  }
  // 4. Fold-out: distance i sends the complete U to distance ip2 + i.
  if (folded) {
    if (d >= ip2)
      add_recv(out, member(d ^ ip2), u_bytes);
    else
      add_send(out, member(d ^ ip2), u_bytes);
  }
}

void spread_roll_pattern(const SwapLayout& s, int myrow, std::int64_t ncols, Pattern& spread, Pattern& roll) {
  const int p = s.p;
  if (p <= 1 || ncols <= 0 || s.jb <= 0) return;
  const int pos = s.ipmapm1[static_cast<std::size_t>(myrow)];
  const auto row_bytes = [&](std::int64_t rows) { return doubles(rows * ncols); };
  const auto seg = [&](int begin, int end) {
    return s.segment_begin[static_cast<std::size_t>(std::min(end, p))] -
           s.segment_begin[static_cast<std::size_t>(begin)];
  };
  // HPL_spreadT (right, from position 0): binomial scatter; the receiver of the
  // subtree of positions [x, x + bit) gets their segments. Empty parts are not sent.
  for (int bit = floor_pow2(p - 1); bit > 0; bit >>= 1) {
    if ((pos & (bit - 1)) != 0) continue;
    const int partner = pos ^ bit;
    const int subtree = (pos & bit) != 0 ? pos : partner;
    if (subtree >= p) continue;
    const std::int64_t rows = seg(subtree, subtree + bit);
    if (rows <= 0) continue;
    if ((pos & bit) != 0)
      add_recv(spread, s.ipmap[static_cast<std::size_t>(partner)], row_bytes(rows));
    else
      add_send(spread, s.ipmap[static_cast<std::size_t>(partner)], row_bytes(rows));
  }
  // HPL_rollT: P - 1 steps, alternating left/right neighbours in position order;
  // at step k a position passes on the segment it got l = k/2 steps ago.
  const int prev = s.ipmap[static_cast<std::size_t>(mod_sub(pos, 1, p))];
  const int next = s.ipmap[static_cast<std::size_t>(mod_add(pos, 1, p))];
  for (int k = 0; k < p - 1; ++k) {
    const int l = k >> 1;
    int send_pos, recv_pos, partner;
    if (((pos + k) & 1) != 0) {
      send_pos = (pos + l) % p;
      recv_pos = mod_sub(pos, (l + 1) % p, p);
      partner = prev;
    } else {
      send_pos = mod_sub(pos, l % p, p);
      recv_pos = (pos + l + 1) % p;
      partner = next;
    }
    // One entry per step, empty ones included (they emit nothing), so that
    // entry k is step k (fast mode's grouped roll cuts the roll by step).
    roll.push_back({PeerMsg::Kind::SendRecv, partner, row_bytes(s.segment_rows(send_pos)),
                    row_bytes(s.segment_rows(recv_pos))});
  }
}

} // namespace hplsim::traces
