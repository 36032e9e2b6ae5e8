#include "sim/run/reference.hpp"

#include <string>

#include "sim/engine/machine.hpp"
#include "sim/engine/replay.hpp"
#include "sim/engine/replay_setup.hpp"
#include "sim/workload/schedule_source.hpp"

namespace hplsim::sim {

void run_reference(const ResolvedScenario& sc, const std::function<void(double)>& progress, RunResult& r) {
  BuiltMachine m = build_machine(sc);
  auto source = make_schedule_source(sc);
  check_kernel_coverage(sc, *source, *m.kernels);
  ReplayOptions ro = replay_options(sc);
  ro.progress = progress;
  Replay replay(*m.platform, *m.kernels, m.protocol.get(), source->step_function(), ro);
  replay.start();
  m.engine->run();

  r.step_records = replay.records();
  r.refinement_iterations = source->refinement_iterations();
  for (auto& rec : r.step_records)
    rec.how = "simulated";
  r.activities = replay.stats().activities();
  if (replay.finished_ranks() != replay.active_ranks()) {
    r.completed = false;
    r.failure = "deadlock: " + std::to_string(replay.active_ranks() - replay.finished_ranks()) +
                " ranks did not finish their schedule";
  }
}

} // namespace hplsim::sim
