#pragma once
// One replayed step of hand-written per-rank programs (shared by the sim tests).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "models/kernel_model.hpp"
#include "models/noise.hpp"
#include "sim/engine/engine_setup.hpp"
#include "sim/engine/platform.hpp"
#include "sim/engine/replay.hpp"
#include "tests/sim/engine/isolated.hpp"

namespace hplsim::sim {

/// A schedule whose steps in `steps` each give rank r the ops programs[r]
/// (other steps are empty).
inline StepSource steps_source(const std::vector<std::vector<traces::Op>>& programs,
                               std::vector<std::int64_t> steps) {
  return [&programs, steps = std::move(steps)](std::int64_t k, traces::StepSchedule& out) {
    out.set_step(k);
    if (std::find(steps.begin(), steps.end(), k) == steps.end()) return;
    for (std::size_t r = 0; r < programs.size(); ++r) {
      auto* p = out.add_ranks();
      p->set_rank(static_cast<int>(r));
      for (const auto& op : programs[r])
        *p->add_ops() = op;
    }
  };
}

/// A schedule whose step 0 gives rank r the ops programs[r] (other steps are empty).
inline StepSource one_step_source(const std::vector<std::vector<traces::Op>>& programs) {
  return steps_source(programs, {0});
}

/// Replay options for step 0 alone.
/// One rank per node on one core, each core with a detour of `length_s` every
/// `period_s` at its own phase (models/noise.hpp).
inline std::shared_ptr<models::NoiseConfig> periodic_core_noise(double period_s, double length_s) {
  auto c = std::make_shared<models::NoiseConfig>();
  models::NoiseSource* s = c->params.add_sources();
  s->set_scope(models::NoiseSource::CORE);
  s->mutable_periodic()->set_period_s(period_s);
  s->mutable_periodic()->set_length_s(length_s);
  c->traces.resize(1);
  c->layout = {1, 1, 1, 0};
  return c;
}

inline ReplayOptions one_step_options() {
  ReplayOptions ro;
  ro.steps = 1;
  ro.n = 1;
  ro.nb = 1;
  ro.step_list = {0};
  return ro;
}

/// Makespan of step 0 of `programs` (R ranks, `ranks_per_node` consecutive
/// ranks on each node of `topology` in order, one socket, one NIC, a
/// row-major grid of `q` columns, no kernels), simulated in a forked child
/// (tests/sim/engine/isolated.hpp).
inline double grid_makespan(const topo::Topology& topology, topo::Routing routing,
                            const std::vector<std::vector<traces::Op>>& programs, int ranks_per_node, int q,
                            const std::function<void(ReplayOptions&)>& tweak_options = nullptr) {
  return run_isolated([&]() {
           auto engine = create_engine();
           ReplayOptions options = one_step_options();
           if (tweak_options) tweak_options(options);
           allow_flow_rate_caps(options.device_message_rate_bytes_per_s);
           PlatformSpec spec;
           spec.topology = &topology;
           spec.routing = routing;
           for (int n = 0; n < static_cast<int>(programs.size()) / ranks_per_node; ++n)
             spec.node_map.push_back(n);
           spec.ranks_per_node = ranks_per_node;
           spec.sockets = 1;
           spec.nics_per_socket = 1;
           spec.shm_bandwidth_bytes_per_s = 20e9;
           spec.rank_row = [q](int r) { return r / q; };
           spec.rank_col = [q](int r) { return r % q; };
           Platform platform(spec);
           const models::KernelModels kernels(models::KernelCalibration{});
           Replay replay(platform, kernels, nullptr, one_step_source(programs), options);
           replay.start();
           engine->run();
           return std::vector<double>{replay.makespan_s()};
         })
      .at(0);
}

/// grid_makespan with rank r alone on node r, in a 1 x R grid.
inline double one_rank_per_node_makespan(const topo::Topology& topology, topo::Routing routing,
                                         const std::vector<std::vector<traces::Op>>& programs,
                                         const std::function<void(ReplayOptions&)>& tweak_options = nullptr) {
  return grid_makespan(topology, routing, programs, 1, static_cast<int>(programs.size()), tweak_options);
}

} // namespace hplsim::sim
