// The figures a shipped scenario's header promises, checked against the run.
// A scenario states them in comment lines of the form
//   # expect: KEY VALUE +-TOLERANCE[%][, KEY VALUE +-TOLERANCE[%]]...
//   # expect: KEY true|false
// KEY is a dotted path into summary.json (rmax_tflops, time_s,
// crossover_fraction, phase_totals_s.bcast, ...); the tolerance is absolute,
// or relative to VALUE with "%". This test runs `hplsim run` on every shipped
// scenario that has such lines and checks each figure within its tolerance.
// Only quick scenarios carry them (small-dragonfly, aurora-hpl-1node,
// workstation-cpu, the small faults/ ones and the one-node rocHPL 7 checks of
// validation/, 5 s each); the full-scale Aurora and
// Frontier runs and bench-1020 take minutes and state their figures in prose.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/sim/cli/cli_runner.hpp"

namespace hplsim::sim::testing {
namespace {

using nlohmann::json;

struct Expectation {
  std::string key;
  std::optional<bool> flag; // KEY true|false
  double value = 0.0;
  double tolerance = 0.0; // absolute, after "%" is applied
  std::string text;       // as written, for messages
};

/// The "# expect:" figures of a scenario's text; a malformed one fails the test.
std::vector<Expectation> expectations(const std::string& text, const std::string& name) {
  static const std::regex number_item(
      R"(^\s*([A-Za-z_][A-Za-z0-9_.]*)\s+(-?[0-9.eE+-]+)\s+\+-([0-9.eE+-]+)(%?)\s*$)");
  static const std::regex flag_item(R"(^\s*([A-Za-z_][A-Za-z0-9_.]*)\s+(true|false)\s*$)");
  std::vector<Expectation> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    static const std::string kTag = "# expect:";
    if (line.rfind(kTag, 0) != 0) continue;
    std::istringstream items(line.substr(kTag.size()));
    for (std::string item; std::getline(items, item, ',');) {
      std::smatch m;
      Expectation e;
      e.text = item;
      if (std::regex_match(item, m, flag_item)) {
        e.key = m[1];
        e.flag = m[2] == "true";
      } else if (std::regex_match(item, m, number_item)) {
        e.key = m[1];
        e.value = std::stod(m[2]);
        e.tolerance = std::stod(m[3]);
        if (m[4] == "%") e.tolerance = std::abs(e.value) * e.tolerance / 100.0;
      } else {
        ADD_FAILURE() << name << ": cannot read \"" << item << "\" in: " << line;
        continue;
      }
      out.push_back(e);
    }
  }
  return out;
}

/// summary.json's value at dotted `key`, or nullptr when absent.
const json* at_path(const json& root, const std::string& key) {
  const json* node = &root;
  std::istringstream parts(key);
  for (std::string part; std::getline(parts, part, '.');) {
    if (!node->is_object() || !node->contains(part)) return nullptr;
    node = &node->at(part);
  }
  return node;
}

std::vector<std::string> scenarios_with_expectations() {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(source_path("scenarios")))
    if (e.path().extension() == ".textproto" && read_text(e.path()).find("\n# expect:") != std::string::npos)
      out.push_back(fs::relative(e.path(), source_path("")).string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(ScenarioExpect, TheQuickScenariosStateTheirFigures) {
  const std::vector<std::string> found = scenarios_with_expectations();
  for (const char* name :
       {"scenarios/small-dragonfly.textproto", "scenarios/aurora-hpl-1node.textproto",
        "scenarios/workstation-cpu.textproto", "scenarios/faults/small-dragonfly-flap.textproto",
        "scenarios/faults/small-dragonfly-node-failure.textproto",
        "scenarios/validation/mi250x-node-rochpl7.textproto",
        "scenarios/validation/mi300a-node-rochpl7.textproto"})
    EXPECT_NE(std::find(found.begin(), found.end(), name), found.end())
        << name << " has no \"# expect:\" line";
}

TEST(ScenarioExpect, EachStatedFigureHoldsWithinItsTolerance) {
  for (const std::string& name : scenarios_with_expectations()) {
    SCOPED_TRACE(name);
    const std::vector<Expectation> figures = expectations(read_text(source_path(name)), name);
    ASSERT_FALSE(figures.empty());
    TempDir dir;
    const CliResult r = run_hplsim({"run", source_path(name), "--out", (dir / "out").string()}, dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json summary = json::parse(read_text(dir / "out" / "summary.json"));
    for (const Expectation& e : figures) {
      const json* got = at_path(summary, e.key);
      ASSERT_NE(got, nullptr) << "summary.json has no " << e.key;
      if (e.flag) {
        EXPECT_EQ(got->get<bool>(), *e.flag) << e.text;
      } else {
        ASSERT_TRUE(got->is_number()) << e.key << " = " << got->dump();
        EXPECT_NEAR(got->get<double>(), e.value, e.tolerance) << e.text;
      }
    }
  }
}

} // namespace
} // namespace hplsim::sim::testing
