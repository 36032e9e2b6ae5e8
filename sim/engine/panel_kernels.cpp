#include "sim/engine/panel_kernels.hpp"

namespace hplsim::sim {

const std::vector<PanelKernel>& PanelKernels::of(const std::vector<std::int64_t>& rows,
                                                 const traces::PanelGeometry& g,
                                                 const traces::HplConfig& config, bool device) {
  Key key{config.nbmin, config.ndiv, static_cast<int>(config.pfact), device, rows};
  auto it = parts_.find(key);
  if (it != parts_.end()) return it->second;
  // A window factors a panel per step: the parts of the latest few are kept.
  constexpr std::size_t kKept = 16;
  if (parts_.size() >= kKept) parts_.clear();
  std::vector<PanelKernel> part;
  work_.clear();
  traces::panel_factorization_work(rows, g, config, work_);
  part.reserve(work_.size());
  for (const traces::PanelWork& w : work_) {
    if (w.exchange) {
      part.push_back({true, 0.0});
      continue;
    }
    const models::KernelShape k{w.kernel, device ? traces::GPU : traces::CPU, traces::FP64, w.m, w.n, w.k};
    const double seconds = kernels_.seconds(k, threading_);
    if (!(seconds <= 0.0)) // as the rank's own loop skipped them
      part.push_back({false, seconds, device && w.kernel == traces::KERNEL_PFACT_COLUMN});
  }
  return parts_.emplace(std::move(key), std::move(part)).first->second;
}

} // namespace hplsim::sim
