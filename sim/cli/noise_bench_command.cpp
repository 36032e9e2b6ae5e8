// `hplsim noise-bench SCENARIO`: the bulk-synchronous noise microbenchmark
// (sim/bench/noise_bench.hpp) on a scenario's machine with its noise sources:
// the iteration-time distribution on stdout, every iteration in
// iterations.csv, its distribution function in iterations.svg.
#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "sim/bench/noise_bench.hpp"
#include "sim/cli/commands.hpp"
#include "sim/report/about.hpp"
#include "sim/report/ecdf_svg.hpp"
#include "sim/report/format.hpp"
#include "sim/support/child_process.hpp"
#include "sim/support/output_files.hpp"

namespace hplsim::sim {

namespace {

struct NoiseBenchArgs {
  NoiseBench bench;
  std::vector<int> busy_cores; // one case each; empty: every core the OS leaves
  std::string scenario, out;
  std::vector<std::string> set;
  unsigned long long seed = 0;
  bool has_seed = false;
};

// A case's result as text (numbers at full precision) and back: each case
// runs in a process of its own (SimGrid allows one engine per process).
std::string result_text(const NoiseBenchResult& r) {
  std::ostringstream text;
  text << std::setprecision(17) << r.ranks << ' ' << r.busy_cores << ' ' << r.spare_cores;
  for (const double t : r.iteration_s)
    text << ' ' << t;
  return text.str();
}

NoiseBenchResult result_of(const std::string& answer) {
  std::istringstream text(answer);
  NoiseBenchResult r;
  text >> r.ranks >> r.busy_cores >> r.spare_cores;
  for (double t; text >> t;)
    r.iteration_s.push_back(t);
  return r;
}

int run_noise_bench(const NoiseBenchArgs& a) {
  ScenarioOverrides o;
  o.set = a.set;
  if (a.has_seed) o.seed = a.seed;
  const ResolvedScenario sc = resolve(load_scenario(a.scenario, o));
  const std::string out = a.out.empty() ? "hplsim-out/" + sc.name + "-noise-bench" : a.out;
  prepare_output_dir(out);
  write_about_json({"noise-bench", sc.name, sc.description, "", "", sc.options.seed}, out);
  const std::vector<int> cases = a.busy_cores.empty() ? std::vector<int>{0} : a.busy_cores;
  std::vector<NoiseBench> benches;
  for (const int busy : cases) {
    benches.push_back(a.bench);
    benches.back().busy_cores = busy;
    check_noise_bench(sc, benches.back()); // here, not in the case's process: an input error is the user's
  }
  std::vector<NoiseBenchResult> results(benches.size());
  ChildPool(window_workers(0))
      .run(
          benches.size(), [&](std::size_t i) { return result_text(simulate_noise_bench(sc, benches[i])); },
          [&](std::size_t i, const std::string& answer) { results[i] = result_of(answer); });
  const auto us = [](double s) { return format_sig(s * 1e6, 4); };
  std::printf("noise-bench on %s: %d nodes, %d iterations of %s us of work on every busy core, then %s\n",
              sc.name.c_str(), a.bench.nodes, a.bench.iterations, us(a.bench.work_s).c_str(),
              a.bench.sync == "barrier" ? "MPI_Barrier" : "MPI_Allreduce");
  std::printf("%-11s %-11s %6s %10s %10s %10s %10s %16s\n", "busy cores", "free cores", "ranks", "min us",
              "median us", "p99 us", "max us", "> 1.1 x median");
  EcdfPanel panel;
  panel.title = "Iteration time, " + std::to_string(a.bench.nodes) + " nodes";
  panel.x_label = "iteration time (us)";
  panel.y_label = "share of iterations";
  for (const NoiseBenchResult& r : results) {
    const double median_s = iteration_percentile_s(r, 50);
    const auto slow = std::count_if(r.iteration_s.begin(), r.iteration_s.end(),
                                    [&](double t) { return t > 1.1 * median_s; });
    std::printf(
        "%-11d %-11d %6d %10s %10s %10s %10s %9lld (%s%%)\n", r.busy_cores, r.spare_cores, r.ranks,
        us(iteration_percentile_s(r, 0)).c_str(), us(median_s).c_str(),
        us(iteration_percentile_s(r, 99)).c_str(), us(iteration_percentile_s(r, 100)).c_str(),
        static_cast<long long>(slow),
        format_sig(100.0 * static_cast<double>(slow) / static_cast<double>(r.iteration_s.size()), 3).c_str());
    EcdfSeries series;
    series.name = std::to_string(r.busy_cores) + " busy cores";
    for (const double t : r.iteration_s)
      series.values.push_back(t * 1e6);
    panel.series.push_back(std::move(series));
  }
  write_file_atomically(out + "/iterations.csv", [&](std::ostream& f) {
    f << "busy_cores,iteration,time_s\n" << std::setprecision(17);
    for (const NoiseBenchResult& r : results)
      for (std::size_t i = 0; i < r.iteration_s.size(); ++i)
        f << r.busy_cores << ',' << i << ',' << r.iteration_s[i] << '\n';
  });
  write_file_atomically(out + "/iterations.svg", [&](std::ostream& f) { f << ecdf_svg({panel}); });
  std::printf("outputs: %s/{iterations.csv,iterations.svg}\n", out.c_str());
  return 0;
}

} // namespace

Command add_noise_bench_command(CLI::App& app) {
  auto a = std::make_shared<NoiseBenchArgs>();
  auto* cmd = app.add_subcommand(
      "noise-bench",
      "Simulate a bulk-synchronous noise microbenchmark (work, then a collective, per iteration) "
      "on a scenario's machine with its system noise");
  cmd->add_option("scenario", a->scenario, "Scenario file (.textproto)")->required();
  cmd->add_option("--nodes", a->bench.nodes, "Nodes (default 4)")->check(at_least(1));
  cmd->add_option("--busy-cores", a->busy_cores,
                  "Ranks per node, one per core; several (48,47,46) compare them (default: every core not "
                  "reserved for the OS)")
      ->delimiter(',')
      ->check(at_least(1));
  cmd->add_option("--iterations", a->bench.iterations, "Iterations (default 500)")->check(at_least(1));
  cmd->add_option("--work-s", a->bench.work_s,
                  "CPU work per iteration on every rank, in seconds (default 1e-3)")
      ->check(greater_than_zero());
  cmd->add_option("--sync", a->bench.sync, "allreduce | barrier (default allreduce)")
      ->check(CLI::IsMember({"allreduce", "barrier"}));
  cmd->add_option("--seed", a->seed, "Random seed of the noise (default: the scenario's)")
      ->each([a](const std::string&) { a->has_seed = true; });
  cmd->add_option("--set", a->set,
                  "Override a scenario field: FIELD.PATH=VALUE (repeatable), e.g. "
                  "machine.variability.noise.os_cores_per_node=1");
  cmd->add_option("--out", a->out, "Output directory (default: hplsim-out/<scenario name>-noise-bench)");
  return {cmd, [a]() { return run_noise_bench(*a); }};
}

} // namespace hplsim::sim
