#include "sim/oracle/schedule_kernels.hpp"

#include <cstdint>
#include <vector>

#include "sim/oracle/kernel_totals.hpp"
#include "sim/workload/schedule_source.hpp"

namespace hplsim::sim {

std::vector<RankKernelTotals> schedule_kernel_totals(const OracleMachine& machine) {
  const auto source = make_schedule_source(machine.scenario);
  std::vector<RankKernelTotals> totals(static_cast<std::size_t>(machine.scenario.workload.ranks()));
  traces::StepSchedule step;
  for (std::int64_t k = 0; k <= source->steps(); ++k) {
    step.Clear();
    source->step(k, step);
    for (const auto& prog : step.ranks())
      for (const auto& op : prog.ops()) {
        if (!op.has_compute()) continue;
        const auto& c = op.compute();
        const models::CpuThreading& threading = c.phase() == traces::PFACT ? machine.options.panel_threading
                                                : c.phase() == traces::SOLVE
                                                    ? machine.options.solve_threading
                                                    : machine.options.other_threading;
        const double s = machine.kernels->seconds(
            {c.kernel(), c.resource(), c.precision(), c.m(), c.n(), c.k()}, threading);
        if (s <= 0.0) continue;
        KernelTotal& t = totals[static_cast<std::size_t>(prog.rank())][static_cast<std::size_t>(c.phase())];
        ++t.calls;
        t.seconds += s;
      }
  }
  return totals;
}

} // namespace hplsim::sim
