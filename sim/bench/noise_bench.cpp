#include "sim/bench/noise_bench.hpp"
#include "sim/bench/bench_scenario.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include <simgrid/s4u.hpp>

#include "models/noise.hpp"
#include "sim/engine/machine.hpp"
#include "sim/engine/replay_setup.hpp"
#include "sim/support/errors.hpp"

namespace hplsim::sim {

namespace {
namespace sg4 = simgrid::s4u;
int g_payload = 0; // what every simulated message carries: SimGrid needs a pointer
constexpr std::uint64_t kDoubleBytes = 8;

// One rank of the benchmark, in its actor.
class BenchRank {
public:
  BenchRank(int rank, int ranks, const NoiseBench& bench, const models::NoiseModel* noise,
            const models::ProtocolModel* protocol, std::vector<double>* iteration_s)
      : rank_(rank), ranks_(ranks), bench_(bench), noise_(noise), protocol_(protocol),
        iteration_s_(iteration_s) {}

  void operator()() {
    for (int it = 0; it < bench_.iterations; ++it) {
      const double t0 = sg4::Engine::get_clock();
      work();
      if (bench_.sync == "barrier")
        barrier();
      else
        allreduce();
      if (rank_ == 0) (*iteration_s_)[static_cast<std::size_t>(it)] = sg4::Engine::get_clock() - t0;
    }
  }

private:
  static sg4::Mailbox* box(int from, int to) {
    return sg4::Mailbox::by_name("nb" + std::to_string(from) + ">" + std::to_string(to));
  }
  double noise_delay_s(double work_s) const {
    return noise_ == nullptr ? 0.0 : noise_->rank_delay_s(rank_, 1, sg4::Engine::get_clock(), work_s);
  }
  void work() const {
    const double speed = sg4::this_actor::get_host()->get_speed();
    const double own_s = bench_.work_s * kWorkUnitsPerSecond / speed; // the node's rate factor included
    sg4::this_actor::execute((own_s + noise_delay_s(own_s)) * speed);
  }
  // A message's software overheads on this rank's core, stretched by its detours.
  void overheads(bool sends, bool receives) const {
    if (noise_ == nullptr || protocol_ == nullptr) return;
    const double o = (sends ? protocol_->send_overhead_s(kDoubleBytes) : 0.0) +
                     (receives ? protocol_->recv_overhead_s(kDoubleBytes) : 0.0);
    if (const double d = noise_delay_s(o); d > 0.0) sg4::this_actor::sleep_for(d);
  }
  void send(int to) const {
    overheads(true, false);
    box(rank_, to)->put(&g_payload, kDoubleBytes);
  }
  void recv(int from) const {
    overheads(false, true);
    box(from, rank_)->get<int>();
  }
  void sendrecv(int to, int from) const {
    overheads(true, true);
    sg4::CommPtr in = box(from, rank_)->get_async<int>(&slot_);
    sg4::CommPtr out = box(rank_, to)->put_async(&g_payload, kDoubleBytes);
    out->wait();
    in->wait();
  }
  // Recursive doubling over the largest power of two p2 <= ranks; rank p2 + i
  // hands its value to rank i first and gets the result back last (MPICH's
  // MPIR_Allreduce_intra_recursive_doubling for a non-power-of-two count).
  void allreduce() const {
    int p2 = 1;
    while (p2 * 2 <= ranks_)
      p2 *= 2;
    const int extra = ranks_ - p2;
    if (rank_ >= p2) {
      send(rank_ - p2);
      recv(rank_ - p2);
      return;
    }
    if (rank_ < extra) recv(rank_ + p2);
    for (int mask = 1; mask < p2; mask <<= 1)
      sendrecv(rank_ ^ mask, rank_ ^ mask);
    if (rank_ < extra) send(rank_ + p2);
  }
  // Dissemination (Hensgen, Finkel, Manber 1988): ceil(log2 ranks) rounds.
  void barrier() const {
    for (int k = 1; k < ranks_; k <<= 1)
      sendrecv((rank_ + k) % ranks_, (rank_ - k + ranks_) % ranks_);
  }

  int rank_, ranks_;
  const NoiseBench& bench_;
  const models::NoiseModel* noise_;
  const models::ProtocolModel* protocol_;
  std::vector<double>* iteration_s_;
  mutable int* slot_ = nullptr;
};

} // namespace

int check_noise_bench(const ResolvedScenario& sc, const NoiseBench& bench) {
  const int cores = sc.machine.node.cores_per_node();
  const int os_cores = sc.machine.variability.noise().os_cores_per_node();
  const int busy = bench.busy_cores > 0 ? bench.busy_cores : cores - os_cores;
  if (bench.nodes < 1 || bench.nodes > sc.machine.topology.nodes)
    throw InputError("--nodes " + std::to_string(bench.nodes) + ": the machine has " +
                     std::to_string(sc.machine.topology.nodes) + " nodes");
  if (busy < 1 || busy + os_cores > cores)
    throw InputError("--busy-cores " + std::to_string(busy) + ": a node has " + std::to_string(cores) +
                     " cores, " + std::to_string(os_cores) +
                     " of them reserved for the OS (machine.variability.noise.os_cores_per_node)");
  if (bench.nodes * busy < 2) throw InputError("--nodes x --busy-cores: at least 2 ranks are needed");
  return busy;
}

NoiseBenchResult simulate_noise_bench(const ResolvedScenario& sc, const NoiseBench& bench) {
  const int busy = check_noise_bench(sc, bench);
  const int cores = sc.machine.node.cores_per_node();
  ResolvedScenario s = bench_scenario(sc, bench.nodes, busy);
  s.machine.placement.gpu_aware_mpi = false;
  s.faults.Clear();
  BuiltMachine m = build_machine(s, [](PlatformSpec& spec) { spec.gpus_per_rank = 0; });
  NoiseBenchResult result;
  result.ranks = bench.nodes * busy;
  result.busy_cores = busy;
  result.spare_cores = cores - busy;
  result.iteration_s.assign(static_cast<std::size_t>(bench.iterations), 0.0);
  const auto config = noise_config(s);
  std::unique_ptr<models::NoiseModel> noise;
  if (config && config->active()) noise = std::make_unique<models::NoiseModel>(config, sc.options.seed);
  for (int r = 0; r < result.ranks; ++r)
    sg4::Actor::create("bench" + std::to_string(r), m.platform->cpu(r),
                       BenchRank(r, result.ranks, bench, noise.get(), m.protocol.get(), &result.iteration_s));
  m.engine->run();
  return result;
}

double iteration_percentile_s(const NoiseBenchResult& result, double p) {
  std::vector<double> v = result.iteration_s;
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(v.size())));
  return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
}

} // namespace hplsim::sim
