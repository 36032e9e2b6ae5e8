#pragma once
// Test helpers: scratch files under the build tree, removed by the fixture's owner.
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace hplsim::models::testing {

/// Writes `text` to a file named after the running test (unique per test) and returns its path.
inline std::string write_scratch_file(const std::string& suffix, const std::string& text) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::filesystem::path dir = std::filesystem::path(HPLSIM_BINARY_DIR) / "models_test_scratch";
  std::filesystem::create_directories(dir);
  const auto path = dir / (std::string(info->test_suite_name()) + "." + info->name() + suffix);
  std::ofstream(path) << text;
  return path.string();
}

inline std::string source_path(const std::string& relative) {
  return (std::filesystem::path(HPLSIM_SOURCE_DIR) / relative).string();
}

} // namespace hplsim::models::testing
