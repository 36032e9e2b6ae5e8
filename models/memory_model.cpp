#include "models/memory_model.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

namespace hplsim::models {

namespace {

[[noreturn]] void bad(const std::string& field, const std::string& expected, const std::string& got) {
  throw std::invalid_argument("memory_footprint: " + field + ": expected " + expected + ", got " + got);
}

std::int64_t mul(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r))
    throw std::overflow_error("memory_footprint: byte count exceeds 64 bits");
  return r;
}

std::int64_t add(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r))
    throw std::overflow_error("memory_footprint: byte count exceeds 64 bits");
  return r;
}

// rocHPL-MxP's pitch of a column of `rows` elements of `bytes` each, in bytes
// (hplmxp_pmatgen.cpp A.ld, hplmxp_panel_new.cpp P.ldl / P.ldu): rounded to a
// 1 KiB multiple after removing 256 B, then 256 B added.
std::int64_t mxp_pitch_bytes(std::int64_t rows, std::int64_t bytes) {
  return add(mul(add(mul(bytes, rows), 767) / 1024, 1024), 256);
}

std::string gb(double bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f GB", bytes / 1e9);
  return buf;
}

std::string percent(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * x);
  return buf;
}

void validate(const MemoryInputs& in) {
  if (in.n < 1) bad("n", ">= 1", std::to_string(in.n));
  if (in.nb < 1) bad("nb", ">= 1", std::to_string(in.nb));
  if (in.p < 1) bad("p", ">= 1", std::to_string(in.p));
  if (in.q < 1) bad("q", ">= 1", std::to_string(in.q));
  if (in.rank) {
    if (in.rank->row < 0 || in.rank->row >= in.p)
      bad("rank.row", "in [0, " + std::to_string(in.p) + ")", std::to_string(in.rank->row));
    if (in.rank->col < 0 || in.rank->col >= in.q)
      bad("rank.col", "in [0, " + std::to_string(in.q) + ")", std::to_string(in.rank->col));
  }
  if (in.matrix_element_bytes < 1)
    bad("matrix_element_bytes", ">= 1", std::to_string(in.matrix_element_bytes));
  if (in.panel_element_bytes < 1) bad("panel_element_bytes", ">= 1", std::to_string(in.panel_element_bytes));
  if (in.depth < 0) bad("depth", ">= 0", std::to_string(in.depth));
  if (in.swap_threshold < 0) bad("swap_threshold", ">= 0", std::to_string(in.swap_threshold));
  if (in.align < 1) bad("align", ">= 1", std::to_string(in.align));
  if (in.gpus_per_rank < 1) bad("gpus_per_rank", ">= 1", std::to_string(in.gpus_per_rank));
  if (in.layout == MemoryLayout::Hpl && in.placement == MatrixPlacement::Device && in.gpus_per_rank != 1)
    bad("gpus_per_rank", "1 for HPL on GPUs (rocHPL: one GPU per rank)", std::to_string(in.gpus_per_rank));
  if (in.ranks_per_node < 1) bad("ranks_per_node", ">= 1", std::to_string(in.ranks_per_node));
  if (!(in.device_headroom_fraction >= 0.0 && in.device_headroom_fraction < 1.0))
    bad("device_headroom_fraction", "in [0, 1)", std::to_string(in.device_headroom_fraction));
  if (!(in.host_headroom_fraction >= 0.0 && in.host_headroom_fraction < 1.0))
    bad("host_headroom_fraction", "in [0, 1)", std::to_string(in.host_headroom_fraction));
  if (in.placement == MatrixPlacement::Device && !(in.device_memory_bytes > 0.0))
    bad("device_memory_bytes", "> 0 for a matrix on GPUs", std::to_string(in.device_memory_bytes));
  if (in.host_memory_bytes_per_node && !(*in.host_memory_bytes_per_node > 0.0))
    bad("host_memory_bytes_per_node", "> 0", std::to_string(*in.host_memory_bytes_per_node));
  if (in.placement == MatrixPlacement::Host && !in.host_memory_bytes_per_node)
    bad("host_memory_bytes_per_node", "a value for a matrix in host memory", "none");
}

// netlib HPL 2.3 and, on GPUs, rocHPL e8378a9 (memory_model.hpp lists the files).
void hpl_layout(const MemoryInputs& in, std::int64_t mp, std::int64_t nq, MemoryFootprint& f) {
  const std::int64_t a = in.align, em = in.matrix_element_bytes, ep = in.panel_element_bytes;
  const std::int64_t jb = std::min(in.nb, in.n);
  // Columns of [A|b] from column 0 (HPL_pdgesvK2.c / HPL_pdgesv0.c create the
  // panels with N+1 columns).
  const std::int64_t nq1 = numroc(in.n + 1, in.nb, f.rank.col, in.q);
  const std::int64_t ld = hpl_leading_dimension(mp, a);

  // HPL_pdtest.c: malloc((ALIGN + (ld+1) * (nq+1)) * sizeof(double)).
  const std::int64_t matrix = mul(em, add(a, mul(ld + 1, nq + 1)));

  // HPL_pdgesv.c: depth 0 or Q = 1 -> HPL_pdgesv0 (one panel), else HPL_pdgesvK2
  // (depth + 1 panels alive at once).
  f.live_panels = (in.depth == 0 || in.q == 1) ? 1 : in.depth + 1;
  // HPL_pdpanel_init.c for the largest panel this rank can hold: at j = 0 and
  // owning neither the panel's process row nor column (ml2 = mp rows of L2
  // copied, U over all nq1 columns); with Q = 1, L2 stays in A and nu = nq - JB.
  std::int64_t work = add(a, mul(jb, jb) + jb + 1);
  if (in.q > 1) work = add(work, mul(jb, mp));
  if (in.p > 1) work = add(work, mul(jb, std::max<std::int64_t>(0, in.q > 1 ? nq1 : nq1 - jb)));
  const std::int64_t iwork =
      in.p > 1 ? 4 + 9 * jb + 3 * std::int64_t{in.p} + std::max(2 * jb, std::int64_t{in.p} + 1) : jb;
  const std::int64_t panel = add(mul(ep, work), mul(4, iwork)); // IWORK is int
  const std::int64_t panels = mul(f.live_panels, panel);

  // HPL_pdfact.c: align + 2 (4 + 2 JB) doubles while a panel is factored.
  const std::int64_t pdfact = mul(8, a + 2 * (4 + 2 * jb));

  if (in.placement == MatrixPlacement::Host) {
    // HPL_pdlaswp00T.c: align + JB (n + 1) doubles, n = the columns swapped at
    // once; used with P > 1 by SWAP 0 (n up to nq1) and by mix when n <= the
    // threshold (HPL_pdupdateTT.c). Never alive with HPL_pdfact's buffer.
    std::int64_t swap_w = 0;
    if (in.p > 1 && in.swap == HplSwap::BinaryExchange) swap_w = mul(ep, add(a, mul(jb, nq1 + 1)));
    if (in.p > 1 && in.swap == HplSwap::Mix)
      swap_w = mul(ep, add(a, mul(jb, std::min(nq1, in.swap_threshold) + 1)));
    f.per_rank_host = {matrix, panels, std::max(swap_w, pdfact)};
    return;
  }
  // rocHPL e8378a9 HPL_pdmatgen.cpp: device swap scratch dW = max(2 mp,
  // (nq + NB + 256) NB) doubles; pinned host W = max(2 mp + nq, the same);
  // pinned host panel column ld * NB. HPL_pdpanel_init.cpp: each panel's L and U
  // workspace on the device and pinned on the host (netlib sizes used for both;
  // rocHPL's padding of L2 and U differs by at most JB (JB + 418) doubles per panel).
  const std::int64_t rows_scratch = mul(add(nq, in.nb + 256), in.nb);
  f.per_device = {matrix, panels, mul(ep, std::max(2 * mp, rows_scratch))};
  f.per_rank_device_bytes = f.per_device.total();
  f.per_rank_host = {mul(em, mul(ld, in.nb)), panels,
                     add(mul(ep, std::max(2 * mp + nq, rows_scratch)), pdfact)};
}

// rocHPL-MxP (memory_model.hpp lists the files).
void mxp_layout(const MemoryInputs& in, std::int64_t mp, std::int64_t nq, MemoryFootprint& f) {
  const std::int64_t em = in.matrix_element_bytes, ep = in.panel_element_bytes, nb = in.nb;
  f.live_panels = in.depth + 1; // rocHPL-MxP: A.panels[2] at depth 1
  // hplmxp_pmatgen.cpp: piv (FP32, NB x NB), pivL and pivU (panel precision).
  const std::int64_t diagonal = mul(mul(nb, nb), 4 + 2 * ep);
  // hplmxp_pmatgen.cpp LU.work: 3 NB nbrow + NB nbcol + NB^2 + NB doubles;
  // hplmxp_ptest.cpp / pmatgen_rhs / pmatgen_x: b, x, d of NB nbrow doubles each.
  const std::int64_t fp64 = mul(8, add(6 * mp + nq, mul(nb, nb) + nb));
  // hplmxp_panel_new.cpp: L is NB x pitch(mp), U is NB x pitch(nq).
  auto panels_for = [&](std::int64_t cols) {
    return add(mul(f.live_panels, add(mul(nb, mxp_pitch_bytes(mp, ep)), mul(nb, mxp_pitch_bytes(cols, ep)))),
               diagonal);
  };
  if (in.placement == MatrixPlacement::Host) {
    f.per_rank_host = {mul(mxp_pitch_bytes(mp, em), nq), panels_for(nq), fp64};
    return;
  }
  // The rank's columns split over its GPUs as traces/mxp_generator.cpp's trailing
  // update does (cols / g, the first cols % g GPUs one more); every GPU holds all
  // of L and the diagonal blocks, its part of U; the FP64 vectors on the first.
  const int g = in.gpus_per_rank;
  std::int64_t all = 0;
  for (int i = 0; i < g; ++i) {
    const std::int64_t cols = nq / g + (i < nq % g ? 1 : 0);
    const MemoryParts gpu{mul(mxp_pitch_bytes(mp, em), cols), panels_for(cols), i == 0 ? fp64 : 0};
    if (i == 0) f.per_device = gpu;
    all = add(all, gpu.total());
  }
  f.per_rank_device_bytes = all;
  // GPU-aware MPI off: the live L and U panels and the FP32 diagonal block also
  // in pinned host buffers for the broadcasts [U].
  if (in.host_staged_messages)
    f.per_rank_host = {0, add(mul(mul(f.live_panels, ep), mul(nb, mp + nq)), mul(4, mul(nb, nb))), 0};
}

// Unified memory: a rank's host buffers on each of its GPUs' memory.
std::int64_t shared_host_bytes(const MemoryInputs& in, const MemoryFootprint& f) {
  if (!in.unified_memory) return 0;
  const std::int64_t g = std::max(1, in.gpus_per_rank);
  return (f.per_rank_host.total() + g - 1) / g;
}

std::string explain(const MemoryInputs& in, const MemoryFootprint& f, bool device_ok, bool host_ok) {
  std::string s = in.layout == MemoryLayout::Hpl ? "HPL" : "HPL-MxP";
  s += ", N = " + grouped(in.n) + ", NB = " + grouped(in.nb) + ", P x Q = " + std::to_string(in.p) + " x " +
       std::to_string(in.q) + ", rank (" + std::to_string(f.rank.row) + "," + std::to_string(f.rank.col) +
       ")" + (in.rank ? "" : " (the worst)") + ": local " + grouped(f.local_rows) + " x " +
       grouped(f.local_cols) + ", " + std::to_string(in.matrix_element_bytes) + " B per matrix element. ";
  auto parts = [&](const MemoryParts& m) {
    return "matrix " + gb(static_cast<double>(m.matrix)) + ", " + std::to_string(f.live_panels) + " panel" +
           (f.live_panels == 1 ? "" : "s") + " " + gb(static_cast<double>(m.panels)) + ", workspace " +
           gb(static_cast<double>(m.workspace));
  };
  if (in.placement == MatrixPlacement::Device) {
    const double need = static_cast<double>(f.per_device.total() + shared_host_bytes(in, f));
    s += "Per GPU needs " + gb(need) + " (" + parts(f.per_device) +
         (in.unified_memory ? ", host buffers " + gb(static_cast<double>(shared_host_bytes(in, f))) +
                                  " in the same unified memory"
                            : std::string()) +
         ") of " + gb(f.available_per_device_bytes) + " available (" + gb(in.device_memory_bytes) + " less " +
         percent(f.device_headroom_fraction) + " headroom): " + (device_ok ? "fits" : "does NOT fit") + ", " +
         percent(need / f.available_per_device_bytes) + " of available. Per node (" +
         std::to_string(in.ranks_per_node) + " ranks x " + std::to_string(in.gpus_per_rank) + " GPU" +
         (in.gpus_per_rank == 1 ? "" : "s") + "): " + gb(static_cast<double>(f.per_node_device_bytes)) +
         " on GPUs. Host staging " + gb(static_cast<double>(f.per_rank_host.total())) + " per rank, " +
         gb(static_cast<double>(f.per_node_host_bytes)) + " per node";
    if (in.unified_memory)
      s += " (unified memory: counted on the GPUs above)";
    else if (f.available_per_node_host_bytes)
      s += " of " + gb(*f.available_per_node_host_bytes) +
           " available: " + (host_ok ? "fits" : "does NOT fit");
    else
      s += " (host memory not given: not checked)";
    s += ".";
  } else {
    const double need = static_cast<double>(f.per_node_host_bytes);
    s += "Per rank " + gb(static_cast<double>(f.per_rank_host.total())) + " (" + parts(f.per_rank_host) +
         "); per node (" + std::to_string(in.ranks_per_node) + " ranks) needs " + gb(need) + " of " +
         gb(*f.available_per_node_host_bytes) + " available (" + gb(*in.host_memory_bytes_per_node) +
         " less " + percent(f.host_headroom_fraction) + " headroom): " + (host_ok ? "fits" : "does NOT fit") +
         ", " + percent(need / *f.available_per_node_host_bytes) + " of available.";
  }
  return s;
}

} // namespace

std::int64_t numroc(std::int64_t n, std::int64_t nb, int proc, int nprocs) {
  // HPL_numroc / HPL_numrocI with source process 0: whole blocks dealt
  // round-robin; the block after the last full round, possibly partial, goes to
  // process (full blocks mod nprocs).
  const std::int64_t full_blocks = n / nb;
  std::int64_t count = (full_blocks / nprocs) * nb;
  const std::int64_t extra = full_blocks % nprocs;
  if (proc < extra)
    count += nb;
  else if (proc == extra)
    count += n % nb;
  return count;
}

std::int64_t hpl_leading_dimension(std::int64_t mp, std::int64_t align) {
  std::int64_t ld = ((std::max<std::int64_t>(1, mp) - 1) / align) * align;
  do
    ld += align;
  while ((ld & (ld - 1)) == 0); // HPL_pdtest.c: "not a power of 2"
  return ld;
}

MemoryFootprint memory_footprint(const MemoryInputs& in) {
  validate(in);
  MemoryFootprint f;
  f.rank = in.rank.value_or(ProcessCoord{});
  f.local_rows = numroc(in.n, in.nb, f.rank.row, in.p);
  f.local_cols = numroc(in.n, in.nb, f.rank.col, in.q);
  if (in.layout == MemoryLayout::Hpl)
    hpl_layout(in, f.local_rows, f.local_cols, f);
  else
    mxp_layout(in, f.local_rows, f.local_cols, f);

  f.device_headroom_fraction = in.device_headroom_fraction;
  f.host_headroom_fraction = in.host_headroom_fraction;
  f.per_node_device_bytes = mul(in.ranks_per_node, f.per_rank_device_bytes);
  f.per_node_host_bytes = mul(in.ranks_per_node, f.per_rank_host.total());
  if (in.host_memory_bytes_per_node)
    f.available_per_node_host_bytes = *in.host_memory_bytes_per_node * (1.0 - in.host_headroom_fraction);
  const bool host_ok = !f.available_per_node_host_bytes ||
                       static_cast<double>(f.per_node_host_bytes) <= *f.available_per_node_host_bytes;
  bool device_ok = true;
  if (in.placement == MatrixPlacement::Device) {
    f.available_per_device_bytes = in.device_memory_bytes * (1.0 - in.device_headroom_fraction);
    device_ok =
        static_cast<double>(f.per_device.total() + shared_host_bytes(in, f)) <= f.available_per_device_bytes;
  }
  f.fits = device_ok && host_ok;
  f.explanation = explain(in, f, device_ok, host_ok);
  return f;
}

std::string grouped(std::int64_t v) {
  const std::string digits = std::to_string(v < 0 ? -v : v);
  std::string s = v < 0 ? "-" : "";
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

std::int64_t largest_fitting_n(const MemoryInputs& in, std::optional<double> memory_fraction) {
  MemoryInputs m = in;
  if (memory_fraction) {
    if (!(*memory_fraction > 0.0 && *memory_fraction <= 1.0))
      throw std::invalid_argument("largest_fitting_n: memory_fraction: expected in (0, 1], got " +
                                  std::to_string(*memory_fraction));
    (m.placement == MatrixPlacement::Device ? m.device_headroom_fraction : m.host_headroom_fraction) =
        1.0 - *memory_fraction;
  }
  if (m.nb < 1) bad("nb", ">= 1", std::to_string(m.nb));
  auto fits = [&](std::int64_t blocks) {
    m.n = blocks * m.nb;
    return memory_footprint(m).fits;
  };
  if (!fits(1)) return 0;
  // Exponential search for a size that does not fit, then bisection: the need
  // is non-decreasing in N (numroc, ld and every buffer are), so "fits" is a
  // prefix of the block counts.
  const std::int64_t max_blocks = (std::int64_t{1} << 40) / m.nb;
  std::int64_t lo = 1, hi = 2;
  while (fits(hi)) {
    lo = hi;
    if (hi > max_blocks / 2) throw std::logic_error("largest_fitting_n: no memory bound below N = 2^40");
    hi *= 2;
  }
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    (fits(mid) ? lo : hi) = mid;
  }
  return lo * m.nb;
}

} // namespace hplsim::models
