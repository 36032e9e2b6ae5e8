#include "sim/bench/osu_bench.hpp"

#include <simgrid/s4u.hpp>

#include "sim/engine/machine.hpp"
#include "sim/support/errors.hpp"

namespace hplsim::sim {

namespace {
namespace sg4 = simgrid::s4u;
int g_payload = 0; // what every simulated message carries: SimGrid needs a pointer
} // namespace

OsuResult simulate_osu(const ResolvedScenario& sc, const OsuBench& args) {
  const int nodes = sc.machine.topology.nodes;
  if (args.node_a == args.node_b || args.node_a < 0 || args.node_b < 0 || args.node_a >= nodes ||
      args.node_b >= nodes)
    throw InputError("--pair " + std::to_string(args.node_a) + " " + std::to_string(args.node_b) +
                     ": two distinct node ids below the machine's " + std::to_string(nodes) +
                     " nodes are needed");
  // Two ranks, one per chosen node, with host buffers (as OMB runs by default)
  // and no variability; the machine is the scenario's.
  ResolvedScenario two = sc;
  two.workload.nodes = 2;
  two.workload.ranks_per_node = 1;
  two.workload.p = 1;
  two.workload.q = 2;
  two.workload.benchmark = Benchmark::Hpl;
  two.machine.variability = {};
  two.machine.placement.gpu_aware_mpi = false;
  two.faults.Clear();
  BuiltMachine m = build_machine(two, [&args](PlatformSpec& spec) {
    spec.node_map = {args.node_a, args.node_b};
    spec.gpus_per_rank = 0;
  });
  std::vector<std::int64_t> sizes;
  if (args.kind == "latency") sizes.push_back(0);
  for (std::int64_t s = 1; s <= args.max_bytes; s *= 2)
    sizes.push_back(s);
  std::vector<double> results(sizes.size(), 0.0);

  sg4::Mailbox* ab = sg4::Mailbox::by_name("osu.a>b");
  sg4::Mailbox* ba = sg4::Mailbox::by_name("osu.b>a");
  const int iters = args.iterations;
  const int window = args.window;
  const std::string kind = args.kind;
  auto side = [&](bool is_a) {
    sg4::Mailbox* out = is_a ? ab : ba;
    sg4::Mailbox* in = is_a ? ba : ab;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const auto bytes = static_cast<std::uint64_t>(sizes[i]);
      const double t0 = sg4::Engine::get_clock();
      for (int it = 0; it < iters; ++it) {
        if (kind == "latency") {
          if (is_a) {
            out->put(&g_payload, bytes);
            in->get<int>();
          } else {
            in->get<int>();
            out->put(&g_payload, bytes);
          }
        } else {
          const bool sends = is_a || kind == "bibw";
          const bool receives = !is_a || kind == "bibw";
          std::vector<sg4::CommPtr> comms;
          std::vector<int*> slots(static_cast<std::size_t>(window), nullptr);
          if (receives)
            for (int w = 0; w < window; ++w)
              comms.push_back(in->get_async<int>(&slots[static_cast<std::size_t>(w)]));
          if (sends)
            for (int w = 0; w < window; ++w)
              comms.push_back(out->put_async(&g_payload, bytes));
          sg4::Comm::wait_all(comms);
          // The 4-byte reply that closes the window (osu_bw: receiver to sender).
          if (is_a)
            in->get<int>();
          else
            out->put(&g_payload, 4);
        }
      }
      const double dt = sg4::Engine::get_clock() - t0;
      if (is_a) {
        if (kind == "latency")
          results[i] = dt / (2.0 * iters) * 1e6; // microseconds
        else
          results[i] = double(bytes) * window * iters * (kind == "bibw" ? 2.0 : 1.0) / dt / 1e6; // MB/s
      }
    }
  };
  sg4::Actor::create("osu-a", m.platform->cpu(0), [&]() { side(true); });
  sg4::Actor::create("osu-b", m.platform->cpu(1), [&]() { side(false); });
  m.engine->run();
  return {sizes, results};
}

} // namespace hplsim::sim
