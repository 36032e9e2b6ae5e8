#include "sim/bench/osu_collectives.hpp"

#include <algorithm>
#include <limits>
#include <memory>

#include <simgrid/s4u.hpp>

#include "models/noise.hpp"
#include "sim/bench/bench_scenario.hpp"
#include "sim/bench/coll_matcher.hpp"
#include "sim/bench/osu_node_flows.hpp"
#include "sim/engine/engine_setup.hpp"
#include "sim/engine/machine.hpp"
#include "sim/engine/replay_setup.hpp"
#include "sim/support/errors.hpp"

namespace hplsim::sim {

namespace {
namespace sg4 = simgrid::s4u;

constexpr std::int64_t kOsuBufferCapBytes = 512LL << 20; // OMB's per-rank buffer limit (512 MiB)

struct Shared {
  std::vector<std::int64_t> sizes;
  std::vector<std::vector<double>> latency_s; // [size][rank]
  std::vector<mpi::CollCall> calls;           // per size, algorithm chosen
  std::vector<bool> node_flows;               // per size: node-level flows
  double reduce_bytes_per_s = 0;
};

} // namespace

std::vector<std::int64_t> osu_collective_sizes(const OsuCollectiveBench& b) {
  if (b.collective == mpi::BARRIER) return {0};
  const bool floats = b.collective == mpi::ALLREDUCE || b.collective == mpi::REDUCE;
  std::int64_t max = b.max_bytes;
  const bool per_rank_buffer = b.collective == mpi::ALLGATHER || b.collective == mpi::ALLTOALL ||
                               b.collective == mpi::GATHER || b.collective == mpi::SCATTER;
  if (per_rank_buffer)
    max = std::min<std::int64_t>(max, kOsuBufferCapBytes / (std::int64_t{b.nodes} * b.ppn));
  std::vector<std::int64_t> sizes;
  for (std::int64_t s = std::max<std::int64_t>(b.min_bytes, floats ? 4 : 1); s <= max; s *= 2)
    sizes.push_back(s);
  return sizes;
}

namespace {

mpi::CollCall call_for(const ResolvedScenario& sc, const OsuCollectiveBench& b, std::int64_t bytes) {
  mpi::CollCall call;
  call.collective = b.collective;
  call.size = b.nodes * b.ppn;
  call.bytes = bytes;
  if (b.algorithm) {
    call.algorithm = *b.algorithm;
    return call;
  }
  call.ppn = b.ppn;
  if (!mpi::select_algorithm(sc.machine.mpi, call))
    throw InputError("machine.mpi: no rule of " +
                     (sc.machine.mpi_path.empty() ? sc.base_dir : sc.machine.mpi_path) +
                     " selects an algorithm for " + mpi::collective_name(b.collective) + " of " +
                     std::to_string(bytes) + " bytes on " + std::to_string(call.size) + " processes (" +
                     std::to_string(b.ppn) + " per node): add a rule, or give --algorithm");
  return call;
}

} // namespace

bool uses_node_flows(const OsuCollectiveBench& b, const mpi::CollCall& call) {
  if (b.flows == OsuCollectiveBench::Flows::Rank || !node_flows_apply(call)) return false;
  if (b.flows == OsuCollectiveBench::Flows::Node) return true;
  return (call.algorithm == mpi::PAIRWISE || call.algorithm == mpi::SCATTERED) &&
         b.nodes > OsuCollectiveBench::kNodeFlowsAboveNodes;
}

void check_osu_collective(const ResolvedScenario& sc, const OsuCollectiveBench& b) {
  check_bench_ranks(sc, b.nodes, b.ppn);
  if (b.min_bytes < 0 || b.max_bytes < 1 || b.min_bytes > b.max_bytes ||
      b.max_bytes > (std::int64_t{1} << 30))
    throw InputError("--min-bytes " + std::to_string(b.min_bytes) + " --max-bytes " +
                     std::to_string(b.max_bytes) + ": 0 <= min <= max, 1 <= max <= 1073741824 (1 GiB)");
  if (b.algorithm && !mpi::implements(*b.algorithm, b.collective))
    throw InputError("--algorithm " + mpi::algorithm_name(*b.algorithm) + " does not implement " +
                     mpi::collective_name(b.collective));
  const std::vector<std::int64_t> sizes = osu_collective_sizes(b);
  if (sizes.empty())
    throw InputError("--min-bytes " + std::to_string(b.min_bytes) +
                     ": above the largest size OSU runs here (" +
                     std::to_string(std::min<std::int64_t>(
                         b.max_bytes, kOsuBufferCapBytes / (std::int64_t{b.nodes} * b.ppn))) +
                     " B: --max-bytes, or 512 MiB over the ranks for a rank's buffer)");
  bool node_flows_fit = false;
  for (std::int64_t s : sizes) {
    const mpi::CollCall call = call_for(sc, b, s);
    node_flows_fit = node_flows_fit || node_flows_apply(call);
    // A node-aware call's stages are selected as its program is built: member 0 runs every stage.
    if (call.node_aware) try {
        (void)mpi::collective_program(call, 0);
      } catch (const std::invalid_argument& e) {
        throw InputError(std::string("machine.mpi: ") + e.what());
      }
  }
  if (b.flows == OsuCollectiveBench::Flows::Node && !node_flows_fit)
    throw InputError("--flows node: node-level flows run the alltoall's Bruck, pairwise and scattered "
                     "algorithms only, and no size of osu " +
                     mpi::collective_name(b.collective) + " here runs one of them");
}

std::vector<OsuCollectiveRow> simulate_osu_collective(const ResolvedScenario& sc,
                                                      const OsuCollectiveBench& b) {
  check_osu_collective(sc, b);
  const int ranks = b.nodes * b.ppn;
  ResolvedScenario s = bench_scenario(sc, b.nodes, b.ppn);
  // The noise only: the other variability sources (kernel rates, links) are HPL's.
  const models::NoiseParams noise_params = sc.machine.variability.noise();
  s.machine.variability = {};
  if (b.noise) *s.machine.variability.mutable_noise() = noise_params;
  s.machine.placement.gpu_aware_mpi = false;
  s.faults.Clear();
  BuiltMachine m = build_machine(s, [](PlatformSpec& spec) { spec.gpus_per_rank = 0; });
  const auto config = noise_config(s);
  std::unique_ptr<models::NoiseModel> noise;
  if (config && config->active()) noise = std::make_unique<models::NoiseModel>(config, sc.options.seed);
  const StepNoise step_noise{noise.get(), m.protocol.get()};
  const int iterations = b.iterations > 0 ? b.iterations : noise ? OsuCollectiveBench::kNoisyIterations : 1;

  Shared shared;
  shared.sizes = osu_collective_sizes(b);
  shared.latency_s.assign(shared.sizes.size(), std::vector<double>(static_cast<std::size_t>(ranks), 0.0));
  for (std::int64_t bytes : shared.sizes) {
    shared.calls.push_back(call_for(sc, b, bytes));
    shared.node_flows.push_back(uses_node_flows(b, shared.calls.back()));
  }
  const bool any_node_flows =
      std::find(shared.node_flows.begin(), shared.node_flows.end(), true) != shared.node_flows.end();
  shared.reduce_bytes_per_s =
      sc.machine.mpi.has_reduce_bytes_per_s() ? sc.machine.mpi.reduce_bytes_per_s() : 0.0;
  CollMatcher matcher(*m.platform, ranks);
  NodeFlows node_flows(*m.platform, b.nodes, b.ppn);
  // Node actors take the sizes that run with node-level flows, rank actors the others.
  const int node_actors = any_node_flows ? b.nodes : 0;
  sg4::BarrierPtr start = sg4::Barrier::create(static_cast<unsigned>(ranks + node_actors));
  for (int n = 0; n < node_actors; ++n) {
    sg4::Actor::create("osu-node" + std::to_string(n), m.platform->cpu(n * b.ppn), [&, n]() {
      for (std::size_t i = 0; i < shared.sizes.size(); ++i)
        for (int it = 0; it < iterations; ++it) {
          start->wait();
          if (!shared.node_flows[i]) continue;
          const double t0 = sg4::Engine::get_clock();
          node_flows.run(n, shared.calls[i], shared.reduce_bytes_per_s);
          for (int r = n * b.ppn; r < (n + 1) * b.ppn; ++r)
            shared.latency_s[i][static_cast<std::size_t>(r)] += (sg4::Engine::get_clock() - t0) / iterations;
        }
    });
  }
  for (int r = 0; r < ranks; ++r) {
    sg4::Actor::create("osu" + std::to_string(r), m.platform->cpu(r), [&, r]() {
      for (std::size_t i = 0; i < shared.sizes.size(); ++i) {
        const mpi::CollProgram program =
            shared.node_flows[i] ? mpi::CollProgram{} : mpi::collective_program(shared.calls[i], r);
        for (int it = 0; it < iterations; ++it) {
          start->wait(); // OSU's MPI_Barrier between iterations, taken as instantaneous
          if (shared.node_flows[i]) continue;
          const double t0 = sg4::Engine::get_clock();
          matcher.run(r, program, shared.reduce_bytes_per_s, step_noise);
          shared.latency_s[i][static_cast<std::size_t>(r)] += (sg4::Engine::get_clock() - t0) / iterations;
        }
      }
    });
  }
  m.engine->run();
  if (aggregate_flows_not_started() != 0)
    throw std::logic_error("node-level flows: " + std::to_string(aggregate_flows_not_started()) +
                           " announced flows never started");

  std::vector<OsuCollectiveRow> rows;
  for (std::size_t i = 0; i < shared.sizes.size(); ++i) {
    const std::vector<double>& v = shared.latency_s[i];
    OsuCollectiveRow row;
    row.bytes = shared.sizes[i];
    double sum = 0;
    row.min_us = std::numeric_limits<double>::infinity();
    for (double t : v) {
      sum += t;
      row.min_us = std::min(row.min_us, t * 1e6);
      row.max_us = std::max(row.max_us, t * 1e6);
    }
    row.avg_us = sum / static_cast<double>(v.size()) * 1e6;
    row.algorithm = mpi::describe(shared.calls[i]);
    row.node_flows = shared.node_flows[i];
    row.iterations = iterations;
    row.noisy = noise != nullptr;
    rows.push_back(row);
  }
  return rows;
}

} // namespace hplsim::sim
