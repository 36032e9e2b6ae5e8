// The HPL code a scenario names (workload.hpl.code, docs/codes/): printed with
// the prediction, the HPL.dat lines it does not read reported. The one-node
// rocHPL 7 checks (scenarios/validation/*-rochpl7.textproto) hold their
// figures through their "# expect:" lines (scenario_expect_test.cpp).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/sim/cli/cli_runner.hpp"

using namespace hplsim::sim::testing;
using json = nlohmann::json;

namespace {

json summary_of(const fs::path& dir) {
  return json::parse(read_text(dir / "summary.json"));
}

} // namespace

TEST(CliHplCode, LinesTheCodeDoesNotReadAreReportedNotApplied) {
  // NVIDIA HPL does not read BCAST, PFACT/RFACT, NBMIN, NDIV or DEPTH
  // (docs/codes/nvidia.md); the MI300A check's scenario sets all of them.
  TempDir dir;
  const CliResult r =
      run_hplsim({"run", source_path("scenarios/validation/mi300a-node-rochpl7.textproto"), "--set",
                  "workload.hpl.code=NVIDIA", "--set", "workload.n=38400", "--out", (dir / "nv").string()},
                 dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json s = summary_of(dir / "nv");
  EXPECT_EQ(s.at("code").get<std::string>(), "nvidia");
  EXPECT_EQ(s.at("code_ignores").get<std::vector<std::string>>(),
            (std::vector<std::string>{"pfact", "nbmin", "ndiv", "bcast", "depth"}));
  EXPECT_NE(r.out.find("it does not read HPL.dat's pfact nbmin ndiv bcast depth"), std::string::npos)
      << r.out;
}

TEST(CliHplCode, AGpuCodeOnAMachineWithoutGpusNamesTheField) {
  TempDir dir;
  const CliResult r = run_hplsim({"run", source_path("scenarios/workstation-cpu.textproto"), "--set",
                                  "workload.hpl.code=ROCHPL_7", "--out", (dir / "x").string()},
                                 dir);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("workload.hpl.code"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("rochpl-7 runs on GPUs"), std::string::npos) << r.err;
}
