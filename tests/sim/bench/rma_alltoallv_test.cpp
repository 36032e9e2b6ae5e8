// `hplsim rma-alltoallv` (sim/bench/rma_alltoallv.hpp) on the Dane scenario, 2 nodes x 4 ranks, run as a
// subprocess: the variants' call sequences checked against each other and against the registration cost
// they are defined with.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/sim/cli/cli_runner.hpp"

namespace hplsim::sim::testing {
namespace {

const std::string kDane = source_path("scenarios/dane-rma.textproto");

struct Rows {
  std::map<long long, std::vector<double>> total, detail; // by size: 3 totals; 3 iterations + 2 inits
  std::string text;
};

Rows rma(const std::vector<std::string>& extra) {
  TempDir dir;
  std::vector<std::string> args = {"rma-alltoallv", kDane, "--nodes", "2", "--ppn", "4",
                                   "--max-bytes",   "64",  "--full"};
  args.insert(args.end(), extra.begin(), extra.end());
  const CliResult r = run_hplsim(args, dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  Rows rows;
  rows.text = r.out;
  std::istringstream in(r.out);
  bool second = false;
  for (std::string line; std::getline(in, line);) {
    if (line.find("per iteration and one-time") != std::string::npos) second = true;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream row(line);
    long long size = 0;
    row >> size;
    std::vector<double> v;
    for (double x = 0; row >> x;)
      v.push_back(x);
    (second ? rows.detail : rows.total)[size] = v;
  }
  return rows;
}

TEST(RmaAlltoallv, PersistentIterationIsTheBaselineLessItsSetup) {
  const Rows r = rma({});
  ASSERT_EQ(r.total.size(), 4U) << r.text; // 8, 16, 32, 64 B
  ASSERT_EQ(r.detail.size(), 4U) << r.text;
  for (const auto& [size, d] : r.detail) {
    ASSERT_EQ(d.size(), 5U) << r.text;
    // The baseline's iteration is the fence epoch plus what fence-persistent does once (counts exchange,
    // MPI_Win_create, MPI_Win_free): both sides are sums of the same simulated calls, each started
    // after a barrier; 5% covers the barriers' exit skew.
    EXPECT_NEAR(d[0] - d[1], d[3], 0.05 * d[3]) << size << " B\n" << r.text;
    EXPECT_GT(d[0], d[1]);
  }
  EXPECT_NE(r.text.find("# break-even: fence-persistent below the baseline from 8 B on"), std::string::npos)
      << r.text;
}

TEST(RmaAlltoallv, RegistrationIsPaidEveryIterationByTheBaselineOnly) {
  // +1 ms a page: a window of 8 ranks x 64 B is one page, registered once per iteration by the
  // baseline (100 iterations: +0.1 s) and once per run by the persistent variants (+1 ms).
  const Rows a = rma({});
  const Rows b = rma({"--register-per-page-s", std::to_string(0.5e-6 + 1e-3)});
  const std::vector<double>& x = a.total.at(64);
  const std::vector<double>& y = b.total.at(64);
  EXPECT_NEAR(y[0] - x[0], 0.1, 1e-3) << a.text << b.text;
  EXPECT_NEAR(y[1] - x[1], 1e-3, 1e-5) << a.text << b.text;
  EXPECT_NEAR(y[2] - x[2], 1e-3, 1e-5) << a.text << b.text;
}

TEST(RmaAlltoallv, BadFlagsAreRefusedByName) {
  TempDir dir;
  const CliResult r = run_hplsim({"rma-alltoallv", kDane, "--nodes", "2", "--ppn", "200"}, dir);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--ppn 200"), std::string::npos) << r.err;
  const CliResult s = run_hplsim({"rma-alltoallv", kDane, "--density", "0.5"}, dir);
  EXPECT_NE(s.exit_code, 0);
  EXPECT_NE(s.err.find("--density"), std::string::npos) << s.err;
}

} // namespace
} // namespace hplsim::sim::testing
