#include "traces/hpl_pfact_device.hpp"

#include <vector>

namespace hplsim::traces {

void emit_panel_factorization_device(ProgramBuilder& b, const Communicator& column, int myrow,
                                     const PanelGeometry& g, const HplConfig& config) {
  if (g.jb <= 0) return;
  const PivotPath pivots = code_facts(config.code).pivots;
  if (panel_collective_applies(g, config)) {
    // Fast mode: the member's GPU kernels, flag copies and jb exchanges as one op
    // (docs/fast-mode.md, "9. Collective panel factorization").
    PanelShape shape = panel_shape(g, config);
    shape.set_device(true);
    shape.set_host_flag(pivots == PivotPath::HostFlag);
    return emit_collective_panel(b, column, g, config, shape);
  }
  Pattern exchange;
  pivot_exchange_pattern(myrow, g.icurrow, g.p, g.jb, exchange);
  thread_local std::vector<PanelWork> work;
  work.clear();
  panel_factorization_work(myrow, g, config, work);
  std::uint32_t column_work = 0; // the leaf kernel's work on the previous column, in flight
  for (const PanelWork& w : work) {
    if (w.exchange) {
      if (g.p > 1) {
        const bool flag = pivots == PivotPath::HostFlag;
        if (flag) b.copy(Copy::D2H, doubles(4 + g.jb), PFACT);
        const int first = b.size();
        emit_pivot_exchange(b, column, exchange, g, config, w.k);
        if (pivots == PivotPath::DeviceInitiated) b.mark_device_buffers(first);
        if (flag) b.copy(Copy::H2D, doubles(4 + 2 * g.jb), PFACT);
      }
      b.wait(column_work);
      column_work = 0;
    } else if (w.kernel == KERNEL_PFACT_COLUMN) {
      column_work = b.compute_async(w.kernel, GPU, w.m, w.n, w.k, PFACT);
    } else {
      b.wait(column_work);
      column_work = 0;
      b.compute(w.kernel, GPU, w.m, w.n, w.k, PFACT);
    }
  }
  b.wait(column_work);
}

} // namespace hplsim::traces
