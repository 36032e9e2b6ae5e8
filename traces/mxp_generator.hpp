#pragma once
// Panel schedule of an HPL-MxP run: LU without pivoting in low precision, one
// StepSchedule per block column, then the FP64 iterative refinement as the
// final step (traces/mxp_refinement.hpp).
//
// Step k (rocHPL-MxP src/pgesv/hplmxp_pgetrf.cpp, iteration k; panel k holds the
// global rows/columns [k NB, k NB + jb)):
//  - depth 1, k > 0: the look-ahead updates with panel k-1 first: the diagonal
//    block (its owner), the L panel (the owner column), the U panel (the owner
//    row), each a low-precision GEMM on GPU 0;
//  - the diagonal block's owner factors it (KERNEL_GETRF_DIAG, FP32; its
//    triangles are inverted with it, rocHPL-MxP's HPLMXP_trtriU/L);
//  - the other ranks of the owner column / row receive the diagonal block (FP32,
//    jb^2 x 4 bytes) by a broadcast along the column / row and solve their L
//    (rows below x jb) / U (jb x columns right) panel (KERNEL_TRSM, storage
//    precision; rocHPL-MxP multiplies by the inverted triangle instead);
//  - depth 1, k > 0: the trailing update with panel k-1 starts on every GPU of
//    the rank (one asynchronous GEMM per GPU over its share of the local
//    columns, Compute.device = GPU index);
//  - the diagonal block's owner broadcasts it along its row, then its column;
//  - the L panel is broadcast along every process row (rows x jb in the storage
//    precision), the U panel along every process column;
//  - depth 0: the trailing update with panel k follows; the step ends when every
//    GPU is done.
#include <cstdint>
#include <vector>

#include "traces/grid.hpp"
#include "traces/mxp_config.hpp"
#include "traces/schedule.pb.h"

namespace hplsim::traces {

class MxpScheduleGenerator {
public:
  /// Throws std::invalid_argument on a bad config (see validate(MxpConfig)).
  explicit MxpScheduleGenerator(MxpConfig config);

  const MxpConfig& config() const { return config_; }
  const ProcessGrid& grid() const { return grid_; }
  ScheduleHeader header() const;
  /// Block columns, ceil(N / NB); step() accepts k in [0, steps()], steps() being the refinement.
  std::int64_t steps() const { return steps_; }

  /// As HplScheduleGenerator::step.
  void step(std::int64_t k, StepSchedule& out, const std::vector<bool>* only = nullptr) const;

  /// Flops credited to step k: the same split as HPL (the benchmark reports
  /// 2/3 N^3 + 3/2 N^2 over the whole run, refinement included).
  double step_flops(std::int64_t k) const;
  double total_flops() const;

private:
  MxpConfig config_;
  ProcessGrid grid_;
  std::int64_t steps_;
};

} // namespace hplsim::traces
