#include "sim/run/reference.hpp"

#include <memory>
#include <string>

#include "sim/engine/faults_runtime.hpp"
#include "sim/engine/machine.hpp"
#include "sim/engine/replay.hpp"
#include "sim/engine/replay_setup.hpp"
#include "sim/run/fault_outcomes.hpp"
#include "sim/workload/schedule_source.hpp"

namespace hplsim::sim {

void run_reference(const ResolvedScenario& sc, const std::function<void(double)>& progress, RunResult& r,
                   std::uint64_t run, double fault_horizon_s) {
  BuiltMachine m = build_machine(sc, {}, run, fault_horizon_s);
  auto source = make_schedule_source(sc);
  check_kernel_coverage(sc, *source, *m.kernels);
  ReplayOptions ro = replay_options(sc);
  ro.progress = progress;
  std::unique_ptr<FaultsRuntime> faults;
  if (!m.faults.empty()) {
    faults = std::make_unique<FaultsRuntime>(*m.platform, m.faults);
    ro.faults = faults.get();
  }
  Replay replay(*m.platform, *m.kernels, m.protocol.get(), source->step_function(), ro);
  replay.start();
  if (faults) faults->start();
  m.engine->run();

  r.step_records = replay.records();
  r.refinement_iterations = source->refinement_iterations();
  for (auto& rec : r.step_records)
    rec.how = "simulated";
  r.activities = replay.stats().activities();
  if (faults && faults->log().abort_reason) {
    finalize_result(r);
    record_faults(m.faults, &faults->log(), r);
    return;
  }
  if (replay.finished_ranks() != replay.active_ranks()) {
    r.completed = false;
    r.failure = "deadlock: " + std::to_string(replay.active_ranks() - replay.finished_ranks()) +
                " ranks did not finish their schedule";
  }
  finalize_result(r);
  if (faults) record_faults(m.faults, &faults->log(), r);
}

} // namespace hplsim::sim
