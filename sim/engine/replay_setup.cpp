#include "sim/engine/replay_setup.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/scenario/scenario_paths.hpp"
#include "sim/support/errors.hpp"

namespace hplsim::sim {

void check_kernel_coverage(const ResolvedScenario& sc, const ScheduleSource& source,
                           const models::KernelModels& kernels) {
  // Every kernel the workload calls must be priced: look at the first, second,
  // last panel steps and the final step of a few ranks of distinct roles
  // before the simulation starts, so a gap is a clear input error and not an
  // exception inside a SimGrid actor.
  const auto& w = sc.workload;
  std::vector<bool> only(static_cast<std::size_t>(w.ranks()), false);
  const int last = w.ranks() - 1;
  for (int r : {0, std::min(1, last), std::min(w.q, last), last})
    only[static_cast<std::size_t>(r)] = true;
  const auto check = [&](const traces::Compute& c) {
    try {
      kernels.seconds({c.kernel(), c.resource(), c.precision(), c.m(), c.n(), c.k()});
    } catch (const std::out_of_range& e) {
      throw ScenarioError(
          sc.path + ": " + e.what() + ", which the workload needs (" +
          (sc.machine.kernels_path.empty() ? std::string("machine.kernels") : sc.machine.kernels_path) + ")");
    }
  };
  std::function<void(const traces::Op&)> check_op = [&](const traces::Op& op) {
    if (op.has_compute()) return check(op.compute());
    if (!op.has_polled_update()) return;
    const traces::PolledUpdate& u = op.polled_update();
    for (const auto& x : u.swap().ops())
      check_op(x);
    for (const auto& x : u.arrival().ops())
      check_op(x);
    traces::Compute c; // its DTRSM and DGEMM (sim/engine/rank_runner.cpp, update_columns)
    c.set_kernel(traces::KERNEL_TRSM);
    c.set_resource(traces::CPU);
    c.set_m(u.jb());
    c.set_n(std::max<std::int64_t>(1, u.n()));
    check(c);
    c.set_kernel(traces::KERNEL_GEMM);
    c.set_m(std::max<std::int64_t>(1, u.m()));
    c.set_k(u.jb());
    check(c);
  };
  traces::StepSchedule step;
  for (std::int64_t k :
       {std::int64_t{0}, std::min<std::int64_t>(1, source.steps()), source.steps() - 1, source.steps()}) {
    if (k < 0) continue;
    step.Clear();
    source.step(k, step, &only);
    for (const auto& prog : step.ranks())
      for (const auto& op : prog.ops())
        check_op(op);
  }
}

models::CoreLayout core_layout(const ResolvedScenario& sc) {
  models::CoreLayout l;
  l.cores_per_node = sc.machine.node.cores_per_node();
  l.ranks_per_node = std::max(1, sc.workload.ranks_per_node);
  l.os_cores = sc.machine.variability.noise().os_cores_per_node();
  // A rank's block stays inside the node (validation refuses more threads than cores).
  l.threads_per_rank =
      std::max(1, std::min(sc.workload.panel_threads, (l.cores_per_node - l.os_cores) / l.ranks_per_node));
  return l;
}

std::shared_ptr<const models::NoiseConfig> noise_config(const ResolvedScenario& sc) {
  const models::NoiseParams& params = sc.machine.variability.noise();
  if (params.sources_size() == 0) return nullptr;
  auto config = std::make_shared<models::NoiseConfig>();
  config->params = params;
  config->layout = core_layout(sc);
  config->traces.resize(static_cast<std::size_t>(params.sources_size()));
  for (int i = 0; i < params.sources_size(); ++i) {
    const models::NoiseSource& s = params.sources(i);
    if (!s.has_trace_file()) continue;
    const ScenarioFile file = find_scenario_file(sc.base_dir, s.trace_file());
    try {
      config->traces[static_cast<std::size_t>(i)] = models::read_noise_trace(file.path);
    } catch (const std::runtime_error& e) {
      throw ScenarioError(sc.path + ": machine.variability.noise.sources[" + std::to_string(i) +
                          "].trace_file: " + e.what());
    }
  }
  return config;
}

ReplayOptions replay_options(const ResolvedScenario& sc) {
  const auto& node = sc.machine.node;
  ReplayOptions ro;
  ro.steps = sc.workload.steps();
  ro.n = sc.workload.n;
  ro.nb = sc.workload.nb;
  ro.copy_overlap = node.copy_overlap;
  ro.copy_engines = node.copy_engines;
  ro.kernel_jitter_cv = sc.machine.variability.kernel_jitter_cv();
  ro.node_gpu_step_cv = sc.machine.variability.node_gpu_step_cv();
  // The rank's share of its socket's memory bandwidth (ranks spread evenly over sockets).
  const int ranks_per_socket = std::max(1, sc.workload.ranks_per_node / std::max(1, node.sockets));
  ro.panel_threading = {sc.workload.panel_threads, node.panel_serial_fraction,
                        node.memory_bandwidth_bytes_per_s / ranks_per_socket};
  // HPL: the rest of the CPU side is single-threaded (Aurora paper, arXiv 2604.09517: Aurora's HPL
  // runs single-threaded oneMKL BLAS there); HPL-MxP's panel solves and
  // refinement run on the rank's threads (AMX; PPN 2 gives each rank a socket).
  if (sc.workload.benchmark == Benchmark::HplMxp) {
    ro.other_threading = ro.solve_threading = ro.panel_threading;
    // [U] The panel solves are level-3 BLAS over NB x (thousands of columns):
    // they split over threads by column blocks with no serial part worth
    // modelling, unlike the panel factorization's pivot-by-pivot leaves.
    ro.other_threading.serial_fraction = 0.0;
  }
  ro.seed = sc.options.seed;
  ro.private_resources = sc.options.private_resources;
  ro.noise = noise_config(sc);
  ro.device_message_overhead_s = sc.machine.placement.device_overhead_s();
  ro.device_message_rate_bytes_per_s = sc.machine.placement.device_rate_cap_bytes_per_s();
  return ro;
}

} // namespace hplsim::sim
