// Writing outputs (sim/support/output_files.hpp): failures are OutputErrors
// naming the path, and a file is replaced whole or not at all.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

#include <gtest/gtest.h>

#include "sim/support/errors.hpp"
#include "sim/support/output_files.hpp"

namespace hplsim::sim {
namespace {

namespace fs = std::filesystem;

struct Scratch {
  Scratch() {
    path = fs::temp_directory_path() / ("hplsim-output-test-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~Scratch() { fs::remove_all(path); }
  fs::path path;
};

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(OutputFiles, PrepareCreatesTheDirectoryAndLeavesNothingBehind) {
  Scratch s;
  const fs::path dir = s.path / "a" / "b";
  prepare_output_dir(dir.string());
  EXPECT_TRUE(fs::is_directory(dir));
  EXPECT_TRUE(fs::is_empty(dir)) << "the write probe is removed";
}

TEST(OutputFiles, AnUncreatableDirectoryIsAnOutputErrorNamingIt) {
  try {
    prepare_output_dir("/proc/nope");
    FAIL() << "expected an OutputError";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("/proc/nope"), std::string::npos) << e.what();
  }
}

TEST(OutputFiles, AFileInTheWayIsAnOutputError) {
  Scratch s;
  std::ofstream(s.path / "f") << "x";
  EXPECT_THROW(prepare_output_dir((s.path / "f").string()), OutputError);
}

TEST(OutputFiles, AWriteReplacesTheFileWhole) {
  Scratch s;
  const fs::path f = s.path / "summary.json";
  write_file_atomically(f.string(), [](std::ostream& out) { out << "first\n"; });
  write_file_atomically(f.string(), [](std::ostream& out) { out << "second\n"; });
  EXPECT_EQ(read(f), "second\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(s.path), fs::directory_iterator{}), 1)
      << "no temporary left";
}

TEST(OutputFiles, AWriteThatFailsHalfwayLeavesThePreviousFile) {
  Scratch s;
  const fs::path f = s.path / "steps.csv";
  write_file_atomically(f.string(), [](std::ostream& out) { out << "complete\n"; });
  EXPECT_THROW(write_file_atomically(f.string(),
                                     [](std::ostream& out) {
                                       out << "half";
                                       throw std::runtime_error("the writer failed");
                                     }),
               std::runtime_error);
  EXPECT_EQ(read(f), "complete\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(s.path), fs::directory_iterator{}), 1)
      << "no temporary left";
}

TEST(OutputFiles, AFileInAMissingDirectoryIsAnOutputErrorNamingIt) {
  Scratch s;
  const std::string path = (s.path / "missing" / "x.csv").string();
  try {
    check_output_file(path);
    FAIL() << "expected an OutputError";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace hplsim::sim
