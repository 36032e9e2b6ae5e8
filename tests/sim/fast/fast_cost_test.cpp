// Fast mode's cost estimate (sim/fast/fast_cost.hpp) against the recorded runs
// of docs/bench/fast-cost.csv, and the choice of folding and the collective
// roll it drives (sim/fast/fast_plan.hpp).
#include "sim/fast/fast_cost.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/fast/fast_plan.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "sim/support/child_process.hpp"

namespace hplsim::sim {
namespace {

const std::string kRoot = HPLSIM_SOURCE_DIR;

// One CSV line, with "quoted, fields".
std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (const char ch : line) {
    if (ch == '"')
      quoted = !quoted;
    else if (ch == ',' && !quoted)
      out.emplace_back();
    else
      out.back() += ch;
  }
  return out;
}

ResolvedScenario load_with(const std::string& scenario, const std::string& args) {
  ScenarioOverrides o;
  std::istringstream in(args);
  std::string flag, value;
  while (in >> flag) {
    if (flag == "--sourced-only") {
      o.sourced_only = true;
      continue;
    }
    in >> value;
    if (flag == "--set")
      o.set.push_back(value);
    else if (flag == "--mode")
      o.mode = value;
    else if (flag == "--nodes")
      o.nodes = std::stoi(value);
    else if (flag == "--P")
      o.p = std::stoi(value);
    else if (flag == "--Q")
      o.q = std::stoi(value);
    else if (flag == "--N")
      o.n = std::stoll(value);
    else
      ADD_FAILURE() << "fast-cost.csv: unknown flag " << flag;
  }
  return resolve(load_scenario(kRoot + "/" + scenario, o));
}

TEST(FastCost, EstimatesTheRecordedRunsWithinAFactorOfTwo) {
  std::ifstream csv(kRoot + "/docs/bench/fast-cost.csv");
  ASSERT_TRUE(csv) << "docs/bench/fast-cost.csv";
  std::string line;
  int checked = 0;
  bool header = true;
  while (std::getline(csv, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    const std::vector<std::string> f = split_csv(line);
    ASSERT_EQ(f.size(), 7u) << line;
    if (f[6] != "1") continue; // the rows the test checks: those cheap to estimate
    const ResolvedScenario sc = load_with(f[1], f[2]);
    const FastPlan plan = settle_fast_plan(sc);
    // The recorded runs used two window processes.
    const FastCost cost = estimate_fast_cost(sc, plan.fold, plan.shortcuts.roll_collective, 2);
    if (!f[3].empty()) {
      const double measured_s = std::stod(f[3]);
      EXPECT_GE(cost.wall_s, measured_s / 2.0) << f[0];
      EXPECT_LE(cost.wall_s, measured_s * 2.0) << f[0];
    }
    if (!f[4].empty()) {
      const double measured_bytes = std::stod(f[4]) * 1024.0 * 1024.0;
      EXPECT_GE(cost.memory_bound_bytes, measured_bytes / 2.0) << f[0];
      EXPECT_LE(cost.memory_bound_bytes, measured_bytes * 2.0) << f[0];
    }
    ++checked;
  }
  EXPECT_GE(checked, 4);
}

// AUTO folds, and rolls collectively, only where the estimate says it saves
// min_saving_s: the small dragonfly (seconds as it is) keeps every rank; with
// no saving asked for, it folds. A slice of El Capitan, minutes with every
// rank, folds and rolls collectively.
TEST(FastCost, AutoFoldsWhereItSavesTheAskedTime) {
  const ResolvedScenario small = load_with("scenarios/small-dragonfly.textproto", "--mode fast");
  EXPECT_FALSE(settle_fast_plan(small).fold);
  const ResolvedScenario eager =
      load_with("scenarios/small-dragonfly.textproto", "--mode fast --set options.fast.min_saving_s=0");
  EXPECT_TRUE(settle_fast_plan(eager).fold);
  const ResolvedScenario slice = load_with("scenarios/el-capitan-hpl.textproto", "--nodes 1000");
  std::array<double, 3> wall_s{};
  const FastPlan plan = settle_fast_plan(slice, &wall_s);
  EXPECT_TRUE(plan.fold);
  EXPECT_TRUE(plan.shortcuts.roll_collective);
  // Each step down the estimate saves more than the default 10 s.
  EXPECT_GT(wall_s[0] - wall_s[1], 10.0);
  EXPECT_GT(wall_s[1] - wall_s[2], 10.0);
}

// AUTO takes the collective panel only where the updates run on GPUs: folded,
// netlib HPL 2.3 on a GPU machine keeps its panel's pivot exchanges collective
// and its kernels as ops (the rank's cores also run its updates).
TEST(FastCost, AutoLeavesTheCollectivePanelToRunsWithUpdatesOnGpus) {
  const ResolvedScenario gpu =
      load_with("scenarios/jupiter-hpl.textproto", "--nodes 16 --mode fast --set options.fast.fold=ON");
  EXPECT_TRUE(settle_fast_plan(gpu).shortcuts.panel_collective);
  const ResolvedScenario cpu =
      load_with("scenarios/jupiter-hpl.textproto",
                "--nodes 16 --mode fast --set options.fast.fold=ON --set workload.hpl.code=NETLIB_2_3");
  const FastPlan plan = settle_fast_plan(cpu);
  EXPECT_TRUE(plan.shortcuts.pivot_collective);
  EXPECT_FALSE(plan.shortcuts.panel_collective);
}

} // namespace
} // namespace hplsim::sim
