#pragma once
// Memory footprint of one HPL / HPL-MxP rank, on its GPU(s) and in host memory,
// and whether a run fits (models/README.md, "Memory model").
//
// The allocation rules are the implementations' own, read from their sources:
//   HPL (FP64), every run: netlib HPL 2.3 (icl-utk-edu/hpl 9edeab5, "HPL - 2.3 -
//     December 2, 2018"):
//       testing/ptest/HPL_pdtest.c  the local [A|b|x]: align + (ld+1)*(nq+1) doubles,
//                                   ld = mp rounded up to a multiple of ALIGN, never a power of 2
//       src/pgesv/HPL_pdgesv.c, HPL_pdgesv0.c, HPL_pdgesvK2.c
//                                   depth+1 live panels (1 when depth = 0 or Q = 1)
//       src/panel/HPL_pdpanel_init.c one panel: WORK = align + L2 (ml2*JB) + L1 (JB*JB)
//                                   + DPIV (JB) + DINFO (1) + U (JB*nu) doubles,
//                                   IWORK = 4 + 9 JB + 3 P + max(2 JB, P+1) ints (P > 1)
//       src/pfact/HPL_pdfact.c      align + 2 (4 + 2 JB) doubles while a panel is factored
//       src/pgesv/HPL_pdlaswp00T.c  align + JB (n+1) doubles while rows are swapped by
//                                   binary exchange (SWAP 0, or mix with n <= threshold)
//   HPL on GPUs adds rocHPL's buffers (ROCm/rocHPL e8378a9, the GPU variant traces/
//     follows): src/matgen/HPL_pdmatgen.cpp (device swap scratch dW and its pinned host
//     twin W = NB (nq + NB + 256) doubles; a pinned host column of panels ld*NB for the
//     CPU panel factorization) and src/panel/HPL_pdpanel_init.cpp (every panel's L and U
//     workspace allocated twice: on the device and pinned on the host).
//   HPL-MxP: rocHPL-MxP (ROCm/rocHPL-MxP 5b6a169), src/matgen/hplmxp_pmatgen.cpp,
//     src/panel/hplmxp_panel_new.cpp, src/hplmxp_ptest.cpp: the low-precision matrix
//     (pitch(mp) * nq), two panels L (NB x mp) and U (NB x nq) in the panel precision,
//     the diagonal block in FP32 and its two triangular inverses in the panel precision,
//     and FP64 vectors only (b, x, d, residual/Krylov work: 6 mp + nq + NB^2 + NB
//     doubles). The FP64 matrix is NOT kept: the refinement's GEMV regenerates it on the
//     fly (src/pgesv/hplmxp_pgemv_device.cpp, otf_gemv_knl).
//
// Pure function of its inputs: no SimGrid, no globals, no scenario types.
#include <cstdint>
#include <optional>
#include <string>

namespace hplsim::models {

/// Whose allocation rule applies.
enum class MemoryLayout {
  Hpl,   ///< netlib HPL 2.3 (+ rocHPL's device/host buffers when the matrix is on GPUs)
  HplMxp ///< rocHPL-MxP: low-precision matrix and panels, FP64 vectors only
};

/// Where the local matrix (and with it the panels) lives.
enum class MatrixPlacement {
  Device, ///< in the memory of the GPU(s) the rank drives (rocHPL, rocHPL-MxP, Aurora)
  Host    ///< in host memory (CPU-only HPL); the node's memory is shared by its ranks
};

/// HPL.dat's SWAP line: only HPL_pdlaswp00T (binary exchange) allocates a buffer.
enum class HplSwap { BinaryExchange, SpreadRoll, Mix };

/// A rank's process-grid coordinates.
struct ProcessCoord {
  int row = 0;
  int col = 0;
};

/// Headroom defaults: the fraction of the memory kept free for what the model
/// does not count (runtime, driver, libraries, MPI, OS).
///
/// Device [D] upper bound, value chosen at it: rocHPL's README ("Performance
/// evaluation", ROCm/rocHPL 6f06f51) lists sample runs on 288 GB MI355X GPUs; for
/// "-P 2 -Q 1 -N 273280 --NB 896" rocHPL's own device allocations at that commit
/// (HPL_pdmatgen.cpp: A, W0, W1, W2, X; HPL_pdpanel_new.cpp: two panels' A0, U0,
/// U1, U2) add up to 3.0766e11 B = 99.49% of 288 GiB, so the HIP runtime and
/// rocBLAS needed less than 0.51% there [D] (assuming all of the 288 GiB is
/// allocatable [U]). PVC's Level Zero reserve is not published [U]: the same
/// fraction is used for every GPU.
inline constexpr double kDefaultDeviceHeadroomFraction = 0.005;
/// Host [P]: netlib HPL 2.3's FAQ (www/faqs.html, "What problem size N should I
/// run?"): "As a rule of thumb, 80 % of the total amount of memory is a good
/// guess" (the rest for the OS and other things).
inline constexpr double kDefaultHostHeadroomFraction = 0.20;

struct MemoryInputs {
  std::int64_t n = 0;  ///< matrix order N (>= 1)
  std::int64_t nb = 0; ///< block size NB (>= 1)
  int p = 1;           ///< process rows P
  int q = 1;           ///< process columns Q
  /// The rank to evaluate. Unset: the worst rank, process (0, 0): HPL_numroc's
  /// share is non-increasing in the process coordinate (source process 0) and
  /// every term below is non-decreasing in the local rows and columns.
  std::optional<ProcessCoord> rank;
  MemoryLayout layout = MemoryLayout::Hpl;
  /// Bytes of one element of the local matrix: 8 for HPL (FP64); for HPL-MxP
  /// the storage precision's (traces::precision_bytes: BF16/FP16 2, FP32 4).
  /// Assumption [U] for Aurora HPL-MxP: the matrix is kept in the storage
  /// precision (BF16): rocHPL-MxP keeps it in FP32 (hplmxp_ptest.cpp: "Create an
  /// fp32 proxy matrix"), which cannot hold Aurora's N = 57,693,696 in 128 GB per
  /// GPU (models/README.md, "Memory model").
  std::int64_t matrix_element_bytes = 8;
  /// Bytes of one element of the L/U panels: 8 for HPL; HPL-MxP's storage
  /// precision (rocHPL-MxP: FP16, 2).
  std::int64_t panel_element_bytes = 8;
  int depth = 1;                    ///< look-ahead depth (HPL.dat DEPTHs; rocHPL and rocHPL-MxP: 1)
  HplSwap swap = HplSwap::Mix;      ///< HPL.dat SWAP (HPL on the host only)
  std::int64_t swap_threshold = 64; ///< HPL.dat swapping threshold (columns)
  std::int64_t align = 8;           ///< HPL.dat "memory alignment in double" (sample file: 8)
  MatrixPlacement placement = MatrixPlacement::Device;
  /// GPUs one rank drives (Aurora HPL-MxP: 3). The rank's local columns are split
  /// over them like traces/mxp_generator.cpp's trailing update (ceil(nq / g) on the
  /// first); each GPU holds all of L [U]. Ignored (1) for Host placement.
  int gpus_per_rank = 1;
  int ranks_per_node = 1;
  /// Memory of one GPU in bytes (scenario machine.node.gpu_memory_bytes); Device only.
  double device_memory_bytes = 0.0;
  /// Host memory of one node in bytes (no scenario field yet): required for Host
  /// placement; for Device placement, when given, the host staging is checked too.
  std::optional<double> host_memory_bytes_per_node;
  /// Panel messages go through host buffers (GPU-aware MPI off, Aurora): HPL-MxP
  /// then keeps pinned host copies of its live L and U panels [U] (rocHPL-MxP,
  /// GPU-aware, has none). HPL on GPUs always has them (rocHPL e8378a9 factors the
  /// panel on the CPU).
  bool host_staged_messages = true;
  /// APU (MI300A): the CPU and the GPU share the device memory, so a rank's
  /// host buffers are counted on its GPUs' memory (split evenly) and
  /// host_memory_bytes_per_node is not given.
  bool unified_memory = false;
  double device_headroom_fraction = kDefaultDeviceHeadroomFraction; ///< in [0, 1)
  double host_headroom_fraction = kDefaultHostHeadroomFraction;     ///< in [0, 1)
};

/// Bytes of one memory, by kind.
struct MemoryParts {
  std::int64_t matrix = 0;    ///< local matrix (HPL: [A|b] and x; MxP: the low-precision A)
  std::int64_t panels = 0;    ///< live panels: L2/L1/U, pivot arrays (MxP: L, U, diagonal blocks)
  std::int64_t workspace = 0; ///< swap / factorization scratch, FP64 vectors
  std::int64_t total() const { return matrix + panels + workspace; }
};

struct MemoryFootprint {
  ProcessCoord rank;           ///< the rank evaluated (the worst one when none was given)
  std::int64_t local_rows = 0; ///< mp = numroc(N, NB, row, P)
  std::int64_t local_cols = 0; ///< nq = numroc(N, NB, col, Q)
  int live_panels = 0;         ///< panels allocated at once
  /// Device placement: the rank's most loaded GPU (its first); zero for Host.
  MemoryParts per_device;
  /// Device placement: all of the rank's GPUs together; zero for Host.
  std::int64_t per_rank_device_bytes = 0;
  /// The rank's host memory: everything for Host placement; the pinned staging
  /// buffers (matrix = rocHPL's host panel column) for Device placement.
  MemoryParts per_rank_host;
  /// ranks_per_node x the evaluated rank (an upper bound for any node when the
  /// rank is the worst).
  std::int64_t per_node_device_bytes = 0;
  std::int64_t per_node_host_bytes = 0;
  double device_headroom_fraction = 0.0;
  double host_headroom_fraction = 0.0;
  /// device_memory_bytes x (1 - headroom); 0 for Host placement.
  double available_per_device_bytes = 0.0;
  /// host_memory_bytes_per_node x (1 - headroom), when the host memory is known.
  std::optional<double> available_per_node_host_bytes;
  /// Device: per_device.total() <= available_per_device_bytes (and the host check
  /// when the host memory is given). Host: per_node_host_bytes <= available.
  bool fits = false;
  /// One paragraph: N, NB, P x Q, the rank, needed vs available per GPU (or per
  /// node), the parts, and the verdict.
  std::string explanation;
};

/// HPL_numroc with source process 0: how many of the indices [0, n) process
/// `proc` of `nprocs` holds when blocks of nb are dealt cyclically.
std::int64_t numroc(std::int64_t n, std::int64_t nb, int proc, int nprocs);

/// HPL_pdtest.c's leading dimension: mp rounded up to a multiple of align, then
/// further by align while it is a power of two.
std::int64_t hpl_leading_dimension(std::int64_t mp, std::int64_t align);

/// The footprint of one rank. Throws std::invalid_argument naming the first bad
/// input, std::overflow_error if a byte count exceeds 64 bits.
MemoryFootprint memory_footprint(const MemoryInputs& in);

/// The largest N, a multiple of in.nb, whose footprint fits (memory_footprint's
/// `fits`, every other input as given); 0 if not even N = NB fits. With
/// `memory_fraction` f in (0, 1], the memory holding the matrix (the GPU's for
/// Device placement, the node's for Host) may be filled up to f instead of
/// 1 - headroom. Bisection on N / NB over the forward model: the result fits and
/// result + NB does not.
std::int64_t largest_fitting_n(const MemoryInputs& in, std::optional<double> memory_fraction = std::nullopt);

/// An integer with thousands separators, as the explanations write N: "1,234,560".
std::string grouped(std::int64_t value);

} // namespace hplsim::models
