// `hplsim osu latency|bw|bibw SCENARIO`: the OSU point-to-point
// microbenchmarks simulated between two nodes of the scenario's machine
// (sim/engine/osu_bench.hpp), printed in OSU's own output format so that the
// same files feed `hplsim calibrate network` and can be set beside real runs.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "sim/cli/commands.hpp"
#include "sim/engine/osu_bench.hpp"
#include "sim/scenario/scenario_defaults.hpp"

namespace hplsim::sim {

namespace {

struct OsuArgs {
  OsuBench bench;
  std::string scenario;
  std::vector<std::string> set;
};

int run_osu(const OsuArgs& args) {
  ScenarioOverrides overrides;
  overrides.set = args.set;
  const ResolvedScenario sc = resolve(load_scenario(args.scenario, overrides));
  const OsuResult r = simulate_osu(sc, args.bench);
  const std::string& kind = args.bench.kind;
  if (kind == "latency") {
    std::printf("# OSU MPI Latency Test v5.6.3 (simulated by hplsim: %s, nodes %d and %d)\n", sc.name.c_str(),
                args.bench.node_a, args.bench.node_b);
    std::printf("# Size          Latency (us)\n");
  } else {
    std::printf("# OSU MPI %s Test v5.6.3 (simulated by hplsim: %s, nodes %d and %d)\n",
                kind == "bw" ? "Bandwidth" : "Bi-Directional Bandwidth", sc.name.c_str(), args.bench.node_a,
                args.bench.node_b);
    std::printf("# Size      Bandwidth (MB/s)\n");
  }
  for (std::size_t i = 0; i < r.sizes_bytes.size(); ++i)
    std::printf("%-10lld%18.2f\n", static_cast<long long>(r.sizes_bytes[i]), r.values[i]);
  return 0;
}

} // namespace

Command add_osu_command(CLI::App& app) {
  auto a = std::make_shared<OsuArgs>();
  auto* osu =
      app.add_subcommand("osu", "Simulate the OSU point-to-point microbenchmarks on a scenario's machine");
  osu->add_option("kind", a->bench.kind, "latency | bw | bibw")
      ->required()
      ->check(CLI::IsMember({"latency", "bw", "bibw"}));
  osu->add_option("scenario", a->scenario, "Scenario file (.textproto)")->required();
  osu->add_option("--max-bytes", a->bench.max_bytes, "Largest message size (default 4194304, OMB's)")
      ->check(at_least(1));
  osu->add_option("--window", a->bench.window, "Window size for bw/bibw (default 64, OMB's)")
      ->check(at_least(1));
  osu->add_option("--iterations", a->bench.iterations,
                  "Iterations per size (the simulation is deterministic)")
      ->check(at_least(1));
  osu->add_option_function<std::vector<int>>(
         "--pair",
         [a](const std::vector<int>& v) {
           a->bench.node_a = v.at(0);
           a->bench.node_b = v.at(1);
         },
         "The two node ids A B the messages go between (default 0 1)")
      ->expected(2)
      ->check(at_least(0));
  osu->add_option("--set", a->set,
                  "Override a scenario field: FIELD.PATH=VALUE (repeatable), e.g. "
                  "machine.protocol.eager_threshold_bytes=32768");
  return {osu, [a]() { return run_osu(*a); }};
}

} // namespace hplsim::sim
