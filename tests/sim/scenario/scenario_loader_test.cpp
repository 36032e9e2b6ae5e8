// Scenario loading: one test per class of invalid input, each checking that
// the message names the field and where it is; plus a valid scenario whose
// defaults resolve as sim/scenario/scenario.proto documents them.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "sim/scenario/scenario_defaults.hpp"
#include "sim/scenario/scenario_loader.hpp"

namespace hplsim::sim {
namespace {

// A small valid scenario. Line numbers matter: tests point at them.
// Dragonfly ports: 2 groups * 2 switches * 4 ports = 16; NICs per node
// 2 sockets * 1 = 2; so the topology holds 16 / 2 = 8 nodes.
const std::string kValid = R"pb(name: "test-small"
machine {
  topology {
    dragonfly {
      groups: 2
      switches_per_group: 2
      endpoint_ports_per_switch: 4
      global_links_per_group_pair: 1
      local_link_bandwidth_bytes_per_s: 25e9
      global_link_bandwidth_bytes_per_s: 25e9
    }
  }
  node {
    sockets: 2
    cores_per_socket: 8
    gpus_per_socket: 1
    nics_per_socket: 1
    nic_bandwidth_bytes_per_s: 25e9
    pcie_bandwidth_bytes_per_s: 64e9
    upi_bandwidth_bytes_per_s: 48e9
    shm_bandwidth_bytes_per_s: 100e9
  }
}
workload {
  nodes: 4
  ranks_per_node: 2
  n: 8192
  nb: 256
  p: 2
  q: 4
}
)pb";
// Lines of kValid (1-based) used below.
constexpr int kNicBandwidthLine = 18;
constexpr int kWorkloadLine = 24;
constexpr int kNbLine = 28;

/// kValid with the first occurrence of `from` replaced by `to`.
std::string with(const std::string& from, const std::string& to) {
  std::string text = kValid;
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

/// The ScenarioError message of loading `text`, or "" when it loads.
std::string error_of(const std::string& text, const ScenarioOverrides& overrides = {},
                     const std::string& name = "x.textproto") {
  try {
    load_scenario_text(text, name, overrides);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

TEST(ScenarioLoader, LoadsValidMinimalScenarioWithDefaults) {
  const LoadedScenario loaded = load_scenario_text(kValid, "x.textproto");
  EXPECT_EQ(loaded.base_dir, ".");
  const ResolvedScenario r = resolve(loaded);
  EXPECT_EQ(r.name, "test-small");
  EXPECT_EQ(r.machine.topology.kind, TopologyKind::Dragonfly);
  EXPECT_EQ(r.machine.topology.routing, topo::Routing::Minimal);
  EXPECT_EQ(r.machine.topology.port_capacity_nodes, 8); // 2*2*4 ports / 2 NICs, see kValid
  EXPECT_EQ(r.machine.topology.nodes, 8);               // default: what the ports hold
  EXPECT_EQ(r.machine.topology.dragonfly.switches_per_node, 1);
  EXPECT_DOUBLE_EQ(r.machine.topology.dragonfly.link_latency_s, 0.0);
  EXPECT_DOUBLE_EQ(r.machine.node.nic_bandwidth_bytes_per_s, 25e9); // as written
  EXPECT_DOUBLE_EQ(r.machine.node.nic_latency_s, 0.0);
  EXPECT_EQ(r.machine.node.copy_engines, 2);
  EXPECT_TRUE(r.machine.node.copy_overlap);
  EXPECT_FALSE(r.machine.node.amx);
  EXPECT_FALSE(r.machine.node.gpu_memory_bytes.has_value());
  EXPECT_EQ(r.machine.placement.nic_mapping, NicMapping::PhaseSpecific);
  EXPECT_EQ(r.machine.placement.affinity, Affinity::Aligned);
  EXPECT_FALSE(r.machine.placement.gpu_aware_mpi);
  EXPECT_EQ(r.machine.kernels.kernels_size(), 0);
  EXPECT_EQ(r.workload.benchmark, Benchmark::Hpl);
  EXPECT_EQ(r.workload.depth, 1);
  EXPECT_FALSE(r.workload.column_major);
  EXPECT_EQ(r.workload.hpl.pfact, PfactAlgo::Right);
  EXPECT_EQ(r.workload.hpl.nbmin, 4);
  EXPECT_EQ(r.workload.hpl.ndiv, 2);
  EXPECT_EQ(r.workload.hpl.bcast, BcastAlgo::OneRingM);
  EXPECT_EQ(r.workload.hpl.swap, SwapAlgo::Mix);
  EXPECT_EQ(r.workload.hpl.swap_threshold_columns, 64);
  EXPECT_EQ(r.workload.mxp.gpus_per_rank, 1);
  EXPECT_EQ(r.workload.ranks(), 8);
  EXPECT_EQ(r.workload.steps(), 32); // ceil(8192 / 256)
  EXPECT_EQ(r.options.mode, Mode::Auto);
  EXPECT_EQ(r.options.seed, 1u);
}

TEST(ScenarioLoader, RejectsMisspelledField) {
  const std::string e = error_of(with("  nb: 256", "  nbb: 256"));
  // protobuf names the unknown field; the column is the field name's (1-based).
  EXPECT_NE(e.find("x.textproto:" + std::to_string(kNbLine) + ":3: "), std::string::npos) << e;
  EXPECT_NE(e.find("nbb"), std::string::npos) << e;
  EXPECT_NE(e.find("(did you mean \"nb\"?)"), std::string::npos) << e;
}

TEST(ScenarioLoader, SuggestsTheNearestFieldOfTheMessageWhereTheTypoIs) {
  // "gpus_per_sockets" is a field of machine.node (Node), one edit from gpus_per_socket.
  const std::string e = error_of(with("    gpus_per_socket: 1", "    gpus_per_sockets: 1"));
  EXPECT_EQ(e.rfind("x.textproto:16:5: Message type", 0), 0u) << e;
  EXPECT_NE(e.find("has no field named \"gpus_per_sockets\""), std::string::npos) << e;
  EXPECT_NE(e.find("(did you mean \"gpus_per_socket\"?)"), std::string::npos) << e;
  // In the dragonfly message, the nearest of ITS fields.
  const std::string d = error_of(with("      groups: 2", "      grops: 2"));
  EXPECT_NE(d.find("(did you mean \"groups\"?)"), std::string::npos) << d;
  // Nothing near: no suggestion.
  const std::string far = error_of(with("  nb: 256", "  blocking_factor: 256"));
  EXPECT_NE(far.find("blocking_factor"), std::string::npos) << far;
  EXPECT_EQ(far.find("did you mean"), std::string::npos) << far;
}

TEST(ScenarioLoader, RejectsSyntaxError) {
  const std::string e = error_of(with("  p: 2", "  p: : 2"));
  EXPECT_NE(e.find("x.textproto:29:6: "), std::string::npos) << e; // the second ':' on line 29
}

TEST(ScenarioLoader, RejectsMissingRequiredField) {
  EXPECT_EQ(error_of(with("  n: 8192\n", "")),
            "x.textproto:" + std::to_string(kWorkloadLine) +
                ":1: workload.n is required (the matrix order N), inside the "
                "workload { } block");
}

TEST(ScenarioLoader, RejectsMissingTopLevelMessagesAllAtOnce) {
  const std::string e = error_of("name: \"no machine\"\n");
  EXPECT_NE(e.find("x.textproto:1:1: machine is required (the nodes and the network they are on), at the top "
                   "level of the file"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("x.textproto:1:1: workload is required"), std::string::npos) << e;
}

TEST(ScenarioLoader, RejectsGridThatDoesNotMatchRanks) {
  EXPECT_EQ(error_of(with("  q: 4", "  q: 3")),
            "x.textproto:" + std::to_string(kWorkloadLine) +
                ":1: workload: p*q = 6 must equal nodes*ranks_per_node = 8 (p = 2, q = 3, nodes = 4, "
                "ranks_per_node = 2)");
}

TEST(ScenarioLoader, RejectsNSmallerThanNb) {
  const std::string e = error_of(with("  n: 8192", "  n: 100"));
  EXPECT_NE(e.find("x.textproto:" + std::to_string(kNbLine) + ":3: workload: n = 100 must be >= nb = 256"),
            std::string::npos)
      << e;
}

TEST(ScenarioLoader, RejectsNegativeBandwidth) {
  EXPECT_EQ(error_of(with("nic_bandwidth_bytes_per_s: 25e9", "nic_bandwidth_bytes_per_s: -1")),
            "x.textproto:" + std::to_string(kNicBandwidthLine) +
                ":5: machine.node.nic_bandwidth_bytes_per_s must be > 0, got -1");
}

TEST(ScenarioLoader, RejectsNanBandwidth) {
  const std::string e = error_of(with("nic_bandwidth_bytes_per_s: 25e9", "nic_bandwidth_bytes_per_s: nan"));
  EXPECT_NE(e.find("must be > 0, got nan"), std::string::npos) << e;
}

TEST(ScenarioLoader, RejectsDepthTwo) {
  EXPECT_EQ(error_of(with("  q: 4", "  q: 4\n  depth: 2")),
            "x.textproto:31:3: workload.depth must be 0 or 1, got 2");
}

TEST(ScenarioLoader, RejectsAnOddSwapRollGroup) {
  // The grouped roll needs whole pairs of steps (sim/scenario/scenario.proto, swap_roll_group).
  ScenarioOverrides o;
  o.set = {"options.fast.swap_roll_group=3"};
  const std::string e = error_of(kValid, o);
  EXPECT_NE(e.find("options.fast.swap_roll_group must be 1 or even, got 3"), std::string::npos) << e;
  o.set = {"options.fast.swap_roll_group=4"};
  EXPECT_EQ(error_of(kValid, o), "");
}

TEST(ScenarioLoader, RejectsNegativeRefinementIterations) {
  // 0 simulates every iteration (sim/scenario/scenario.proto, refinement_iterations).
  ScenarioOverrides o;
  o.set = {"options.fast.refinement_iterations=-1"};
  const std::string e = error_of(kValid, o);
  EXPECT_NE(e.find("options.fast.refinement_iterations"), std::string::npos) << e;
  o.set = {"options.fast.refinement_iterations=0"};
  EXPECT_EQ(error_of(kValid, o), "");
}

TEST(ScenarioLoader, RejectsACollectivePanelWithoutGpus) {
  // The collective panel factorization assumes the rank's core is free during
  // the panel, as it is when the updates run on the GPUs (sim/scenario/scenario.proto).
  ScenarioOverrides o;
  o.set = {"options.fast.panel_collective=true"};
  EXPECT_EQ(error_of(kValid, o), ""); // kValid has GPUs
  o.set = {"options.fast.panel_collective=true", "machine.node.gpus_per_socket=0"};
  const std::string e = error_of(kValid, o);
  EXPECT_NE(e.find("options.fast.panel_collective needs the updates on GPUs"), std::string::npos) << e;
  EXPECT_NE(e.find("the node has none"), std::string::npos) << e;
  o.set = {"options.fast.panel_collective=false", "machine.node.gpus_per_socket=0"};
  const std::string off = error_of(kValid, o);
  EXPECT_EQ(off.find("panel_collective"), std::string::npos) << off;
  // netlib HPL 2.3 runs on the CPU cores even where the node has GPUs.
  o.set = {"options.fast.panel_collective=true", "workload.hpl.code=NETLIB_2_3"};
  const std::string netlib = error_of(kValid, o);
  EXPECT_NE(netlib.find("netlib HPL 2.3 (workload.hpl.code) runs on the CPU"), std::string::npos) << netlib;
}

TEST(ScenarioLoader, RejectsUnknownSetPath) {
  ScenarioOverrides o;
  o.set = {"workload.nbb=3"};
  EXPECT_EQ(error_of(kValid, o),
            "--set workload.nbb=3: Workload has no field nbb; did you mean workload.nb?");
  o.set = {"workload.zzzzzz=3"}; // nothing near: no suggestion
  EXPECT_EQ(error_of(kValid, o), "--set workload.zzzzzz=3: Workload has no field zzzzzz");
}

TEST(ScenarioLoader, RejectsSetOfRepeatedFieldWithoutAnIndex) {
  ScenarioOverrides o;
  o.set = {"machine.kernels.kernels=1"};
  const std::string e = error_of(kValid, o);
  EXPECT_EQ(e.rfind("--set machine.kernels.kernels=1: machine.kernels.kernels is a repeated field (", 0), 0u)
      << e;
  EXPECT_NE(e.find("give an element: machine.kernels.kernels[0]"), std::string::npos) << e;
}

TEST(ScenarioLoader, SetChangesOrAppendsAnElementOfARepeatedField) {
  ScenarioOverrides o;
  o.set = {"faults.retry.waits_s[0]=1", "faults.retry.waits_s[1]=2", "faults.retry.waits_s[0]=3"};
  const LoadedScenario s = load_scenario_text(kValid, "x.textproto", o);
  ASSERT_EQ(s.scenario.faults().retry().waits_s_size(), 2);
  // Exact: the values are parsed from the --set text, not computed.
  EXPECT_DOUBLE_EQ(s.scenario.faults().retry().waits_s(0), 3.0); // the last --set of element 0 wins
  EXPECT_DOUBLE_EQ(s.scenario.faults().retry().waits_s(1), 2.0);
  o.set = {"faults.retry.waits_s[1]=1"}; // nothing to append after: the list is empty
  EXPECT_EQ(
      error_of(kValid, o),
      "--set faults.retry.waits_s[1]=1: faults.retry.waits_s[1] is out of range: faults.retry.waits_s has 0 "
      "elements in the scenario (give an index from 0 to 0, where 0 appends one)");
  o.set = {"workload.nb[0]=1"};
  EXPECT_EQ(error_of(kValid, o),
            "--set workload.nb[0]=1: workload.nb is not a repeated field; it takes no index");
  o.set = {"faults.retry.waits_s[x]=1"};
  EXPECT_EQ(
      error_of(kValid, o),
      "--set faults.retry.waits_s[x]=1: waits_s[x]: expected NAME[INDEX] with INDEX a whole number >= 0");
}

TEST(ScenarioLoader, RejectsSetThatSwitchesOneofMember) {
  ScenarioOverrides o;
  o.set = {"machine.topology.fat_tree.leaf_switches=4"};
  EXPECT_EQ(error_of(kValid, o),
            "--set machine.topology.fat_tree.leaf_switches=4: machine.topology.fat_tree "
            "conflicts with dragonfly, which the scenario sets (only one of kind can be set)");
}

TEST(ScenarioLoader, RejectsUnparsableSetValue) {
  ScenarioOverrides o;
  o.set = {"workload.nb=12x"};
  EXPECT_EQ(error_of(kValid, o),
            "--set workload.nb=12x: workload.nb expects an integer in int64 range, got \"12x\"");
  o.set = {"machine.node.copy_overlap=yes"};
  EXPECT_EQ(
      error_of(kValid, o),
      "--set machine.node.copy_overlap=yes: machine.node.copy_overlap expects true or false, got \"yes\"");
}

TEST(ScenarioLoader, ReportsOverrideThatSetAnInvalidValue) {
  ScenarioOverrides o;
  o.set = {"workload.nb=-1"};
  EXPECT_EQ(error_of(kValid, o), "--set workload.nb=-1: workload.nb must be >= 1, got -1");
  ScenarioOverrides flags;
  flags.p = 3; // 3*4 = 12 ranks on 4 nodes * 2 ranks per node = 8
  EXPECT_EQ(error_of(kValid, flags).rfind("--P 3: workload: p*q = 12 must equal nodes*ranks_per_node = 8", 0),
            0u)
      << error_of(kValid, flags);
}

TEST(ScenarioLoader, RejectsBadEnumName) {
  const std::string e = error_of(with("workload {", "workload {\n  benchmark: HPL_MX"));
  EXPECT_NE(e.find("x.textproto:25:14: "), std::string::npos) << e;
  EXPECT_NE(e.find("HPL_MX"), std::string::npos) << e;
  ScenarioOverrides o;
  o.set = {"options.mode=FASTER"};
  EXPECT_EQ(error_of(kValid, o),
            "--set options.mode=FASTER: options.mode has no value FASTER; expected one of AUTO, REFERENCE, "
            "ANALYTIC, FAST");
  ScenarioOverrides flag;
  flag.mode = "quick";
  EXPECT_EQ(error_of(kValid, flag), "--mode quick: expected one of auto, reference, analytic, fast");
}

TEST(ScenarioLoader, RejectsMissingKernelsFile) {
  const std::string e = error_of(with("  node {", "  kernels_file: \"no-such-kernels.textproto\"\n  node {"),
                                 {}, "dir/x.textproto");
  // Both places a scenario's file is looked for (sim/scenario/scenario_paths.hpp).
  EXPECT_EQ(e.rfind("dir/x.textproto:13:3: machine.kernels_file \"no-such-kernels.textproto\": no such file; "
                    "tried \"dir/no-such-kernels.textproto\" (next to the scenario), \"",
                    0),
            0u)
      << e;
  EXPECT_NE(e.find("/no-such-kernels.textproto\" (under the data root"), std::string::npos) << e;
}

class ScenarioLoaderFiles : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("hplsim_loader_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const auto path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }
  std::filesystem::path dir_;
};

TEST_F(ScenarioLoaderFiles, LoadsKernelsFileRelativeToScenario) {
  write("kernels.textproto", "date: \"2025-01-01\"\nkernels {\n  name: \"gpu.gemm.fp64\"\n"
                             "  peak_flops_per_s: 26e12\n  max_efficiency: 0.8\n}\n");
  const std::string scenario =
      write("s.textproto", with("  node {", "  kernels_file: \"kernels.textproto\"\n  node {"));
  const LoadedScenario loaded = load_scenario(scenario);
  ASSERT_EQ(loaded.kernels.kernels_size(), 1);
  EXPECT_DOUBLE_EQ(loaded.kernels.kernels(0).peak_flops_per_s(), 26e12); // as written in the file
  EXPECT_EQ(loaded.kernels_path, (dir_ / "kernels.textproto").string());
  EXPECT_EQ(resolve(loaded).machine.kernels.kernels(0).name(), "gpu.gemm.fp64");
}

TEST_F(ScenarioLoaderFiles, KernelsFileErrorsNameThatFile) {
  const std::string kernels =
      write("kernels.textproto", "kernels {\n  name: \"gpu.gemm.fp64\"\n  peak_flops_per_s: 26e12\n"
                                 "  max_efficiency: 1.5\n}\n");
  const std::string scenario =
      write("s.textproto", with("  node {", "  kernels_file: \"kernels.textproto\"\n  node {"));
  try {
    load_scenario(scenario);
    FAIL() << "expected a ScenarioError";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(std::string(e.what()), kernels + ":4:3: kernels[0].max_efficiency must be in (0, 1], got 1.5");
  }
}

TEST_F(ScenarioLoaderFiles, VariabilityFileUnderTheScenariosOwnFields) {
  // The file gives jitter and spread; the scenario's machine.variability sets
  // the spread again (and a --set switches the jitter off): field by field, the
  // scenario wins, the rest comes from the file.
  write("var.textproto", "kernel_jitter_cv: 0.12\ngpu_rate_cv: 0.05\nsource: \"fitted here\"\n");
  const std::string scenario =
      write("s.textproto",
            with("  node {", "  variability_file: \"var.textproto\"\n  variability { gpu_rate_cv: 0.01 }\n"
                             "  node {"));
  const LoadedScenario loaded = load_scenario(scenario);
  EXPECT_DOUBLE_EQ(loaded.variability.kernel_jitter_cv(), 0.12); // from the file
  EXPECT_DOUBLE_EQ(loaded.variability.gpu_rate_cv(), 0.01);      // the scenario's
  EXPECT_EQ(loaded.variability.source(), "fitted here");
  EXPECT_EQ(loaded.variability_path, (dir_ / "var.textproto").string());
  const ResolvedScenario r = resolve(loaded);
  EXPECT_DOUBLE_EQ(r.machine.variability.kernel_jitter_cv(), 0.12);
  EXPECT_EQ(r.machine.variability_path, (dir_ / "var.textproto").string());
  ScenarioOverrides jitter_off;
  jitter_off.set = {"machine.variability.kernel_jitter_cv=0"};
  const LoadedScenario off = load_scenario(scenario, jitter_off);
  EXPECT_TRUE(off.variability.has_kernel_jitter_cv());
  EXPECT_DOUBLE_EQ(off.variability.kernel_jitter_cv(), 0.0);
  EXPECT_DOUBLE_EQ(off.variability.gpu_rate_cv(), 0.01);
}

TEST(ScenarioLoader, ReferenceNeedsItsSourceAndAPositiveRate) {
  try {
    load_scenario_text(kValid + "reference {\n  id: \"x\"\n  rmax_flops_per_s: 1e15\n}\n", "r.textproto");
    FAIL() << "expected a ScenarioError";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("reference.source is required"), std::string::npos) << e.what();
  }
  try {
    load_scenario_text(kValid + "reference {\n  id: \"x\"\n  rmax_flops_per_s: -1\n  source: \"s\"\n}\n",
                       "r.textproto");
    FAIL() << "expected a ScenarioError";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("reference.rmax_flops_per_s must be > 0"), std::string::npos)
        << e.what();
  }
}

TEST(ScenarioLoader, FitTargetsBelongInAFileNotInTheScenario) {
  try {
    load_scenario_text(with("  node {", "  variability { fit_targets: \"x\" }\n  node {"), "f.textproto");
    FAIL() << "expected a ScenarioError";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "machine.variability.fit_targets: fitted values belong in a variability_file"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(ScenarioLoaderFiles, SourcedOnlyLeavesOutAFileThatDeclaresFitTargets) {
  // A file of fitted values names the figure it was fitted to; --sourced-only
  // leaves the whole file out and keeps the scenario's own fields.
  const std::string var =
      write("fit.textproto", "node_gpu_step_cv: 0.1\nfit_targets: \"published-rmax\"\nsource: \"fit\"\n");
  const std::string scenario =
      write("s.textproto",
            with("  node {", "  variability_file: \"fit.textproto\"\n  variability { gpu_rate_cv: 0.01 }\n"
                             "  node {") +
                "reference {\n  id: \"published-rmax\"\n  rmax_flops_per_s: 1e15\n  source: \"a list\"\n}\n");
  const ResolvedScenario calibrated = resolve(load_scenario(scenario));
  EXPECT_DOUBLE_EQ(calibrated.machine.variability.node_gpu_step_cv(), 0.1);
  ASSERT_EQ(calibrated.machine.variability.fit_targets_size(), 1);
  ASSERT_TRUE(calibrated.reference.has_value());
  EXPECT_EQ(calibrated.reference->id(), "published-rmax");
  EXPECT_TRUE(calibrated.left_out_fitted_path.empty());

  ScenarioOverrides sourced;
  sourced.sourced_only = true;
  const ResolvedScenario plain = resolve(load_scenario(scenario, sourced));
  EXPECT_FALSE(plain.machine.variability.has_node_gpu_step_cv());
  EXPECT_EQ(plain.machine.variability.fit_targets_size(), 0);
  EXPECT_DOUBLE_EQ(plain.machine.variability.gpu_rate_cv(), 0.01); // the scenario's own field stays
  EXPECT_TRUE(plain.machine.variability_path.empty());
  EXPECT_EQ(plain.left_out_fitted_path, var);
}

TEST_F(ScenarioLoaderFiles, SourcedOnlyKeepsAFileWithoutFitTargets) {
  write("measured.textproto", "gpu_rate_cv: 0.02\nsource: \"measured\"\n");
  const std::string scenario =
      write("s.textproto", with("  node {", "  variability_file: \"measured.textproto\"\n  node {"));
  ScenarioOverrides sourced;
  sourced.sourced_only = true;
  const ResolvedScenario r = resolve(load_scenario(scenario, sourced));
  EXPECT_DOUBLE_EQ(r.machine.variability.gpu_rate_cv(), 0.02);
  EXPECT_TRUE(r.left_out_fitted_path.empty());
}

TEST_F(ScenarioLoaderFiles, VariabilityFileErrorsNameThatFile) {
  const std::string var = write("var.textproto", "gpu_rate_cv: 0.01\nkernel_jitter_cv: -0.1\n");
  const std::string scenario =
      write("s.textproto", with("  node {", "  variability_file: \"var.textproto\"\n  node {"));
  try {
    load_scenario(scenario);
    FAIL() << "expected a ScenarioError";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(var + ":2:1: kernel_jitter_cv must be", 0), 0u) << e.what();
  }
  write("var.textproto", "gpu_rate_cv: 0.01\nnode_gpu_step_cv: -0.1\n");
  try {
    load_scenario(scenario);
    FAIL() << "expected a ScenarioError";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(var + ":2:1: node_gpu_step_cv must be", 0), 0u) << e.what();
  }
  write("var.textproto", "node_rates_file: \"rates.txt\"\n");
  try {
    load_scenario(scenario);
    FAIL() << "expected a ScenarioError";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(var + ":1:1: " + var + ": node_rates_file belongs in", 0), 0u)
        << e.what();
  }
  const std::string missing =
      write("t.textproto", with("  node {", "  variability_file: \"none.textproto\"\n  node {"));
  try {
    load_scenario(missing);
    FAIL() << "expected a ScenarioError";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find(":13:3: machine.variability_file \"none.textproto\": no such file"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(ScenarioLoaderFiles, ReportsUnreadableScenarioFile) {
  const std::string missing = (dir_ / "absent.textproto").string();
  try {
    load_scenario(missing);
    FAIL() << "expected a ScenarioError";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(missing + ": cannot open scenario", 0), 0u) << e.what();
  }
}

TEST(ScenarioLoader, RejectsInlineKernelsWithKernelsFile) {
  const std::string e =
      error_of(with("  node {", "  kernels { }\n  kernels_file: \"k.textproto\"\n  node {"));
  EXPECT_EQ(e, "x.textproto:14:3: machine.kernels and machine.kernels_file are exclusive; give one");
}

TEST(ScenarioLoader, RejectsUnknownKernelRecordName) {
  const std::string e = error_of(
      with("  node {",
           "  kernels {\n    kernels { name: \"gpu.gemn.fp64\" peak_flops_per_s: 1e12 }\n  }\n  node {"));
  EXPECT_EQ(
      e.rfind("x.textproto:14:15: machine.kernels.kernels[0].name \"gpu.gemn.fp64\" is not a kernel record",
              0),
      0u)
      << e;
}

TEST(ScenarioLoader, AppliesOverridesBeforeValidating) {
  ScenarioOverrides o;
  o.set = {"machine.node.copy_overlap=false", "options.mode=FAST", "machine.placement.nic_mapping=HASHED",
           "workload.nb=512"};
  o.nb = 128; // flags come after --set
  o.seed = 7;
  o.mode = "reference";
  const ResolvedScenario r = resolve(load_scenario_text(kValid, "x.textproto", o));
  EXPECT_FALSE(r.machine.node.copy_overlap);
  EXPECT_EQ(r.machine.placement.nic_mapping, NicMapping::Hashed);
  EXPECT_EQ(r.workload.nb, 128);
  EXPECT_EQ(r.options.seed, 7u);
  EXPECT_EQ(r.options.mode, Mode::Reference);
}

TEST(ScenarioLoader, RejectsMoreRanksThanGpus) {
  // 4 ranks per node, 1 GPU each, on 2 sockets * 1 GPU = 2 GPUs.
  const std::string e = error_of(with("  ranks_per_node: 2", "  ranks_per_node: 4")
                                     .replace(kValid.find("  nodes: 4"), 10, "  nodes: 2"));
  EXPECT_EQ(e, "x.textproto:26:3: workload: ranks_per_node*gpus_per_rank = 4*1 = 4 exceeds the node's GPUs: "
               "sockets*gpus_per_socket = 2*1 = 2");
}

TEST(ScenarioLoader, RejectsMoreNodesThanTopologyHolds) {
  ScenarioOverrides o;
  o.nodes = 16;
  o.q = 16; // 2*16 = 16*2: the grid matches, the machine (8 nodes) does not
  EXPECT_EQ(
      error_of(kValid, o),
      "--nodes 16: workload.nodes = 16 exceeds the machine's nodes = 8 (the topology's endpoint ports / "
      "NICs per node)");
}

TEST(ScenarioLoader, RequiresUpiBandwidthWithTwoSockets) {
  EXPECT_EQ(
      error_of(with("    upi_bandwidth_bytes_per_s: 48e9\n", "")),
      "x.textproto:13:3: machine.node.upi_bandwidth_bytes_per_s is required with sockets > 1 (sockets = 2)");
}

TEST(ScenarioLoader, RejectsHplSectionForMxpBenchmark) {
  const std::string e = error_of(with("workload {", "workload {\n  benchmark: HPL_MXP\n  hpl { nbmin: 4 }"));
  EXPECT_EQ(e, "x.textproto:26:3: workload.hpl is only valid with benchmark HPL, got HPL_MXP");
}

TEST(ScenarioLoader, ReadsThePanelExchangeStrategyAndRejectsAnUnknownOne) {
  // docs/faults.md, "Collective versus point-to-point": P2P by default.
  EXPECT_EQ(resolve(load_scenario_text(kValid, "x.textproto")).workload.hpl.panel_exchange,
            PanelExchange::P2P);
  const std::string hybrid = with("  q: 4", "  q: 4\n  hpl {\n    panel_exchange: HYBRID\n  }");
  EXPECT_EQ(resolve(load_scenario_text(hybrid, "x.textproto")).workload.hpl.panel_exchange,
            PanelExchange::Hybrid);
  const std::string e = error_of(with("  q: 4", "  q: 4\n  hpl {\n    panel_exchange: ALLREDUCE\n  }"));
  EXPECT_NE(e.find("x.textproto:32:"), std::string::npos) << e;
  EXPECT_NE(e.find("ALLREDUCE"), std::string::npos) << e;
  // --set names the flag on a bad value.
  ScenarioOverrides o;
  o.set.push_back("workload.hpl.panel_exchange=SOMETIMES");
  const std::string f = error_of(kValid, o);
  EXPECT_NE(f.find("workload.hpl.panel_exchange"), std::string::npos) << f;
}

TEST(ScenarioLoader, RejectsNdivBelowTwo) {
  EXPECT_EQ(error_of(with("  q: 4", "  q: 4\n  hpl {\n    ndiv: 1\n  }")),
            "x.textproto:32:5: workload.hpl.ndiv must be >= 2, got 1");
}

TEST(ScenarioLoader, ChecksTheGpuAwarePathFields) {
  // The device path's overhead may be 0 but not negative; its rate cap must be > 0.
  const std::string placement =
      "    shm_bandwidth_bytes_per_s: 100e9\n  }\n  placement {\n    gpu_aware_mpi: true\n";
  auto scenario = [&](const std::string& fields) {
    return with("    shm_bandwidth_bytes_per_s: 100e9\n  }", placement + fields + "  }");
  };
  // kValid's node closes at line 22; the placement block follows, its field under test on line 25.
  EXPECT_EQ(error_of(scenario("    gpu_aware_overhead_s: -1e-6\n")),
            "x.textproto:25:5: machine.placement.gpu_aware_overhead_s must be >= 0, got -1e-06");
  EXPECT_EQ(error_of(scenario("    gpu_aware_bandwidth_bytes_per_s: 0\n")),
            "x.textproto:25:5: machine.placement.gpu_aware_bandwidth_bytes_per_s must be > 0, got 0");
  const ResolvedScenario r = resolve(load_scenario_text(
      scenario("    gpu_aware_overhead_s: 1.45e-6\n    gpu_aware_bandwidth_bytes_per_s: 6e9\n"),
      "x.textproto"));
  EXPECT_TRUE(r.machine.placement.gpu_aware_mpi);
  EXPECT_DOUBLE_EQ(r.machine.placement.gpu_aware_overhead_s, 1.45e-6);
  EXPECT_DOUBLE_EQ(r.machine.placement.gpu_aware_bandwidth_bytes_per_s, 6e9);
}

TEST(ScenarioLoader, ReportsEveryBrokenCombinationAtOnce) {
  // Four rules broken together: the grid (2 x 4 = 8 ranks for 9 x 3 = 27), the
  // nodes (9 of a machine of 8: 2*2*4 ports / 2 NICs), the GPUs (3 ranks of one
  // GPU each on 2 GPUs) and the memory (N 65,536 on 1 GB GPUs: 4.3 GB of matrix
  // per rank). Lines: gpu_memory_bytes added at 21 moves the workload to 25.
  std::string text = with("    shm_bandwidth_bytes_per_s: 100e9",
                          "    shm_bandwidth_bytes_per_s: 100e9\n    gpu_memory_bytes: 1e9");
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"  nodes: 4", "  nodes: 9"},
                                 {"  ranks_per_node: 2", "  ranks_per_node: 3"},
                                 {"  n: 8192", "  n: 65536"}})
    text.replace(text.find(from), from.size(), to);
  const std::string e = error_of(text);
  EXPECT_EQ(e.rfind("x.textproto:25:1: workload: p*q = 8 must equal nodes*ranks_per_node = 27", 0), 0u) << e;
  EXPECT_NE(e.find("\nx.textproto:26:3: workload.nodes = 9 exceeds the machine's nodes = 8"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("\nx.textproto:27:3: workload: ranks_per_node*gpus_per_rank = 3*1 = 3 exceeds the "
                   "node's GPUs"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("\nx.textproto:28:3: the run does not fit in memory:"), std::string::npos) << e;
  EXPECT_EQ(std::count(e.begin(), e.end(), '\n'), 3) << e; // one line per problem
  try {
    load_scenario_text(text, "x.textproto");
    FAIL() << "expected ScenarioErrors";
  } catch (const ScenarioErrors& several) {
    EXPECT_EQ(several.problems().size(), 4u); // the command line prints each on its own error line
  }
}

TEST(ScenarioLoader, AFieldsOwnRuleStopsTheCheckAfterTheCombinationsFoundBeforeIt) {
  // The grid is reported, then a broken field's rule fails: both are listed.
  std::string text = with("  q: 4", "  q: 3");
  text += "options { fast { swap_roll_group: 3 } }\n";
  const std::string e = error_of(text);
  EXPECT_EQ(e.rfind("x.textproto:24:1: workload: p*q = 6 must equal", 0), 0u) << e;
  EXPECT_NE(e.find("\nx.textproto:32:18: options.fast.swap_roll_group must be 1 or even, got 3"),
            std::string::npos)
      << e;
}

} // namespace
} // namespace hplsim::sim
