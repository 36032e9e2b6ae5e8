// `hplsim osu latency|bw|bibw SCENARIO`: the OSU point-to-point
// microbenchmarks simulated between two nodes of the scenario's machine
// (sim/bench/osu_bench.hpp); `hplsim osu allreduce|allgather|alltoall|bcast|
// reduce|barrier|gather|scatter SCENARIO --nodes K --ppn R`: the OSU
// collective latency tests on K nodes of R ranks (sim/bench/osu_collectives.hpp).
// Both print OSU's own output format so that the same files feed
// `hplsim calibrate network` and can be set beside real runs.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "sim/bench/osu_bench.hpp"
#include "sim/bench/osu_collectives.hpp"
#include "sim/cli/commands.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "sim/support/errors.hpp"

namespace hplsim::sim {

namespace {

const std::vector<std::string> kPointToPoint = {"latency", "bw", "bibw"};

struct OsuArgs {
  OsuBench bench;
  OsuCollectiveBench coll;
  std::string algorithm;
  std::int64_t max_bytes = 0; // 0: OMB's default for the kind
  bool full = false;
  int iterations = 0; // --iterations given (collectives)
  bool no_noise = false;
  std::string scenario;
  std::vector<std::string> set;
};

std::string upper(std::string s) {
  for (char& ch : s)
    ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

std::string title_case(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

// Runs of consecutive rows with the same label, each as `format(label, "4-2048")`,
// joined by ", "; rows whose label is empty belong to no run.
template <class Label, class Format>
std::string size_runs(const std::vector<OsuCollectiveRow>& rows, Label label, Format format) {
  std::string out;
  for (std::size_t i = 0; i < rows.size();) {
    const std::string l = label(rows[i]);
    std::size_t j = i;
    while (j + 1 < rows.size() && label(rows[j + 1]) == l)
      ++j;
    if (!l.empty()) {
      if (!out.empty()) out += ", ";
      out += format(l, std::to_string(rows[i].bytes) + (j > i ? "-" + std::to_string(rows[j].bytes) : ""));
    }
    i = j + 1;
  }
  return out;
}

// The algorithm of each size ("recursive_doubling 4-2048 B, ...").
std::string algorithm_runs(const std::vector<OsuCollectiveRow>& rows) {
  return size_runs(
      rows, [](const OsuCollectiveRow& r) { return r.algorithm; },
      [](const std::string& algorithm, const std::string& sizes) { return algorithm + " " + sizes + " B"; });
}

// The sizes run with node-level flows ("512-262144").
std::string node_flow_runs(const std::vector<OsuCollectiveRow>& rows) {
  return size_runs(
      rows, [](const OsuCollectiveRow& r) { return std::string(r.node_flows ? "node" : ""); },
      [](const std::string&, const std::string& sizes) { return sizes; });
}

int run_osu_collective(const OsuArgs& args, const ResolvedScenario& sc) {
  OsuCollectiveBench b = args.coll;
  if (args.max_bytes > 0) b.max_bytes = args.max_bytes;
  if (args.iterations > 0) b.iterations = args.iterations;
  b.noise = !args.no_noise;
  mpi::Collective c{};
  mpi::Collective_Parse(upper(args.bench.kind), &c);
  b.collective = c;
  if (!args.algorithm.empty()) {
    mpi::CollectiveAlgorithm a{};
    if (!mpi::CollectiveAlgorithm_Parse(upper(args.algorithm), &a) || a == mpi::ALGORITHM_UNSET)
      throw InputError("--algorithm " + args.algorithm +
                       ": not an algorithm hplsim knows (traces/collectives.proto)");
    b.algorithm = a;
  }
  const std::vector<OsuCollectiveRow> rows = simulate_osu_collective(sc, b);
  std::printf("\n# OSU MPI %s Latency Test v5.6.3\n", title_case(args.bench.kind).c_str());
  std::printf("# simulated by hplsim: %s, %d nodes x %d ranks, %s\n", sc.name.c_str(), b.nodes, b.ppn,
              args.algorithm.empty()
                  ? (sc.machine.mpi.library().empty() ? "machine.mpi" : sc.machine.mpi.library().c_str())
                  : "--algorithm");
  std::printf("# algorithms: %s\n", algorithm_runs(rows).c_str());
  if (rows.front().noisy)
    std::printf("# system noise: machine.variability.noise (%d sources), %d iterations a size averaged\n",
                sc.machine.variability.noise().sources_size(), rows.front().iterations);
  else
    std::printf("# no system noise%s, %d iteration%s a size\n",
                sc.machine.variability.noise().sources_size() > 0 ? " (--no-noise)" : "",
                rows.front().iterations, rows.front().iterations == 1 ? "" : "s");
  const std::string node_sizes = node_flow_runs(rows);
  if (!node_sizes.empty())
    std::printf("# node-level flows (docs/collectives.md, \"Node-level flows\"): %s B\n", node_sizes.c_str());
  if (b.collective == mpi::BARRIER) {
    std::printf("# Avg Latency(us)\n%17.2f\n", rows.front().avg_us);
    return 0;
  }
  if (args.full) {
    std::printf("%-10s%20s%20s%20s%12s\n", "# Size", "Avg Latency(us)", "Min Latency(us)", "Max Latency(us)",
                "Iterations");
    for (const OsuCollectiveRow& r : rows)
      std::printf("%-10lld%20.2f%20.2f%20.2f%12d\n", static_cast<long long>(r.bytes), r.avg_us, r.min_us,
                  r.max_us, 1);
    return 0;
  }
  std::printf("%-10s%20s\n", "# Size", "Avg Latency(us)");
  for (const OsuCollectiveRow& r : rows)
    std::printf("%-10lld%20.2f\n", static_cast<long long>(r.bytes), r.avg_us);
  return 0;
}

int run_osu(const OsuArgs& args) {
  ScenarioOverrides overrides;
  overrides.set = args.set;
  const ResolvedScenario sc = resolve(load_scenario(args.scenario, overrides));
  if (std::find(kPointToPoint.begin(), kPointToPoint.end(), args.bench.kind) == kPointToPoint.end())
    return run_osu_collective(args, sc);
  OsuBench bench = args.bench;
  if (args.max_bytes > 0) bench.max_bytes = args.max_bytes;
  if (args.iterations > 0) bench.iterations = args.iterations;
  if (bench.max_bytes > (std::int64_t{1} << 30))
    throw InputError("--max-bytes " + std::to_string(bench.max_bytes) + ": at most 1073741824 (1 GiB)");
  const OsuResult r = simulate_osu(sc, bench);
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
  auto* osu = app.add_subcommand("osu", "Simulate the OSU point-to-point and collective microbenchmarks on a "
                                        "scenario's machine");
  osu->add_option("kind", a->bench.kind,
                  "latency | bw | bibw (two nodes), or allreduce | allgather | alltoall | bcast | reduce | "
                  "barrier | gather | scatter (--nodes x --ppn ranks)")
      ->required()
      ->check(CLI::IsMember({"latency", "bw", "bibw", "allreduce", "allgather", "alltoall", "bcast", "reduce",
                             "barrier", "gather", "scatter"}));
  osu->add_option("scenario", a->scenario, "Scenario file (.textproto)")->required();
  osu->add_option("--max-bytes", a->max_bytes,
                  "Largest message size (OMB's defaults: 4194304 point to point, 1048576 for collectives)")
      ->check(at_least(1));
  osu->add_option("--window", a->bench.window, "Window size for bw/bibw (default 64, OMB's)")
      ->check(at_least(1));
  osu->add_option("--iterations", a->iterations,
                  "Iterations per size (default: 10 point to point; collectives: 1 on a quiet machine, 10 "
                  "under the scenario's system noise, averaged)")
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
  osu->add_option("--nodes", a->coll.nodes, "Collectives: nodes (default 2)")->check(at_least(1));
  osu->add_option("--ppn", a->coll.ppn, "Collectives: ranks per node (default 1)")->check(at_least(1));
  osu->add_option("--min-bytes", a->coll.min_bytes,
                  "Collectives: smallest message size (default 1; 4 for allreduce, reduce)")
      ->check(at_least(0));
  osu->add_option("--algorithm", a->algorithm,
                  "Collectives: run this algorithm at every size instead of the scenario's machine.mpi table "
                  "(e.g. ring, recursive_doubling, rabenseifner, bruck, pairwise, binomial)");
  osu->add_flag("--no-noise", a->no_noise,
                "Collectives: run without the scenario's system noise (machine.variability.noise)");
  osu->add_flag("--full", a->full, "Collectives: also the minimum and maximum over the ranks (OSU's -f)");
  osu->add_option_function<std::string>(
         "--flows",
         [a](const std::string& v) {
           a->coll.flows = v == "rank"   ? OsuCollectiveBench::Flows::Rank
                           : v == "node" ? OsuCollectiveBench::Flows::Node
                                         : OsuCollectiveBench::Flows::Auto;
         },
         "Collectives: rank (a SimGrid flow per message), node (a node's ranks step together, their messages "
         "to one node as a few flows; the alltoall only), or auto (default: node for the alltoall's pairwise "
         "and scattered algorithms above 8 nodes; docs/collectives.md)")
      ->check(CLI::IsMember({"auto", "rank", "node"}));
  osu->add_option("--set", a->set,
                  "Override a scenario field: FIELD.PATH=VALUE (repeatable), e.g. "
                  "machine.protocol.eager_threshold_bytes=32768");
  return {osu, [a, osu]() {
            const bool p2p =
                std::find(kPointToPoint.begin(), kPointToPoint.end(), a->bench.kind) != kPointToPoint.end();
            for (const char* flag :
                 {"--nodes", "--ppn", "--min-bytes", "--algorithm", "--full", "--flows", "--no-noise"})
              if (p2p && osu->count(flag) > 0)
                throw InputError(std::string(flag) + ": a collectives flag; osu " + a->bench.kind +
                                 " runs between two nodes (--pair A B)");
            for (const char* flag : {"--pair", "--window"})
              if (!p2p && osu->count(flag) > 0)
                throw InputError(std::string(flag) + ": a point-to-point flag; osu " + a->bench.kind +
                                 " runs on --nodes x --ppn ranks");
            return run_osu(*a);
          }};
}

} // namespace hplsim::sim
