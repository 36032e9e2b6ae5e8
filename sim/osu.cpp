// `hplsim osu latency|bw|bibw SCENARIO`: the OSU point-to-point
// microbenchmarks (OMB 5.x: osu_latency, osu_bw, osu_bibw) simulated between two
// nodes of the scenario's machine, printed in OSU's own output format so that
// the same files feed `hplsim calibrate network` and can be set beside real runs.
//   osu_latency: ping-pong, latency = round trip / 2.
//   osu_bw:      a window of 64 back-to-back non-blocking sends, then a 4-byte
//                reply; bandwidth = 64 * size / time.
//   osu_bibw:    both sides send a window of 64 to each other at once.
#include <cstdio>
#include <iostream>
#include <memory>

#include <simgrid/s4u.hpp>

#include "models/protocol_model.hpp"
#include "models/variability.hpp"
#include "sim/cli_commands.hpp"
#include "sim/platform.hpp"
#include "sim/scenario_defaults.hpp"
#include "sim/simulation.hpp"

namespace hplsim::sim {

namespace {

struct OsuArgs {
  std::string kind; // latency | bw | bibw
  std::string scenario;
  std::int64_t max_bytes = 4 << 20; // OMB default maximum message size (4 MiB)
  int window = 64;                  // OMB default window for osu_bw / osu_bibw
  int iterations = 10;
  int node_a = 0, node_b = 1;
};

OsuArgs g_osu;
int g_payload = 0;

void run_osu(const OsuArgs& args) {
  const ResolvedScenario sc = resolve(load_scenario(args.scenario));
  auto engine = create_engine();
  const auto topology = make_topology(sc.machine);
  if (args.node_a == args.node_b || args.node_a < 0 || args.node_b < 0 ||
      args.node_a >= topology->node_count() || args.node_b >= topology->node_count())
    throw InputError("--nodes: two distinct nodes of the machine's " +
                     std::to_string(topology->node_count()) + " are needed");
  const models::Variability variability({}, topology->node_count(), 1, sc.options.seed, sc.base_dir);
  ResolvedScenario two = sc;
  two.workload.nodes = 2;
  two.workload.ranks_per_node = 1;
  two.workload.p = 1;
  two.workload.q = 2;
  two.workload.benchmark = Benchmark::Hpl;
  PlatformSpec spec = make_platform_spec(two, *topology, variability);
  spec.node_map = {args.node_a, args.node_b};
  spec.gpus_per_rank = 0; // host buffers, as OMB runs by default
  Platform platform(spec);
  std::unique_ptr<models::ProtocolModel> protocol;
  if (sc.machine.protocol.ByteSizeLong() > 0) {
    protocol = std::make_unique<models::ProtocolModel>(sc.machine.protocol);
    install_protocol(*protocol);
  }
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
  sg4::Actor::create("osu-a", platform.cpu(0), [&]() { side(true); });
  sg4::Actor::create("osu-b", platform.cpu(1), [&]() { side(false); });
  engine->run();

  if (kind == "latency") {
    std::printf("# OSU MPI Latency Test v5.6.3 (simulated by hplsim: %s, nodes %d and %d)\n", sc.name.c_str(),
                args.node_a, args.node_b);
    std::printf("# Size          Latency (us)\n");
  } else {
    std::printf("# OSU MPI %s Test v5.6.3 (simulated by hplsim: %s, nodes %d and %d)\n",
                kind == "bw" ? "Bandwidth" : "Bi-Directional Bandwidth", sc.name.c_str(), args.node_a,
                args.node_b);
    std::printf("# Size      Bandwidth (MB/s)\n");
  }
  for (std::size_t i = 0; i < sizes.size(); ++i)
    std::printf("%-10lld%18.2f\n", static_cast<long long>(sizes[i]), results[i]);
}

} // namespace

void add_osu_command(CLI::App& app) {
  auto* osu =
      app.add_subcommand("osu", "Simulate the OSU point-to-point microbenchmarks on a scenario's machine");
  osu->add_option("kind", g_osu.kind, "latency | bw | bibw")
      ->required()
      ->check(CLI::IsMember({"latency", "bw", "bibw"}));
  osu->add_option("scenario", g_osu.scenario, "Scenario file (.textproto)")->required();
  osu->add_option("--max-bytes", g_osu.max_bytes, "Largest message size (default 4194304, OMB's)");
  osu->add_option("--window", g_osu.window, "Window size for bw/bibw (default 64, OMB's)");
  osu->add_option("--iterations", g_osu.iterations, "Iterations per size (the simulation is deterministic)");
  osu->add_option_function<std::vector<int>>(
         "--nodes",
         [](const std::vector<int>& v) {
           g_osu.node_a = v.at(0);
           g_osu.node_b = v.at(1);
         },
         "The two nodes A B (default 0 1)")
      ->expected(2);
}

int run_osu_command() {
  run_osu(g_osu);
  return 0;
}

} // namespace hplsim::sim
