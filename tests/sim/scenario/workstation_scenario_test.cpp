// scenarios/workstation-cpu.textproto: the CPU-only preset of the machine
// hplsim is developed on, set beside real HPL runs (scripts/real-hpl/,
// docs/real-hpl-comparison.md). It loads and validates, resolves as a 1-node
// CPU-only machine, takes every grid the comparison runs, rejects grids the
// machine cannot hold, and its HPL algorithm lines are the ones
// run_real_hpl.sh writes into HPL.dat. No simulation runs here (one SimGrid
// engine per process); the hplsim binary runs the scenario in integration tests.
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "sim/scenario/scenario_defaults.hpp"
#include "sim/scenario/scenario_loader.hpp"

namespace hplsim::sim {
namespace {

const std::string kScenario = std::string(HPLSIM_SOURCE_DIR) + "/scenarios/workstation-cpu.textproto";
// The HPL.dat the real-HPL scripts write (run_real_hpl.sh and concurrent_1x1.sh source it).
const std::string kRunScript = std::string(HPLSIM_SOURCE_DIR) + "/scripts/real-hpl/hpl_dat.sh";

ScenarioOverrides grid(int p, int q, int ppn, long long n = 8000, long long nb = 256) {
  ScenarioOverrides o;
  o.nodes = 1;
  o.p = p;
  o.q = q;
  o.ppn = ppn;
  o.n = n;
  o.nb = nb;
  return o;
}

/// The first token of the line of `text` that contains `label` (HPL.dat's
/// "value   label" layout); empty when no line has it.
std::string hpl_dat_value(const std::string& text, const std::string& label) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.find(label) == std::string::npos) continue;
    std::istringstream tokens(line);
    std::string first;
    tokens >> first;
    return first;
  }
  return "";
}

TEST(WorkstationScenario, ResolvesAsOneCpuOnlyNodeWithOneRankPerCore) {
  const ResolvedScenario r = resolve(load_scenario(kScenario));
  EXPECT_EQ(r.name, "workstation-cpu");
  EXPECT_EQ(r.machine.topology.kind, TopologyKind::FatTree);
  // 1 leaf x 1 endpoint port / 1 NIC per node = 1 node.
  EXPECT_EQ(r.machine.topology.nodes, 1);
  EXPECT_EQ(r.machine.topology.port_capacity_nodes, 1);
  EXPECT_EQ(r.machine.node.gpus_per_node(), 0);
  // nproc on the machine the scenario describes.
  EXPECT_EQ(r.machine.node.cores_per_node(), 2);
  EXPECT_EQ(r.workload.nodes, 1);
  EXPECT_EQ(r.workload.ranks_per_node, r.machine.node.cores_per_node());
  EXPECT_EQ(r.workload.ranks(), 2);
  EXPECT_EQ(r.options.mode, Mode::Reference);
  // Measured by scripts/real-hpl/measure_shm.sh (results/measure-shm.log):
  // 4.38e-7 s and 3.87e9 B/s on the quiet box (0.8-2.3e9 B/s when shared); the
  // ranges only say "sub-microsecond" and "between 0.1 and 100 GB/s", so a
  // re-measurement on the same box still passes.
  EXPECT_GT(r.machine.node.shm_latency_s, 0.0);
  EXPECT_LT(r.machine.node.shm_latency_s, 1e-6);
  EXPECT_GT(r.machine.node.shm_bandwidth_bytes_per_s, 1e8);
  EXPECT_LT(r.machine.node.shm_bandwidth_bytes_per_s, 1e11);
}

TEST(WorkstationScenario, CarriesTheCpuKernelRecordsACpuOnlyHplRunNeeds) {
  const LoadedScenario loaded = load_scenario(kScenario);
  EXPECT_NE(loaded.kernels_path.find("cpu-workstation"), std::string::npos) << loaded.kernels_path;
  std::map<std::string, const models::KernelParams*> records;
  for (const models::KernelParams& k : loaded.kernels.kernels())
    records[k.name()] = &k;
  // With gpus_per_socket 0 the HPL generator puts every kernel on the CPU.
  for (const char* name : {"cpu.gemm.fp64", "cpu.trsm.fp64", "cpu.pfact.fp64", "cpu.laswp.fp64",
                           "cpu.idamax.fp64", "cpu.trsv.fp64"})
    EXPECT_EQ(records.count(name), 1U) << name;
  ASSERT_EQ(records.count("cpu.gemm.fp64"), 1U);
  const models::KernelParams& gemm = *records.at("cpu.gemm.fp64");
  // The peak is one core of this CPU: 2445.402 MHz x 16 FP64 flop/cycle (AVX2,
  // two FMA pipes) = 3.9126e10 flop/s; 5 % covers another clock reading of
  // the same VM. The fitted efficiency is a measured fraction in (0.5, 1]:
  // single-thread OpenBLAS DGEMM on Zen 3 runs near its peak (fitted: 1.0 on
  // the quiet box, held at its bound; 0.888 with the box shared).
  EXPECT_NEAR(gemm.peak_flops_per_s(), 3.9126e10, 0.05 * 3.9126e10);
  EXPECT_GT(gemm.max_efficiency(), 0.5);
  EXPECT_LE(gemm.max_efficiency(), 1.0);
}

TEST(WorkstationScenario, AcceptsEveryGridTheRealHplComparisonRuns) {
  // scripts/real-hpl/compare.sh: N in {2000, 4000, 8000} x NB in {128, 256}
  // x (P x Q, ranks) in {(1x2, 2), (2x1, 2), (1x1, 1)}.
  for (const long long n : {2000LL, 4000LL, 8000LL})
    for (const long long nb : {128LL, 256LL})
      for (const auto& [p, q] : std::set<std::pair<int, int>>{{1, 2}, {2, 1}, {1, 1}}) {
        const ResolvedScenario r = resolve(load_scenario(kScenario, grid(p, q, p * q, n, nb)));
        EXPECT_EQ(r.workload.ranks(), p * q);
        EXPECT_EQ(r.workload.n, n);
        EXPECT_EQ(r.workload.nb, nb);
        // ceil(N / NB): 2000/128 -> 16, 8000/256 -> 32, ...
        EXPECT_EQ(r.workload.steps(), (n + nb - 1) / nb);
      }
}

TEST(WorkstationScenario, RejectsMoreRanksThanCores) {
  try {
    load_scenario(kScenario, grid(/*p=*/1, /*q=*/3, /*ppn=*/3));
    FAIL() << "3 ranks on a 2-core node loaded";
  } catch (const ScenarioError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("ranks_per_node"), std::string::npos) << what;
    EXPECT_NE(what.find("cores"), std::string::npos) << what;
  }
}

TEST(WorkstationScenario, RejectsASecondNode) {
  ScenarioOverrides two_nodes = grid(/*p=*/2, /*q=*/2, /*ppn=*/2);
  two_nodes.nodes = 2;
  try {
    load_scenario(kScenario, two_nodes);
    FAIL() << "2 nodes on a 1-node machine loaded";
  } catch (const ScenarioError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("workload.nodes"), std::string::npos) << what;
  }
}

TEST(WorkstationScenario, HplAlgorithmLinesMatchTheRealHplInput) {
  std::ifstream in(kRunScript);
  ASSERT_TRUE(in) << "cannot open " << kRunScript;
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string script = buffer.str();
  const ResolvedScenario r = resolve(load_scenario(kScenario));
  const HplVariants& h = r.workload.hpl;
  // HPL.dat codes (HPL 2.3 sample file's comments): PFACT 2 = Right,
  // BCAST 1 = 1ringM, SWAP 2 = mix, PMAP 0 = row-major.
  EXPECT_EQ(hpl_dat_value(script, "PFACTs (0=left"), "2");
  EXPECT_EQ(h.pfact, PfactAlgo::Right);
  EXPECT_EQ(hpl_dat_value(script, "NBMINs"), std::to_string(h.nbmin));
  EXPECT_EQ(hpl_dat_value(script, "NDIVs"), std::to_string(h.ndiv));
  EXPECT_EQ(hpl_dat_value(script, "BCASTs"), "1");
  EXPECT_EQ(h.bcast, BcastAlgo::OneRingM);
  EXPECT_EQ(hpl_dat_value(script, "DEPTHs"), std::to_string(r.workload.depth));
  EXPECT_EQ(hpl_dat_value(script, "SWAP (0=bin-exch"), "2");
  EXPECT_EQ(h.swap, SwapAlgo::Mix);
  EXPECT_EQ(hpl_dat_value(script, "swapping threshold"), std::to_string(h.swap_threshold_columns));
  EXPECT_EQ(hpl_dat_value(script, "PMAP process mapping"), "0");
  EXPECT_FALSE(r.workload.column_major);
}

} // namespace
} // namespace hplsim::sim
