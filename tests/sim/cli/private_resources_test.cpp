// A rank's GPU kernels and host-device copies priced on its private resources
// (options.private_resources, sim/engine/private_resource.hpp) against the same
// run with them as SimGrid activities: every step and phase the same to
// SimGrid's rounding.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "tests/sim/cli/cli_runner.hpp"

namespace hplsim::sim::testing {
namespace {

// steps.csv as rows of numbers (the last column, "how", left out).
std::vector<std::vector<double>> read_steps(const fs::path& dir) {
  std::istringstream in(read_text(dir / "steps.csv"));
  std::string line;
  std::getline(in, line); // header
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::istringstream cells(line);
    std::string cell;
    while (std::getline(cells, cell, ','))
      if (!cell.empty() && (std::isdigit(static_cast<unsigned char>(cell[0])) || cell[0] == '-'))
        row.push_back(std::stod(cell));
    rows.push_back(row);
  }
  return rows;
}

// The largest relative difference between two runs' steps.csv (values above 1e-9).
double largest_difference(const fs::path& a, const fs::path& b) {
  const auto ra = read_steps(a), rb = read_steps(b);
  EXPECT_EQ(ra.size(), rb.size());
  double worst = 0.0;
  for (std::size_t i = 0; i < std::min(ra.size(), rb.size()); ++i) {
    EXPECT_EQ(ra[i].size(), rb[i].size());
    for (std::size_t j = 0; j < std::min(ra[i].size(), rb[i].size()); ++j)
      if (std::abs(rb[i][j]) > 1e-9)
        worst = std::max(worst, std::abs(ra[i][j] - rb[i][j]) / std::abs(rb[i][j]));
  }
  return worst;
}

void expect_same_steps(const std::vector<std::string>& extra) {
  TempDir dir;
  // Aurora's node on 4 nodes, 4 x 6 ranks, every message simulated: each step
  // has async GEMMs beside the swap's kernels and the panel's H2D copy beside the
  // swap's copies, on both GPU and links.
  std::vector<std::string> common = {"run",     source_path("scenarios/aurora-hpl-sc24.textproto"),
                                     "--nodes", "4",
                                     "--P",     "4",
                                     "--Q",     "6",
                                     "--N",     "30000",
                                     "--mode",  "reference"};
  common.insert(common.end(), extra.begin(), extra.end());
  for (const std::string on : {"true", "false"}) {
    std::vector<std::string> args = common;
    args.insert(args.end(), {"--set", "options.private_resources=" + on, "--out", (dir / on).string()});
    const CliResult r = run_hplsim(args, dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  // SimGrid's solver works to a relative precision of 1e-5 on shares (its
  // maxmin/precision) and updates remaining work in steps; the two pricings were
  // measured 5e-7 apart at most, in any step or phase (2026-12-05). 1e-5: its
  // precision, far below any modelling effect.
  EXPECT_LT(largest_difference(dir / "true", dir / "false"), 1e-5);
}

TEST(CliPrivateResources, GiveSimGridsTimesWithCopiesOverlappingKernels) {
  expect_same_steps({});
}

TEST(CliPrivateResources, GiveSimGridsTimesWithOneCopyEngineAndNoOverlap) {
  expect_same_steps({"--set", "machine.node.copy_engines=1", "--set", "machine.node.copy_overlap=false"});
}

} // namespace
} // namespace hplsim::sim::testing
