#include "traces/hpl_step.hpp"

#include <algorithm>
#include <array>

#include "traces/hpl_bcast.hpp"
#include "traces/hpl_pfact.hpp"
#include "traces/hpl_pfact_device.hpp"

namespace hplsim::traces {

HplPanel make_hpl_panel(const HplConfig& c, std::int64_t k) {
  HplPanel pn;
  const std::int64_t steps = (c.n + c.nb - 1) / c.nb;
  if (k < 0 || k >= steps) return pn;
  pn.exists = true;
  pn.index = k;
  pn.j = k * c.nb;
  pn.jb = std::min(c.nb, c.n - pn.j);
  pn.prow = static_cast<int>(k % c.p);
  pn.pcol = static_cast<int>(k % c.q);
  if (c.p > 1) pn.swap = make_swap_layout(pn.j, c.n, c.nb, pn.jb, c.p, pn.prow);
  return pn;
}

HplStepEmitter::HplStepEmitter(const HplConfig& config, const ProcessGrid& grid, const HplPanel& current,
                               const HplPanel& next)
    : c_(config), grid_(grid), cur_(current), next_(next), update_resource_(config.gpu ? GPU : CPU) {}

std::int64_t HplStepEmitter::trailing_cols(const HplPanel& pn, int col) const {
  return local_count(pn.j + pn.jb, c_.n + 1, c_.nb, col, c_.q);
}

std::int64_t HplStepEmitter::rows_below(const HplPanel& pn, int row) const {
  return local_count(pn.j + pn.jb, c_.n, c_.nb, row, c_.p);
}

void HplStepEmitter::emit(ProgramBuilder& b, int row, int col) const {
  if (!c_.gpu)
    emit_cpu(b, row, col);
  else if (c_.depth == 0)
    emit_gpu_depth0(b, row, col);
  else
    emit_gpu_depth1(b, row, col);
}

void HplStepEmitter::factor(ProgramBuilder& b, const HplPanel& pn, int row) const {
  const PanelGeometry g{c_.n, c_.nb, pn.j, pn.jb, c_.p, pn.prow, pn.pcol};
  // The panel piece the code names: on the CPU cores or on the GPU.
  if (c_.device_panel())
    emit_panel_factorization_device(b, Communicator::column(grid_, pn.pcol), row, g, c_);
  else
    emit_panel_factorization(b, Communicator::column(grid_, pn.pcol), row, g, c_);
}

void HplStepEmitter::bcast_pattern_of(const HplPanel& pn, int row, int col, Pattern& out) const {
  if (c_.q <= 1) return; // HPL_bcast returns at once for npcol <= 1
  const std::int64_t len = panel_length_doubles(rows_below(pn, row), pn.jb);
  bcast_pattern(c_.bcast, col, pn.pcol, c_.q, len, out);
}

std::uint32_t HplStepEmitter::broadcast(ProgramBuilder& b, const HplPanel& pn, int row, int col,
                                        bool async_h2d) const {
  Pattern pattern;
  bcast_pattern_of(pn, row, col, pattern);
  const int first = b.size();
  emit_pattern(b, Communicator::row(grid_, row), pattern, BCAST);
  if (device_messages()) b.mark_device_buffers(first); // the panel leaves from and lands in HBM
  charge_panel_wait(b, first);
  if (!c_.host_staged || col == pn.pcol || c_.q <= 1) return 0;
  // The panel arrived in host memory; the GPU's DTRSM/DGEMM need it on the device.
  const std::int64_t bytes = doubles(panel_length_doubles(rows_below(pn, row), pn.jb));
  if (async_h2d) return b.copy_async(Copy::H2D, bytes, COPY);
  b.copy(Copy::H2D, bytes, COPY);
  return 0;
}

void HplStepEmitter::charge_panel_wait(ProgramBuilder& b, int first) const {
  // The timer rule (HplConfig::TimerRule): under the asynchronous-broadcast
  // hypothesis the first call that blocks on the panel is the row swap of its
  // rows. On the GPU that swap comes once the update in flight is done (the
  // next panel's U2 rows are packed after this panel's U2 GEMM: emit_gpu_depth1),
  // so only the panel's lateness beyond the rank's GEMM is SWAP's; on the CPU
  // the update is the rank's own work, and the wait comes after it.
  if (c_.panel_wait_in_swap()) b.charge_receives_to(first, SWAP, c_.gpu);
}

void HplStepEmitter::swap_exchange(ProgramBuilder& b, const HplPanel& pn, int row, int col,
                                   std::int64_t ncols) const {
  if (c_.p <= 1 || ncols <= 0) return;
  const SwapLayout& s = pn.swap;
  const bool current = row == pn.prow;
  const std::int64_t own = s.pivots[static_cast<std::size_t>(row)];
  const std::int64_t rows_out = current ? pn.jb : own; // rows this process row puts into U
  const Resource res = update_resource_;
  const bool staged = c_.host_staged;
  const Communicator column = Communicator::column(grid_, col);
  const int first_op = b.size();
  Pattern first, roll;
  if (choose_swap(c_.swap, ncols, c_.swap_threshold) == SwapAlgorithm::BinaryExchange) {
    // HPL_pdlaswp00T: the current row copies its rows into U (HPL_dlaswp01T), the
    // others pack their pivot rows into W (HPL_dlaswp02N).
    b.compute(KERNEL_LASWP, res, rows_out, ncols, 0, SWAP);
    if (staged) b.copy(Copy::D2H, doubles(rows_out * ncols), SWAP);
    binary_exchange_pattern(s, row, ncols, first);
    emit_pattern(b, column, first, SWAP);
  } else {
    // HPL_pdlaswp01T: the current row packs U; after the spread the others swap
    // the received rows with their pivot rows (HPL_dlaswp06T), then the roll.
    if (current) b.compute(KERNEL_LASWP, res, pn.jb, ncols, 0, SWAP);
    if (staged) b.copy(Copy::D2H, doubles(rows_out * ncols), SWAP);
    spread_roll_pattern(s, row, ncols, first, roll);
    emit_pattern(b, column, first, SWAP);
    if (!current) b.compute(KERNEL_LASWP, staged ? CPU : res, own, ncols, 0, SWAP);
    // The collective prices HPL_rollT's exchanges between ring neighbours
    // (sim/engine/swap_roll.hpp), from host or device buffers.
    if (c_.roll_collective && !c_.messages_for_column(col)) {
      SwapRoll shape;
      shape.set_n(c_.n);
      shape.set_nb(c_.nb);
      shape.set_row_begin(pn.j);
      shape.set_ncols(ncols);
      if (device_messages()) shape.set_device(true);
      b.roll(column, pn.prow, pn.jb, shape, SWAP);
    } else if (c_.swap_roll_group > 1)
      emit_grouped_roll(b, column, roll, c_.swap_roll_group);
    else
      emit_pattern(b, column, roll, SWAP);
  }
  // Host staging: U and, off the current row, the rows that replace the pivot rows go back.
  if (staged) b.copy(Copy::H2D, doubles((pn.jb + (current ? 0 : own)) * ncols), SWAP);
  if (device_messages()) b.mark_device_buffers(first_op); // the rows travel from and to HBM
}

void HplStepEmitter::emit_grouped_roll(ProgramBuilder& b, const Communicator& column, const Pattern& roll,
                                       int group) {
  // HPL_rollT's steps alternate between the two ring neighbours. A group of
  // consecutive steps moves both neighbours' bytes at once (receives posted,
  // sends started, then all waited) and each receive charges the latencies of
  // the group's other steps: on idle links a group takes (steps) latencies +
  // its bytes over the rank's NIC, as step by step. Ranks still wait for each
  // other at every group's end, as they do at every step of the roll.
  struct Neighbour {
    int peer = -1;
    std::int64_t send_bytes = 0, recv_bytes = 0;
  };
  for (std::size_t g0 = 0; g0 < roll.size(); g0 += static_cast<std::size_t>(group)) {
    const std::size_t g1 = std::min(roll.size(), g0 + static_cast<std::size_t>(group));
    std::array<Neighbour, 2> n{};
    int count = 0;
    for (std::size_t k = g0; k < g1; ++k) {
      const PeerMsg& m = roll[k];
      int i = 0;
      while (i < count && n[static_cast<std::size_t>(i)].peer != m.peer)
        ++i;
      if (i == count) n[static_cast<std::size_t>(count++)].peer = m.peer;
      n[static_cast<std::size_t>(i)].send_bytes += m.send_bytes;
      n[static_cast<std::size_t>(i)].recv_bytes += m.recv_bytes;
    }
    std::array<std::uint32_t, 4> tags{};
    const int first = b.size();
    for (int i = 0; i < count; ++i) {
      const Neighbour& x = n[static_cast<std::size_t>(i)];
      if (x.recv_bytes > 0)
        tags[static_cast<std::size_t>(i)] = b.recv_async(column.rank_of(x.peer), x.recv_bytes, SWAP);
    }
    if (g1 - g0 > 1) b.mark_receives_repeated(first, static_cast<std::uint32_t>(g1 - g0));
    for (int i = 0; i < count; ++i) {
      const Neighbour& x = n[static_cast<std::size_t>(i)];
      if (x.send_bytes > 0)
        tags[static_cast<std::size_t>(2 + i)] = b.send_async(column.rank_of(x.peer), x.send_bytes, SWAP);
    }
    for (const std::uint32_t tag : tags)
      b.wait(tag);
  }
}

void HplStepEmitter::swap_unpack(ProgramBuilder& b, const HplPanel& pn, std::int64_t ncols) const {
  // P > 1: HPL_dlaswp0{3,4,5}T / HPL_dlaswp10N put U's rows in place; P = 1:
  // HPL_pdupdateTT applies the jb interchanges locally (HPL_dlaswp00N).
  b.compute(KERNEL_LASWP, update_resource_, pn.jb, ncols, 0, SWAP);
}

std::uint32_t HplStepEmitter::update_cpu(ProgramBuilder& b, const HplPanel& pn, int row, int col,
                                         std::int64_t ncols, bool async_gemm) const {
  if (ncols <= 0) return 0;
  swap_exchange(b, pn, row, col, ncols);
  swap_unpack(b, pn, ncols);
  // HPL_pdupdateTT: U := U L1^-T (jb^2 ncols flops), A := A - L2 U^T.
  b.compute(KERNEL_TRSM, CPU, pn.jb, ncols, 0, TRSM);
  const std::int64_t m = rows_below(pn, row);
  if (async_gemm) return b.compute_async(KERNEL_GEMM, CPU, m, ncols, pn.jb, GEMM);
  b.compute(KERNEL_GEMM, CPU, m, ncols, pn.jb, GEMM);
  return 0;
}

std::uint32_t HplStepEmitter::update_gpu(ProgramBuilder& b, const HplPanel& pn, int row, std::int64_t ncols,
                                         bool async_gemm) const {
  if (ncols <= 0) return 0;
  swap_unpack(b, pn, ncols);
  b.compute(KERNEL_TRSM, GPU, pn.jb, ncols, 0, TRSM);
  const std::int64_t m = rows_below(pn, row);
  if (async_gemm) return b.compute_async(KERNEL_GEMM, GPU, m, ncols, pn.jb, GEMM);
  b.compute(KERNEL_GEMM, GPU, m, ncols, pn.jb, GEMM);
  return 0;
}

void HplStepEmitter::emit_cpu(ProgramBuilder& b, int row, int col) const {
  const bool look_ahead = c_.depth == 1 && c_.q > 1; // HPL_pdgesv: Q = 1 runs HPL_pdgesv0
  if (!look_ahead) {
    // HPL_pdgesv0: factor, broadcast (HPL_binit/HPL_bcast loop/HPL_bwait), update.
    if (col == cur_.pcol) factor(b, cur_, row);
    broadcast(b, cur_, row, col, false);
    update_cpu(b, cur_, row, col, trailing_cols(cur_, col), false);
    return;
  }
  // HPL_pdgesvK2 with depth 1.
  if (cur_.index == 0) {
    if (col == cur_.pcol) factor(b, cur_, row);
    broadcast(b, cur_, row, col, false);
  }
  if (!next_.exists) { // after the loop: the last update (the right-hand side column)
    update_cpu(b, cur_, row, col, trailing_cols(cur_, col), false);
    return;
  }
  // The next panel's owner updates its jb columns first, then factors them.
  const std::int64_t look_ahead_cols = col == next_.pcol ? next_.jb : 0;
  if (look_ahead_cols > 0) {
    update_cpu(b, cur_, row, col, look_ahead_cols, false);
    factor(b, next_, row);
  }
  const std::int64_t rest = trailing_cols(cur_, col) - look_ahead_cols;
  Pattern pattern;
  bcast_pattern_of(next_, row, col, pattern);
  const Communicator row_comm = Communicator::row(grid_, row);
  // Ring broadcasts progress only when the rank probes for them (HPL_bcast in
  // HPL_pdupdateTT: on entry, inside the row swap, between its DGEMM chunks):
  // a non-root member receives and forwards the panel at the first probe that
  // finds it posted (PolledUpdate). The root sends at its first probe, before
  // the swap, blocking until its successor takes the panel; the blong variants
  // complete there too.
  const bool polled = bcast_is_probed(c_.bcast) && !pattern.empty() &&
                      pattern.front().kind == PeerMsg::Kind::Recv && rest > 0;
  if (!polled) {
    const int first = b.size();
    emit_pattern(b, row_comm, pattern, BCAST);
    charge_panel_wait(b, first);
    update_cpu(b, cur_, row, col, rest, false);
    return;
  }
  PolledUpdate* u = b.polled_update();
  const int prev = row_comm.rank_of(pattern.front().peer);
  u->set_peer(prev);
  ProgramBuilder arrival = b.nested(u->mutable_arrival());
  arrival.recv(prev, pattern.front().recv_bytes, BCAST);
  pattern.erase(pattern.begin());
  emit_pattern(arrival, row_comm, pattern, BCAST);
  charge_panel_wait(arrival, 0);
  b.adopt_tags(arrival);
  ProgramBuilder swap = b.nested(u->mutable_swap());
  swap_exchange(swap, cur_, row, col, rest);
  swap_unpack(swap, cur_, rest);
  b.adopt_tags(swap);
  u->set_m(rows_below(cur_, row));
  u->set_n(rest);
  u->set_jb(cur_.jb);
  u->set_chunk(c_.nb); // HPL_pdupdateTT: nn = min(nb, n - nq0)
}

void HplStepEmitter::factor_staged(ProgramBuilder& b, const HplPanel& pn, int row) const {
  if (c_.device_panel()) return factor(b, pn, row); // the panel stays in GPU memory
  const std::int64_t mp = local_count(pn.j, c_.n, c_.nb, row, c_.p);
  b.copy(Copy::D2H, doubles(mp * pn.jb), COPY);
  factor(b, pn, row);
  b.copy(Copy::H2D, doubles((mp + pn.jb) * pn.jb), COPY);
}

void HplStepEmitter::emit_gpu_depth0(ProgramBuilder& b, int row, int col) const {
  if (col == cur_.pcol) factor_staged(b, cur_, row);
  broadcast(b, cur_, row, col, false);
  const std::int64_t ncols = trailing_cols(cur_, col);
  swap_exchange(b, cur_, row, col, ncols);
  update_gpu(b, cur_, row, ncols, false);
}

HplStepEmitter::Sections HplStepEmitter::gpu_sections(const HplPanel& pn, int col) const {
  Sections s;
  const std::int64_t nq = trailing_cols(pn, col);
  const std::int64_t j1 = pn.j + pn.jb;
  if (j1 < c_.n)
    s.look_ahead = std::min(nq, local_count(j1, j1 + std::min(c_.nb, c_.n - j1), c_.nb, col, c_.q));
  // rocHPL e8378a9 HPL_pdpanel_init: NSplit = floor(nq(A) * frac / nb) * nb of the
  // whole local matrix; U2 takes up to NSplit columns, U1 the rest.
  const std::int64_t local_all = numroc(c_.n + 1, c_.nb, col, c_.q);
  const auto nsplit =
      static_cast<std::int64_t>(static_cast<double>(local_all) * c_.gpu_split_fraction) / c_.nb * c_.nb;
  s.u2 = std::min(nq - s.look_ahead, nsplit);
  s.u1 = nq - s.look_ahead - s.u2;
  return s;
}

void HplStepEmitter::emit_gpu_depth1(ProgramBuilder& b, int row, int col) const {
  const Sections s = gpu_sections(cur_, col);
  if (cur_.index == 0) {
    // Before the loop: factor and broadcast panel 0, exchange its U2 and look-ahead rows.
    if (col == cur_.pcol) factor_staged(b, cur_, row);
    broadcast(b, cur_, row, col, false);
    swap_exchange(b, cur_, row, col, s.u2);
    swap_exchange(b, cur_, row, col, s.look_ahead);
  }
  // Look-ahead section (its rows were exchanged in the previous step), then the
  // next panel goes to the host once it is up to date.
  update_gpu(b, cur_, row, s.look_ahead, false);
  const bool factors_next = next_.exists && col == next_.pcol;
  const PanelPlace place = c_.device_panel() ? c_.panel_place() : PanelPlace::Cpu;
  // rocHPL 7: the panel kernels are queued on the compute stream between the
  // look-ahead update and U2: the GPU factors the panel, then updates.
  if (factors_next && place == PanelPlace::GpuSerial) factor(b, next_, row);
  const std::int64_t mp_next = next_.exists ? local_count(next_.j, c_.n, c_.nb, row, c_.p) : 0;
  const bool staged_next = factors_next && place == PanelPlace::Cpu;
  const std::uint32_t d2h = staged_next ? b.copy_async(Copy::D2H, doubles(mp_next * next_.jb), COPY) : 0;
  // U2 on the GPU while the CPU factors (a CPU panel) or the GPU's other SMs
  // factor (GpuBeside) the next panel, it is broadcast and U1's rows exchanged.
  std::uint32_t gemm_u2 = update_gpu(b, cur_, row, s.u2, true);
  if (staged_next) {
    b.wait(d2h);
    factor(b, next_, row);
    b.copy(Copy::H2D, doubles((mp_next + next_.jb) * next_.jb), COPY);
  }
  if (factors_next && place == PanelPlace::GpuBeside) factor(b, next_, row);
  const std::uint32_t panel_h2d = next_.exists ? broadcast(b, next_, row, col, true) : 0;
  swap_exchange(b, cur_, row, col, s.u1);
  std::uint32_t gemm_u1 = update_gpu(b, cur_, row, s.u1, true);
  if (next_.exists) {
    // The next panel's U2 rows are packed once this panel's U2 update is done and
    // exchanged while U1 is updated; its look-ahead rows need U1 done as well.
    const Sections s1 = gpu_sections(next_, col);
    b.wait(gemm_u2);
    gemm_u2 = 0;
    swap_exchange(b, next_, row, col, s1.u2);
    if (s1.look_ahead > 0) {
      b.wait(gemm_u1);
      gemm_u1 = 0;
      swap_exchange(b, next_, row, col, s1.look_ahead);
    }
  }
  b.wait(gemm_u1);
  b.wait(gemm_u2);
  b.wait(panel_h2d);
}

} // namespace hplsim::traces
