// The HPL code a scenario names (workload.hpl.code, docs/codes/): printed with
// the prediction, the HPL.dat lines it does not read reported, and the
// one-node rocHPL 7 checks (scenarios/validation/*-rochpl7.textproto).
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

TEST(CliHplCode, OneNodeRochpl7ChecksGiveTheFiguresDocsRecord) {
  // CSCS's one-node rocHPL checks (eth-cscs/cscs-reframe-tests, rochpl.py)
  // measured 162 TF/s (MI300A node) and 155 TF/s (MI250X node) at N 218,880.
  // The model, with nothing fitted to them, gives 196.1 and 176.8 TF/s
  // (docs/codes/rochpl-7.md, "One-node checks", the commands there): +21% and
  // +14%, outside the +-10% band; the note there says which part is missing.
  // This test holds those figures (1% tolerance: the documented value rounded
  // to 0.1 TF/s, and room for floating-point changes of the replay), so the
  // docs cannot drift from what the model gives.
  TempDir dir;
  const auto rmax = [&](const char* scenario, const char* out) {
    const CliResult r = run_hplsim(
        {"run", source_path(std::string("scenarios/validation/") + scenario), "--out", (dir / out).string()},
        dir);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("Code rocHPL 7 (GPU panel) (rochpl-7"), std::string::npos) << r.out;
    const json s = summary_of(dir / out);
    EXPECT_EQ(s.at("code").get<std::string>(), "rochpl-7");
    EXPECT_TRUE(s.at("code_ignores").empty());
    EXPECT_GT(s.at("phase_totals_s").at("pfact").get<double>(), 0.0);
    return s.at("rmax_tflops").get<double>();
  };
  EXPECT_NEAR(rmax("mi300a-node-rochpl7.textproto", "mi300a"), 196.1, 0.01 * 196.1);
  EXPECT_NEAR(rmax("mi250x-node-rochpl7.textproto", "mi250x"), 176.8, 0.01 * 176.8);
}

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
