#pragma once
// hplsim's one error model. Three kinds of failure reach the command line, and
// only sim/cli maps them to exit codes (kExit* below):
//   - UserError: the user's input is wrong (a scenario field, an input file, a
//     flag). The message says where (file:line:col: field, or --flag) and what
//     was expected. Exit 1. ScenarioError and InputError are its two faces.
//   - OutputError: an output could not be written (a directory that cannot be
//     created, a full disk). The message names the path. Exit 4.
//   - anything else (std::logic_error, an assertion, a std::runtime_error from
//     inside the simulator): a bug in hplsim. Exit 3.
// A simulated failure (a deadlock, a node failure) is none of these: it is a
// result (RunResult::completed = false) and the run exits 0.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace hplsim::sim {

/// Exit codes of `hplsim` (docs/usage.md, "Command line").
inline constexpr int kExitOk = 0;
inline constexpr int kExitInput = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInternal = 3;
inline constexpr int kExitOutput = 4;

/// Bad user input: exit 1.
class UserError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A scenario (.textproto, its calibration files, --set and the HPL.dat-style
/// flags): "scenarios/x.textproto:14:5: machine.node.nic_bandwidth_bytes_per_s must be > 0, got -1".
class ScenarioError : public UserError {
public:
  using UserError::UserError;
};

/// Several problems of one scenario, found together (the scenario loader lists
/// every broken combination of fields at once): what() is one problem per
/// line, and the command line prints each as an error line of its own.
class ScenarioErrors : public ScenarioError {
public:
  explicit ScenarioErrors(std::vector<std::string> problems)
      : ScenarioError(join(problems)), problems_(std::move(problems)) {}
  const std::vector<std::string>& problems() const { return problems_; }

private:
  static std::string join(const std::vector<std::string>& lines) {
    std::string all;
    for (const std::string& line : lines)
      all += (all.empty() ? "" : "\n") + line;
    return all;
  }
  std::vector<std::string> problems_;
};

/// Any other input: a measurement file, a bad --steps range, a flag's value.
class InputError : public UserError {
public:
  using UserError::UserError;
};

/// An output that could not be written; the message names the path. Exit 4.
class OutputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace hplsim::sim
