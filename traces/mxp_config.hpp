#pragma once
// Parameters of an HPL-MxP run for the panel-schedule generator. The execution
// follows rocHPL-MxP (ROCm/rocHPL-MxP, src/pgesv/hplmxp_pgetrf.cpp and
// hplmxp_iterative_refinement.cpp), the distributed HPL-MxP implementation
// whose structure the benchmark's reference rules describe: LU without pivoting
// in low precision on the GPUs, look-ahead depth 1, FP64 iterative refinement.
#include <cstdint>
#include <string>

#include "traces/collectives.pb.h"

#include "traces/hpl_config.hpp"
#include "traces/schedule.pb.h"

namespace hplsim::traces {

struct MxpConfig {
  enum class Refinement { Classical, Gmres };

  std::int64_t n = 0;  ///< matrix order N
  std::int64_t nb = 0; ///< block size NB
  int p = 1;
  int q = 1;
  bool column_major = false;
  /// 1: rocHPL-MxP's look-ahead (the next panel's row and column are updated
  /// first, the trailing update runs on the GPUs during the broadcasts); 0: the
  /// trailing update follows the broadcasts of its own panel.
  int depth = 1;
  /// GPUs one rank drives (Aurora HPL-MxP: 2 ranks per node, 3 GPUs each); the
  /// local trailing update is split over them by columns.
  int gpus_per_rank = 1;
  /// Precision of the L and U panels, their messages and the trailing GEMM's
  /// inputs: BF16 or FP16 (2 bytes, FP32 accumulate) or FP32. rocHPL-MxP keeps
  /// them in FP16 (HPLMXP_T_panel::L/U are fp16_t); Aurora uses BF16.
  Precision storage = BF16;
  /// Panel broadcasts (diagonal block, L, U): HPL's six algorithms
  /// (rocHPL-MxP's src/comm/hplmxp_bcast_*.cpp; HPL-MxP.dat default 0 = 1ring).
  HplConfig::Bcast bcast = HplConfig::Bcast::OneRing;
  /// Ring broadcasts are pipelined in chunks of this many bytes (rocHPL-MxP
  /// hplmxp_bcast_1ring.cpp: 2 MiB); 0 sends whole messages. Smaller chunks =
  /// more messages to simulate.
  std::int64_t bcast_chunk_bytes = 2 << 20;
  /// Fast mode: a pipelined ring hop is written as 3 messages (first chunk,
  /// the bulk, last chunk) instead of one per chunk (emit_bcast): the same
  /// pipeline time on idle links, ~bytes / chunk / 3 times fewer messages.
  bool bcast_ring_aggregated = false;
  /// Where the diagonal block's LU (FP32, rocsolver_sgetrf_npvt in
  /// rocHPL-MxP's src/blas/hplmxp_getrf.cpp) and the panels' triangular solves
  /// run. GPU as in rocHPL-MxP; CPU for machines that do the low-precision panel
  /// work with AMX (copies to and from the GPU are added).
  Resource panel_resource = GPU;
  /// Where the FP64 refinement's matrix-vector products and triangular solves run.
  Resource refinement_resource = CPU;
  /// Panel messages from host buffers (GPU-aware MPI off): D2H before a
  /// broadcast's root sends, H2D after a member receives.
  bool host_staged = false;
  /// GPU-aware MPI on a GPU machine: the panel broadcasts' buffers are in GPU
  /// memory (Send.device / Recv.device).
  bool device_messages = false;
  Refinement refinement = Refinement::Classical;
  /// Refinement iterations to schedule, in [1, 50] (rocHPL-MxP stops at
  /// convergence or after maxits = 50). No default: the count depends on the
  /// matrix and the precision, give it explicitly.
  int refinement_iterations = 0;
  /// Fast mode: Mark ops in the refinement, id 0 where the iterations start
  /// (classical: the refinement's start; GMRES: after its first residual,
  /// solves and norm, or the refinement's start when they are left out), id i
  /// after iteration i (docs/fast-mode.md, "13. The refinement's iterations").
  bool refinement_marks = false;
  /// Fast mode, GMRES: its first residual, solves and norm (r0) are left out of
  /// the schedule. They repeat an iteration's communication (one allreduce
  /// fewer), so fast mode counts them as one more extrapolated iteration, and
  /// mark 0 is the refinement's start (docs/fast-mode.md, "13. The
  /// refinement's iterations").
  bool refinement_first_pass_extrapolated = false;
  /// The MPI library's collectives (machine.mpi): the refinement's
  /// MPI_Allreduce takes the algorithm its table selects (no selection:
  /// MPICH's recursive doubling); its MPI_Bcast stays a binomial tree.
  mpi::MpiCollectives mpi;
};

/// Throws std::invalid_argument naming the first bad field, expected vs actual.
void validate(const MxpConfig& config);

std::string to_string(MxpConfig::Refinement refinement);

/// Bytes of one element stored in `precision`.
std::int64_t precision_bytes(Precision precision);

} // namespace hplsim::traces
