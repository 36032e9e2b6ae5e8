#pragma once
// Runs the hplsim binary as a subprocess, for the CLI integration tests
// (cli/cli_test.cpp, bench/osu_bench_test.cpp). SimGrid 3.32 allows one engine per process,
// so these tests never call simulate() in the test process.
#include <stdlib.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef HPLSIM_CLI
#error "HPLSIM_CLI (path of the hplsim binary) must be defined by tests/sim/CMakeLists.txt"
#endif

namespace hplsim::sim::testing {

namespace fs = std::filesystem;

/// A fresh directory under the system temp dir, removed with its contents.
class TempDir {
public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "hplsim-test-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed: " + pattern);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& name) const { return path_ / name; }

private:
  fs::path path_;
};

inline std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void write_text(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

/// steps.csv's rows in `dir` as cells, header dropped.
inline std::vector<std::vector<std::string>> steps_rows(const fs::path& dir) {
  std::istringstream csv(read_text(dir / "steps.csv"));
  std::vector<std::vector<std::string>> rows;
  std::string line;
  std::getline(csv, line); // header
  while (std::getline(csv, line)) {
    std::vector<std::string> f;
    std::istringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');)
      f.push_back(cell);
    rows.push_back(f);
  }
  return rows;
}

/// A path inside the source tree ("scenarios/small-dragonfly.textproto").
inline std::string source_path(const std::string& relative) {
  return (fs::path(HPLSIM_SOURCE_DIR) / relative).string();
}

/// The text of a scenario of the source tree with its kernels file made
/// absolute ("../models/" or "../../models/"), so a copy written elsewhere
/// still finds the calibration.
inline std::string scenario_text(const std::string& relative) {
  std::string text = read_text(source_path(relative));
  for (const std::string from : {"\"../../models/", "\"../models/"})
    if (const auto at = text.find(from); at != std::string::npos) {
      text.replace(at, from.size(), "\"" + source_path("models/"));
      break;
    }
  return text;
}

/// small-dragonfly's text with its kernels_file made absolute, so a copy
/// written elsewhere still finds the calibration.
inline std::string small_dragonfly_text() {
  std::string text = read_text(source_path("scenarios/small-dragonfly.textproto"));
  const std::string from = "\"../models/";
  const auto at = text.find(from);
  if (at != std::string::npos) text.replace(at, from.size(), "\"" + source_path("models/"));
  return text;
}

/// small-dragonfly with exponential node failures at 0.311 per node-hour and a
/// 60 s restart, written into `dir` (the plan and MPI tests): at N 1,228,800
/// in analytic mode the run takes ~167 s and P(complete) is ~0.5 at 48 nodes
/// (tests/sim/cli/trials_test.cpp); failures are computed from the steps.
inline std::string small_dragonfly_with_failures(const TempDir& dir) {
  const std::string path = (dir / "failures.textproto").string();
  write_text(path, scenario_text("scenarios/small-dragonfly.textproto") +
                       "faults {\n  failure_process { law: EXPONENTIAL rate_per_node_per_hour: 0.311 }\n"
                       "  restart_setup_s: 60\n}\n");
  return path;
}

struct CliResult {
  int exit_code = -1; // -1: killed by a signal
  std::string out;
  std::string err;
};

inline std::string shell_quote(const std::string& arg) {
  std::string quoted = "'";
  for (char c : arg)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

/// Runs `program args...`; stdout and stderr go through files in `scratch`.
inline CliResult run_program(const std::string& program, const std::vector<std::string>& args,
                             const TempDir& scratch) {
  std::string command = shell_quote(program);
  for (const std::string& arg : args)
    command += " " + shell_quote(arg);
  const fs::path out = scratch / "cli.stdout";
  const fs::path err = scratch / "cli.stderr";
  command += " >" + shell_quote(out.string()) + " 2>" + shell_quote(err.string());
  const int status = std::system(command.c_str());
  CliResult result;
  if (status != -1 && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  result.out = read_text(out);
  result.err = read_text(err);
  return result;
}

/// Runs `hplsim args...`.
inline CliResult run_hplsim(const std::vector<std::string>& args, const TempDir& scratch) {
  return run_program(HPLSIM_CLI, args, scratch);
}

} // namespace hplsim::sim::testing
