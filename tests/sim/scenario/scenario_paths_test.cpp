// Where a scenario's files are read from (sim/scenario/scenario_paths.hpp):
// next to the scenario first, then under the data root with the leading "../"
// removed; an error names the scenario's line, the field and both places.
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "sim/scenario/scenario_defaults.hpp"
#include "sim/scenario/scenario_loader.hpp"
#include "sim/scenario/scenario_paths.hpp"

namespace hplsim::sim {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = fs::path(HPLSIM_SOURCE_DIR).lexically_normal();

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class ScenarioPaths : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("hplsim_paths_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    unsetenv("HPLSIM_DATA_DIR");
  }
  void TearDown() override {
    unsetenv("HPLSIM_DATA_DIR");
    fs::remove_all(dir_);
  }
  std::string write(const fs::path& relative, const std::string& text) {
    const fs::path path = dir_ / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }
  /// A shipped scenario copied, unchanged, to `relative` under the temp dir.
  std::string copy_of(const std::string& scenario, const fs::path& relative) {
    return write(relative, read_text(kSource / scenario));
  }
  fs::path dir_;
};

TEST_F(ScenarioPaths, TheDataRootIsTheSourceTreeUnlessTheEnvironmentNamesAnother) {
  EXPECT_EQ(fs::path(data_root()).lexically_normal(), kSource);
  setenv("HPLSIM_DATA_DIR", dir_.c_str(), 1);
  EXPECT_EQ(data_root(), dir_.string());
  setenv("HPLSIM_DATA_DIR", "", 1); // empty: as if unset
  EXPECT_EQ(fs::path(data_root()).lexically_normal(), kSource);
}

TEST_F(ScenarioPaths, ACopiedScenarioFindsItsCalibrationUnderTheDataRoot) {
  // aurora-hpl-1node names "../models/calibrations/aurora-node.textproto":
  // nothing is there from the temp dir, so the data root's models/ is read.
  const std::string copy = copy_of("scenarios/aurora-hpl-1node.textproto", "x/aurora-hpl-1node.textproto");
  const LoadedScenario loaded = load_scenario(copy);
  EXPECT_EQ(loaded.kernels_path, (kSource / "models/calibrations/aurora-node.textproto").string());
  EXPECT_GT(loaded.kernels.kernels_size(), 0);
  // Two levels up (the faults/ scenarios): the same file.
  const std::string deeper =
      copy_of("scenarios/faults/small-dragonfly-flap.textproto", "x/small-dragonfly-flap.textproto");
  EXPECT_EQ(load_scenario(deeper).kernels_path,
            (kSource / "models/calibrations/aurora-node.textproto").string());
}

TEST_F(ScenarioPaths, AFileNextToTheScenarioComesFirst) {
  // The same relative path exists beside the copy: that file is read, not the data root's.
  write("models/calibrations/aurora-node.textproto",
        "kernels {\n  name: \"gpu.gemm.fp64\"\n  peak_flops_per_s: 1e12\n  max_efficiency: 0.5\n}\n");
  const std::string copy = copy_of("scenarios/aurora-hpl-1node.textproto", "x/aurora-hpl-1node.textproto");
  const LoadedScenario loaded = load_scenario(copy);
  EXPECT_EQ(loaded.kernels_path, (dir_ / "models/calibrations/aurora-node.textproto").string());
  ASSERT_EQ(loaded.kernels.kernels_size(), 1);
  EXPECT_DOUBLE_EQ(loaded.kernels.kernels(0).peak_flops_per_s(), 1e12); // as written above
}

TEST_F(ScenarioPaths, TheEnvironmentMovesTheDataRoot) {
  const fs::path root = dir_ / "root";
  write("root/models/k.textproto",
        "kernels {\n  name: \"gpu.gemm.fp64\"\n  peak_flops_per_s: 2e12\n  max_efficiency: 0.5\n}\n");
  setenv("HPLSIM_DATA_DIR", root.c_str(), 1);
  const ScenarioFile f = find_scenario_file((dir_ / "a/b").string(), "../../../models/k.textproto");
  EXPECT_TRUE(f.found);
  EXPECT_EQ(f.path, (root / "models/k.textproto").string());
  ASSERT_EQ(f.tried.size(), 2u);
  EXPECT_EQ(f.tried[0], (dir_ / "../models/k.textproto").lexically_normal().string());
}

TEST_F(ScenarioPaths, AnAbsolutePathIsItsOnlyCandidate) {
  const std::string file = write("k.textproto", "");
  const ScenarioFile f = find_scenario_file("/nowhere", file);
  EXPECT_TRUE(f.found);
  EXPECT_EQ(f.path, file);
  EXPECT_EQ(f.tried.size(), 1u);
}

TEST_F(ScenarioPaths, AMissingFileNamesTheLineTheFieldAndBothPlaces) {
  std::string text = read_text(kSource / "scenarios/aurora-hpl-1node.textproto");
  const std::string from = "../models/calibrations/aurora-node.textproto";
  text.replace(text.find(from), from.size(), "../models/calibrations/no-such.textproto");
  const std::string copy = write("x/s.textproto", text);
  const auto at = text.find("  kernels_file:");
  const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  try {
    load_scenario(copy);
    FAIL() << "expected a ScenarioError";
  } catch (const ScenarioError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(copy + ":" + std::to_string(line) +
                             ":3: machine.kernels_file \"../models/calibrations/no-such.textproto\": no such "
                             "file; tried \"" +
                             (dir_ / "models/calibrations/no-such.textproto").string() +
                             "\" (next to the scenario), \"" +
                             (kSource / "models/calibrations/no-such.textproto").string() +
                             "\" (under the data root",
                         0),
              0u)
        << what;
  }
}

TEST_F(ScenarioPaths, NodeRatesFoundUnderTheDataRootReachTheModels) {
  // A node_rates_file only the data root has: handed on as an absolute path,
  // so the variability model (which joins relative paths to the scenario's
  // directory) reads the same file.
  const fs::path root = dir_ / "root";
  write("root/rates/r.txt", "1.0\n0.9\n1.1\n1.0\n");
  setenv("HPLSIM_DATA_DIR", root.c_str(), 1);
  std::string text = read_text(kSource / "scenarios/aurora-hpl-1node.textproto");
  const std::string from = "    gpu_rate_cv: 0.015\n";
  text.replace(text.find(from), from.size(), from + "    node_rates_file: \"../rates/r.txt\"\n");
  fs::create_directories(root / "models");
  fs::copy(kSource / "models/calibrations", root / "models/calibrations"); // the kernels_file too
  const LoadedScenario loaded = load_scenario(write("x/s.textproto", text));
  EXPECT_EQ(loaded.variability.node_rates_file(), (root / "rates/r.txt").string());
}

TEST_F(ScenarioPaths, ADropNodesFileUnderTheDataRootIsReadByThePrescreen) {
  // small-dragonfly-flap's machine (48 nodes) on 40 of them, with nodes 3 and
  // 7 listed in a file only the data root has: the run's nodes leave them out.
  const fs::path root = dir_ / "root";
  fs::create_directories(root / "models");
  fs::copy(kSource / "models/calibrations", root / "models/calibrations");
  write("root/lists/drop.txt", "3\n7\n");
  setenv("HPLSIM_DATA_DIR", root.c_str(), 1);
  std::string text = read_text(kSource / "scenarios/faults/small-dragonfly-flap.textproto");
  text = text.substr(0, text.find("faults {")) +
         "faults { prescreen { drop_nodes_file: \"../lists/drop.txt\" } }\n";
  ScenarioOverrides on_40;
  on_40.nodes = 40;
  on_40.p = 12;
  on_40.q = 20;
  const ResolvedScenario sc =
      resolve(load_scenario(write("x/s.textproto", text), on_40)); // resolve applies it
  const auto& m = sc.workload.node_map;
  ASSERT_EQ(m.size(), 40u);
  EXPECT_EQ(std::count(m.begin(), m.end(), 3), 0);
  EXPECT_EQ(std::count(m.begin(), m.end(), 7), 0);
}

} // namespace
} // namespace hplsim::sim
