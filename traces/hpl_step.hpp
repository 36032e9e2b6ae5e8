#pragma once
// One rank's program for one HPL main-loop iteration (internal to the HPL
// generator; traces/hpl_generator.hpp is the public interface).
//
// Iteration k of the main loop (StepSchedule k) updates the trailing matrix
// with panel k. With look-ahead depth 1 it also factors panel k+1 and
// broadcasts it, and step 0 starts with the factorization and broadcast of
// panel 0 (src/pgesv/HPL_pdgesvK2.c; depth 0: src/pgesv/HPL_pdgesv0.c, which
// HPL_pdgesv.c also uses whenever Q = 1).
//
// CPU execution follows netlib HPL 2.3 (HPL_pdupdateTT: swap, DTRSM, DGEMM on
// the host). GPU execution follows rocHPL's first public release (ROCm/rocHPL
// e8378a9, src/pgesv/HPL_pdgesv.cpp): the panel is copied to the host,
// factored on the CPU and copied back; row pack/unpack, DTRSM and DGEMM run on
// the GPU; with depth 1 the trailing columns are split in a look-ahead section
// (the next panel's columns), a section "U2" (gpu_split_fraction of the local
// columns) and the rest "U1", so that the panel factorization and broadcast run
// on the CPU while the GPU updates U2, and the swap of the next panel's U2
// overlaps the GPU's update of U1. A code whose panel is on the GPU
// (HplConfig::device_panel, traces/hpl_pfact_device.hpp) has no panel copies:
// rocHPL 7 factors the next panel right after the look-ahead update, before U2
// is launched (one compute stream); NVIDIA HPL after U2 is launched (beside it).
#include <cstdint>

#include "traces/comm_pattern.hpp"
#include "traces/hpl_config.hpp"
#include "traces/hpl_swap.hpp"

namespace hplsim::traces {

struct HplPanel {
  bool exists = false;
  std::int64_t index = 0; ///< panel number k
  std::int64_t j = 0;     ///< first global row/column
  std::int64_t jb = 0;    ///< width
  int prow = 0, pcol = 0; ///< process row/column of its diagonal block
  SwapLayout swap;        ///< expected pivots (set when P > 1)
};

HplPanel make_hpl_panel(const HplConfig& config, std::int64_t k);

class HplStepEmitter {
public:
  /// `next` is panel k+1 (exists = false for the last panel).
  HplStepEmitter(const HplConfig& config, const ProcessGrid& grid, const HplPanel& current,
                 const HplPanel& next);

  /// Appends the rank (row, col)'s operations of this step.
  void emit(ProgramBuilder& b, int row, int col) const;

  /// Local columns of `col` that panel `pn` updates ([j + jb, N + 1), the
  /// right-hand side included).
  std::int64_t trailing_cols(const HplPanel& pn, int col) const;
  /// Local rows of `row` below the panel's diagonal block ([j + jb, N)).
  std::int64_t rows_below(const HplPanel& pn, int row) const;

private:
  struct Sections {
    std::int64_t look_ahead = 0, u1 = 0, u2 = 0;
  };
  Sections gpu_sections(const HplPanel& pn, int col) const;

  void emit_cpu(ProgramBuilder& b, int row, int col) const;
  void emit_gpu_depth0(ProgramBuilder& b, int row, int col) const;
  void emit_gpu_depth1(ProgramBuilder& b, int row, int col) const;

  /// GPU-aware MPI (a GPU run without host staging): the broadcasts' and
  /// swaps' buffers are in GPU memory (Send/Recv.device).
  bool device_messages() const { return c_.gpu && !c_.host_staged; }
  void factor(ProgramBuilder& b, const HplPanel& pn, int row) const;
  /// factor, with a CPU panel between its D2H and H2D copies (the panel piece the code names).
  void factor_staged(ProgramBuilder& b, const HplPanel& pn, int row) const;
  void bcast_pattern_of(const HplPanel& pn, int row, int col, Pattern& out) const;
  /// Blocking broadcast; on the GPU with host staging a non-root receiver then
  /// copies the panel to the device (async; the tag is returned, 0 if none).
  std::uint32_t broadcast(ProgramBuilder& b, const HplPanel& pn, int row, int col, bool async_h2d) const;
  /// Pack the rows, [D2H], swap messages, [H2D] (everything before the unpack).
  /// Charges the panel broadcast's receives among ops [first, size()) as the timer rule says.
  void charge_panel_wait(ProgramBuilder& b, int first) const;
  void swap_exchange(ProgramBuilder& b, const HplPanel& pn, int row, int col, std::int64_t ncols) const;
  void swap_unpack(ProgramBuilder& b, const HplPanel& pn, std::int64_t ncols) const;
  static void emit_grouped_roll(ProgramBuilder& b, const Communicator& column, const Pattern& roll,
                                int group);
  /// Swap + DTRSM + DGEMM of `ncols` columns on the CPU; the DGEMM is async if asked (tag returned).
  std::uint32_t update_cpu(ProgramBuilder& b, const HplPanel& pn, int row, int col, std::int64_t ncols,
                           bool async_gemm) const;
  /// Unpack + DTRSM + DGEMM on the GPU (the exchange was emitted before).
  std::uint32_t update_gpu(ProgramBuilder& b, const HplPanel& pn, int row, std::int64_t ncols,
                           bool async_gemm) const;

  const HplConfig& c_;
  const ProcessGrid& grid_;
  const HplPanel& cur_;
  const HplPanel& next_;
  Resource update_resource_;
};

} // namespace hplsim::traces
