// `hplsim rma-alltoallv SCENARIO --nodes K --ppn R`: MPI_Alltoallv over MPI-3 RMA, a baseline that sets up
// its window every iteration against two persistent variants (fence and lock synchronization), simulated
// on K nodes of R ranks (sim/bench/rma_alltoallv.hpp; docs/rma-alltoallv.md).
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "sim/bench/rma_alltoallv.hpp"
#include "sim/cli/commands.hpp"
#include "sim/scenario/scenario_defaults.hpp"
#include "sim/support/errors.hpp"

namespace hplsim::sim {

namespace {

struct RmaArgs {
  RmaAlltoallvBench bench;
  std::string counts = "uniform";
  bool full = false;
  std::string scenario;
  std::vector<std::string> set;
};

// In percent; +0.0 so that a difference of rounding prints as 0.0, not -0.0.
double reduction_pct(double base, double other) {
  return base > 0 ? std::round(1000.0 * (base - other) / base) / 10.0 + 0.0 : 0.0;
}

int run_rma(const RmaArgs& args) {
  ScenarioOverrides overrides;
  overrides.set = args.set;
  const ResolvedScenario sc = resolve(load_scenario(args.scenario, overrides));
  RmaAlltoallvBench b = args.bench;
  b.sparse = args.counts == "sparse";
  const std::vector<RmaAlltoallvRow> rows = simulate_rma_alltoallv(sc, b);
  std::printf("# RMA Alltoallv, simulated by hplsim: %s, %d nodes x %d ranks = %d processes\n",
              sc.name.c_str(), b.nodes, b.ppn, b.nodes * b.ppn);
  if (b.sparse)
    std::printf("# counts: sparse, a pair exchanges with probability %g, size x U[0.5, 1.5) (seed %llu)\n",
                b.density, static_cast<unsigned long long>(b.seed));
  else
    std::printf("# counts: uniform, every rank puts Size bytes into every rank\n");
  std::printf("# runtime of %d iterations, one-time setup included (seconds); reduction vs the baseline\n",
              b.iterations);
  std::printf("%-10s%14s%14s%14s%10s%10s\n", "# Size", "baseline", "fence-pers", "lock-pers", "fence%",
              "lock%");
  for (const RmaAlltoallvRow& r : rows)
    std::printf("%-10lld%14.6f%14.6f%14.6f%10.1f%10.1f\n", static_cast<long long>(r.bytes), r.total_s[0],
                r.total_s[1], r.total_s[2], reduction_pct(r.total_s[0], r.total_s[1]),
                reduction_pct(r.total_s[0], r.total_s[2]));
  if (args.full) {
    std::printf("\n# per iteration and one-time setup (seconds)\n");
    std::printf("%-10s%14s%14s%14s%14s%14s\n", "# Size", "base/iter", "fence/iter", "lock/iter", "fence-init",
                "lock-init");
    for (const RmaAlltoallvRow& r : rows)
      std::printf("%-10lld%14.6f%14.6f%14.6f%14.6f%14.6f\n", static_cast<long long>(r.bytes),
                  r.iteration_s[0], r.iteration_s[1], r.iteration_s[2], r.init_s[1], r.init_s[2]);
  }
  for (RmaVariant v : {RmaVariant::FencePersistent, RmaVariant::LockPersistent}) {
    const std::int64_t even = rma_break_even_bytes(rows, v);
    if (even > 0)
      std::printf("# break-even: %s below the baseline from %lld B on\n", rma_variant_name(v).c_str(),
                  static_cast<long long>(even));
    else
      std::printf("# break-even: %s not below the baseline at %lld B\n", rma_variant_name(v).c_str(),
                  static_cast<long long>(rows.back().bytes));
  }
  const RmaAlltoallvRow& big = rows.back();
  std::printf("# largest size %lld B: baseline %.4f s -> fence-persistent %.4f s (%.1f%% less), "
              "lock-persistent %.4f s (%.1f%% less)\n",
              static_cast<long long>(big.bytes), big.total_s[0], big.total_s[1],
              reduction_pct(big.total_s[0], big.total_s[1]), big.total_s[2],
              reduction_pct(big.total_s[0], big.total_s[2]));
  double best = 0;
  std::int64_t best_bytes = 0;
  for (const RmaAlltoallvRow& r : rows)
    if (reduction_pct(r.total_s[0], r.total_s[1]) > best) {
      best = reduction_pct(r.total_s[0], r.total_s[1]);
      best_bytes = r.bytes;
    }
  std::printf("# largest fence-persistent reduction: %.1f%% at %lld B\n", best,
              static_cast<long long>(best_bytes));
  return 0;
}

} // namespace

Command add_rma_alltoallv_command(CLI::App& app) {
  auto a = std::make_shared<RmaArgs>();
  auto* cmd =
      app.add_subcommand("rma-alltoallv", "Simulate MPI_Alltoallv over MPI RMA: a per-iteration window "
                                          "against fence- and lock-persistent variants");
  cmd->add_option("scenario", a->scenario, "Scenario file (.textproto)")->required();
  cmd->add_option("--nodes", a->bench.nodes, "Nodes (default 4)")->check(at_least(1));
  cmd->add_option("--ppn", a->bench.ppn, "Ranks per node (default 112)")->check(at_least(1));
  cmd->add_option("--min-bytes", a->bench.min_bytes, "Smallest size (default 8)")->check(at_least(1));
  cmd->add_option("--max-bytes", a->bench.max_bytes, "Largest size (default 1048576)")->check(at_least(1));
  cmd->add_option("--iterations", a->bench.iterations, "Iterations of a run (default 100)")
      ->check(at_least(1));
  cmd->add_option("--counts", a->counts, "uniform (default) or sparse (irregular: --density, --seed)")
      ->check(CLI::IsMember({"uniform", "sparse"}));
  cmd->add_option("--density", a->bench.density,
                  "Sparse counts: the fraction of pairs that exchange (default 0.1)");
  cmd->add_option("--seed", a->bench.seed, "Sparse counts: the draw's seed (default 1)");
  cmd->add_option("--register-base-s", a->bench.costs.register_base_s,
                  "Memory registration's fixed part (default 5e-6) [U]")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--register-per-page-s", a->bench.costs.register_per_page_s,
                  "Memory registration per 4 KiB page (default 0.5e-6) [U]")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--deregister-per-page-s", a->bench.costs.deregister_per_page_s,
                  "Deregistration per 4 KiB page (default 0.1e-6) [U]")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--put-issue-s", a->bench.costs.put_issue_s,
                  "An MPI_Put's issue time at the origin (default 0.3e-6) [U]")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--full", a->full, "Also each variant's time per iteration and one-time setup");
  cmd->add_option("--set", a->set, "Override a scenario field: FIELD.PATH=VALUE (repeatable)");
  return {cmd, [a, cmd]() {
            if (a->counts != "sparse" && (cmd->count("--density") > 0 || cmd->count("--seed") > 0))
              throw InputError("--density/--seed: sparse counts only (--counts sparse)");
            return run_rma(*a);
          }};
}

} // namespace hplsim::sim
