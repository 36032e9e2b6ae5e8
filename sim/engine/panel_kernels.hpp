#pragma once
// The kernel times of a process row's part of a panel factorization, on its
// CPU cores or, for a code that factors the panel on the GPU, on its GPU
// (the collective panel factorization, docs/fast-mode.md point 9), shared by
// the members that have the same part: a part depends on the member only
// through its local rows below each panel column (traces::panel_local_rows),
// and the P members of an owner column take two distinct counts where N is a
// multiple of NB (the diagonal row's and the others'), a few more otherwise.
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "models/kernel_model.hpp"
#include "traces/hpl_config.hpp"
#include "traces/hpl_pfact.hpp"

namespace hplsim::sim {

/// One item of a part, in program order: a kernel of `seconds` (> 0; kernels
/// the model prices at 0 are left out) or a pivot exchange. On the GPU
/// (traces/hpl_pfact_device.cpp) a column's leaf kernel is `beside`: launched
/// without waiting, it runs beside the column's exchange.
struct PanelKernel {
  bool exchange = false;
  double seconds = 0.0;
  bool beside = false;
};

class PanelKernels {
public:
  PanelKernels(const models::KernelModels& kernels, const models::CpuThreading& threading)
      : kernels_(kernels), threading_(threading) {}

  /// The part of the member whose local rows are `rows` (panel_local_rows of
  /// `g`), its kernels on the GPU when `device`, listed and priced on first use.
  const std::vector<PanelKernel>& of(const std::vector<std::int64_t>& rows, const traces::PanelGeometry& g,
                                     const traces::HplConfig& config, bool device = false);

private:
  using Key = std::tuple<int, int, int, bool, std::vector<std::int64_t>>; // nbmin, ndiv, pfact, device, rows
  const models::KernelModels& kernels_;
  models::CpuThreading threading_;
  std::map<Key, std::vector<PanelKernel>> parts_;
  std::vector<traces::PanelWork> work_; // scratch
};

} // namespace hplsim::sim
