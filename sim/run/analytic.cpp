// Analytic mode: per step k, closed-form phase times from the same kernel
// models the replay uses and a latency-bandwidth (alpha-beta) network:
//   T_pfact = sum_c t_pfact_column(mp, jb, c) + jb * r(P) * (alpha + (2 jb + 4) 8 / beta)
//   T_bcast = h(Q) * (alpha + (mp jb + jb^2 + jb) 8 / beta)
//   T_swap  = binary exchange: log2(P) (alpha + jb nq 8 / beta)
//             spread-roll:     (P - 1 + log2 P) alpha + 2 jb nq 8 / beta
//   T_trsm  = t_trsm(jb, nq),  T_gemm = t_gemm(mp, nq, jb)
//   step    = depth 0: the sum;  depth 1: max(T_trsm + T_gemm, T_pfact + T_bcast, T_swap)
// with mp, nq the largest local trailing sizes, r(P) the pivot exchange rounds
// of HPL_pdmxswp (log2 P, plus 2 when P is not a power of two), h(Q) the
// broadcast hops on the critical path (1 for the modified and long variants,
// Q-1 for 1ring, (Q-1)/2 for 2ring), alpha the end-to-end latency of a
// 3-switch route plus the protocol overheads and beta the NIC bandwidth. This is
// the per-step form of HPL's own scalability model (netlib HPL "tuning" notes:
// T = 2 gamma N^3 / (3PQ) + beta N^2 (3P+Q) / (2PQ) + alpha N ((NB+1) log P + P) / NB).
#include "sim/run/analytic.hpp"

#include <algorithm>
#include <cmath>

#include "models/kernel_model.hpp"
#include "models/protocol_model.hpp"
#include "sim/engine/replay_setup.hpp"
#include "traces/grid.hpp"

namespace hplsim::sim {

namespace {

// Largest number of rows (columns) of [begin, end) one of `procs` process rows
// (columns) holds under the 2-D block-cyclic distribution.
std::int64_t max_local(std::int64_t begin, std::int64_t end, std::int64_t nb, int procs) {
  std::int64_t best = 0;
  for (int p = 0; p < procs; ++p)
    best = std::max(best, traces::local_count(begin, end, nb, p, procs));
  return best;
}

double seconds(const models::KernelModels& km, traces::Kernel kernel, traces::Resource res, std::int64_t m,
               std::int64_t n, std::int64_t k, const models::CpuThreading& threading = {}) {
  if (m <= 0 || n <= 0 || k < 0) return 0.0;
  return km.seconds({kernel, res, traces::FP64, m, n, k}, threading);
}

// Seconds of a recursive panel factorization of an m x n panel (CPU, on the
// rank's panel threads as the replay prices it).
double panel_seconds(const models::KernelModels& km, std::int64_t m, std::int64_t n, int nbmin, int ndiv,
                     const models::CpuThreading& th) {
  if (m <= 0 || n <= 0) return 0.0;
  if (n <= nbmin) {
    double t = 0.0;
    for (std::int64_t c = 0; c < n; ++c)
      t += seconds(km, traces::KERNEL_PFACT_COLUMN, traces::CPU, m - c, n, c, th);
    return t;
  }
  double t = 0.0;
  std::int64_t done = 0;
  const std::int64_t part = std::max<std::int64_t>(1, n / ndiv);
  while (done < n) {
    const std::int64_t w = std::min(part, n - done);
    if (done > 0) {
      t += seconds(km, traces::KERNEL_TRSM, traces::CPU, done, w, 0, th);
      t += seconds(km, traces::KERNEL_GEMM, traces::CPU, m - done, w, done, th);
    }
    t += panel_seconds(km, m - done, w, nbmin, ndiv, th);
    done += w;
  }
  return t;
}

} // namespace

std::vector<StepRecord> analytic_steps(const ResolvedScenario& sc) {
  const auto& w = sc.workload;
  const auto& node = sc.machine.node;
  const models::KernelModels km(sc.machine.kernels);
  const bool gpu = node.gpus_per_node() > 0;
  const auto dev = gpu ? traces::GPU : traces::CPU;
  const double beta = node.nic_bandwidth_bytes_per_s;
  double alpha = 2.0 * node.nic_latency_s;
  // A minimal path between groups: 3 switch-to-switch links and 4 switches
  // (dragonfly: local, global, local; DragonFly+: up to a spine, global,
  // down to the leaf); a fat tree: up and down, 3 switches.
  if (sc.machine.topology.kind == TopologyKind::Dragonfly)
    alpha += 3.0 * sc.machine.topology.dragonfly.link_latency_s +
             4.0 * sc.machine.topology.dragonfly.switch_latency_s;
  else if (sc.machine.topology.kind == TopologyKind::DragonflyPlus)
    alpha += 3.0 * sc.machine.topology.dragonfly_plus.link_latency_s +
             4.0 * sc.machine.topology.dragonfly_plus.switch_latency_s;
  else
    alpha += 2.0 * sc.machine.topology.fat_tree.link_latency_s +
             3.0 * sc.machine.topology.fat_tree.switch_latency_s;
  if (sc.machine.protocol.ByteSizeLong() > 0) {
    const models::ProtocolModel pm(sc.machine.protocol);
    alpha += pm.send_overhead_s(0) + pm.recv_overhead_s(0);
  }
  const models::CpuThreading panel_threading = replay_options(sc).panel_threading;
  const double log_p = w.p > 1 ? std::ceil(std::log2(double(w.p))) : 0.0;
  const bool pow2 = (w.p & (w.p - 1)) == 0;
  const double pivot_rounds = w.p > 1 ? log_p + (pow2 ? 0.0 : 2.0) : 0.0;
  double hops = 1.0;
  if (w.q <= 1)
    hops = 0.0;
  else if (w.hpl.bcast == BcastAlgo::OneRing)
    hops = w.q - 1.0;
  else if (w.hpl.bcast == BcastAlgo::TwoRing)
    hops = std::ceil((w.q - 1.0) / 2.0);

  // GPU-aware MPI: the broadcast and swap buffers are in GPU memory, and the
  // device path adds its per-message overhead and rate cap (machine.placement).
  const auto& placement = sc.machine.placement;
  const double cap = gpu ? placement.device_rate_cap_bytes_per_s() : 0.0;
  const double alpha_dev = alpha + (gpu ? placement.device_overhead_s() : 0.0);
  const double beta_dev = cap > 0.0 ? std::min(beta, cap) : beta;
  const std::int64_t steps = w.steps();
  std::vector<StepRecord> out;
  out.reserve(static_cast<std::size_t>(steps) + 1);
  double clock = 0.0;
  for (std::int64_t k = 0; k < steps; ++k) {
    const std::int64_t col0 = k * w.nb;
    const std::int64_t jb = std::min(w.nb, w.n - col0);
    const std::int64_t m = w.n - col0; // rows of the active matrix
    const std::int64_t mp = max_local(col0, w.n, w.nb, w.p);
    const std::int64_t nq = max_local(col0 + jb, w.n + 1, w.nb, w.q);
    StepRecord r;
    r.step = k;
    r.matrix_fraction = double(col0) / double(w.n);
    // Recursive panel factorization as HPL_pdrpanllN/HPL_pdpanllN do it:
    // NDIV parts per level down to NBMIN-wide leaves factored column by
    // column, the parts joined by a CPU TRSM and GEMM (traces/hpl_pfact.cpp).
    double pfact = panel_seconds(km, mp, jb, w.hpl.nbmin, w.hpl.ndiv, panel_threading);
    pfact += double(jb) * pivot_rounds * (alpha + (2.0 * jb + 4.0) * 8.0 / beta);
    if (gpu) pfact += 2.0 * double(mp * jb) * 8.0 / node.pcie_bandwidth_bytes_per_s;
    // HPL_pdpanel_init: L2 (rows below the diagonal block) x jb, the jb x jb L1
    // block, the pivots and one DINFO word; with P = 1 the L1 rows are part of L2.
    const double panel_doubles = double(mp * jb + (w.p > 1 ? jb * jb : 0) + jb + 1);
    double bcast = hops * (alpha_dev + panel_doubles * 8.0 / beta_dev);
    // Host-staged GPU run: the receiver copies the panel to its GPU.
    if (gpu && !sc.machine.placement.gpu_aware_mpi && hops > 0)
      bcast += panel_doubles * 8.0 / node.pcie_bandwidth_bytes_per_s;
    const double u_bytes = double(jb * nq) * 8.0;
    double swap = 0.0;
    if (w.p > 1) {
      const bool long_swap = w.hpl.swap == SwapAlgo::SpreadRoll ||
                             (w.hpl.swap == SwapAlgo::Mix && nq > w.hpl.swap_threshold_columns);
      swap = long_swap ? (w.p - 1.0 + log_p) * alpha_dev + 2.0 * u_bytes / beta_dev
                       : log_p * (alpha_dev + u_bytes / beta_dev);
    }
    swap += seconds(km, traces::KERNEL_LASWP, dev, jb, nq, 0);
    const double trsm = seconds(km, traces::KERNEL_TRSM, dev, jb, nq, 0);
    const std::int64_t update_rows = max_local(col0 + jb, w.n, w.nb, w.p);
    const double gemm = seconds(km, traces::KERNEL_GEMM, dev, update_rows, nq, jb);
    const double step_s =
        w.depth == 0 ? pfact + bcast + swap + trsm + gemm : std::max({trsm + gemm, pfact + bcast, swap});
    // The timer rule (docs/replay.md, "The timer rule") moves a receiver's wait
    // for the panel from BCAST to SWAP; the root's send of one hop stays BCAST.
    // It changes the columns, not step_s.
    double bcast_column = bcast, swap_column = swap;
    if (resolved_timer_rule(sc) == TimerRule::AsyncBcast && hops > 0) {
      bcast_column = alpha_dev + panel_doubles * 8.0 / beta_dev;
      swap_column = swap + bcast;
    }
    r.phase_s = {pfact, bcast_column, swap_column, trsm, gemm, 0.0};
    // The closed form prices one rank of each role: every rank broadcasts,
    // swaps and updates; one process column in Q factors the panel.
    r.mean_phase_s = {pfact / w.q, bcast_column, swap_column, trsm, gemm, 0.0};
    r.start_s = clock;
    clock += step_s;
    r.end_s = clock;
    const double md = double(m), jd = double(jb);
    // LU flops of the step: panel + trailing update of an m x (m - jb) matrix.
    r.flops = md * jd * jd - jd * jd * jd / 3.0 + 2.0 * (md - jd) * (md - jd) * jd;
    r.how = "analytic";
    out.push_back(r);
  }
  // Back substitution (HPL_pdtrsv): one block column at a time along the diagonal.
  StepRecord solve;
  solve.step = steps;
  solve.final_solve = true;
  solve.matrix_fraction = 1.0;
  double solve_s = 0.0;
  for (std::int64_t k = 0; k < steps; ++k) {
    const std::int64_t jb = std::min(w.nb, w.n - k * w.nb);
    solve_s +=
        seconds(km, traces::KERNEL_TRSV, traces::CPU, jb, 1, 0) + 2.0 * (alpha + double(jb) * 8.0 / beta);
  }
  solve.phase_s[static_cast<std::size_t>(PhaseId::Solve)] = solve_s;
  solve.mean_phase_s = solve.phase_s;
  solve.start_s = clock;
  solve.end_s = clock + solve_s;
  solve.flops = 1.5 * double(w.n) * double(w.n);
  solve.how = "analytic";
  out.push_back(solve);
  return out;
}

} // namespace hplsim::sim
