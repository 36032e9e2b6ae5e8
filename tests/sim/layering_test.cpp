// The layering of the source tree (tests/sim/layering.hpp): the real tree
// keeps it, and a planted copy with one violation of each rule is caught,
// each at its file and line.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "tests/sim/layering.hpp"

namespace hplsim::tests {
namespace {

namespace fs = std::filesystem;

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines)
    s += l + "\n";
  return s;
}

TEST(Layering, TheTreeKeepsItsLayers) {
  const auto violations = layering_violations(HPLSIM_SOURCE_DIR);
  EXPECT_TRUE(violations.empty()) << joined(violations);
}

class PlantedTree : public ::testing::Test {
protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("hplsim-layering-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  void plant(const std::string& path, const std::string& text) {
    fs::create_directories((root_ / path).parent_path());
    std::ofstream(root_ / path) << text;
  }
  std::string violations() const { return joined(layering_violations(root_.string())); }
  fs::path root_;
};

TEST_F(PlantedTree, ACleanTreePasses) {
  plant("sim/engine/replay.hpp",
        "#pragma once\n#include <simgrid/s4u.hpp>\n#include \"sim/scenario/x.hpp\"\n");
  plant("sim/scenario/x.hpp", "#pragma once\n#include \"models/m.hpp\"\n");
  plant("models/m.hpp", "#pragma once\n#include \"traces/schedule.pb.h\"\n");
  EXPECT_EQ(violations(), "");
}

TEST_F(PlantedTree, ALowerLibraryIncludingSimIsCaught) {
  plant("traces/t.hpp", "#pragma once\n\n#include \"sim/engine/replay.hpp\"\n");
  plant("sim/engine/replay.hpp", "#pragma once\n");
  EXPECT_NE(
      violations().find("traces/t.hpp:3: traces includes sim/engine/replay.hpp but does not link sim/engine"),
      std::string::npos)
      << violations();
}

TEST_F(PlantedTree, SimGridOutsideTheEngineIsCaught) {
  plant("sim/scenario/s.cpp", "// a comment\n#include <simgrid/s4u.hpp>\n");
  EXPECT_NE(violations().find("sim/scenario/s.cpp:2: includes SimGrid (simgrid/s4u.hpp); only sim/engine, "
                              "sim/bench and sim/oracle may"),
            std::string::npos)
      << violations();
}

TEST_F(PlantedTree, AnUpwardIncludeInsideSimIsCaught) {
  plant("sim/engine/e.cpp", "#include \"sim/fast/f.hpp\"\n");
  plant("sim/fast/f.hpp", "#pragma once\n");
  EXPECT_NE(
      violations().find("sim/engine/e.cpp:1: sim/engine includes sim/fast/f.hpp but does not link sim/fast"),
      std::string::npos)
      << violations();
}

TEST_F(PlantedTree, TwoModulesIncludingEachOtherAreCaught) {
  plant("sim/fast/a.hpp", "#pragma once\n#include \"sim/fast/b.hpp\"\n");
  plant("sim/fast/b.hpp", "#pragma once\n");
  plant("sim/fast/b.cpp", "#include \"sim/fast/b.hpp\"\n#include \"sim/fast/a.hpp\"\n");
  EXPECT_NE(violations().find("include cycle sim/fast/a -> sim/fast/b -> sim/fast/a"), std::string::npos)
      << violations();
}

TEST_F(PlantedTree, ALinkTheGraphDoesNotListIsCaught) {
  // engine linking bench would turn the stack upside down: engine sits below bench.
  plant("sim/CMakeLists.txt",
        "hplsim_sim_library(engine hplsim_bench hplsim_workload\n  PkgConfig::SIMGRID)\n");
  EXPECT_NE(violations().find(
                "sim/CMakeLists.txt: sim/engine links sim/bench, which tests/sim/layering.cpp's graph "
                "does not list"),
            std::string::npos)
      << violations();
}

TEST(LibraryGraph, ACycleIsCaughtAndTheStackHasNone) {
  EXPECT_EQ(joined(library_graph_cycles({{"sim/engine", {"sim/bench"}}, {"sim/bench", {"sim/engine"}}})),
            "library cycle sim/bench -> sim/engine -> sim/bench\n");
  EXPECT_EQ(joined(library_graph_cycles({{"sim/bench", {"sim/engine"}}, {"sim/engine", {"sim/support"}}})),
            "");
}

TEST_F(PlantedTree, AnOverlongSimFileIsCaught) {
  std::string text;
  for (int i = 0; i < kMaxSimFileLines + 1; ++i)
    text += "// line\n";
  plant("sim/run/long.cpp", text);
  EXPECT_NE(violations().find("sim/run/long.cpp:601: 601 lines"), std::string::npos) << violations();
}

} // namespace
} // namespace hplsim::tests
