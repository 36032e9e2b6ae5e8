#include "sim/scenario/scenario_paths.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#ifndef HPLSIM_DATA_DIR
#error "HPLSIM_DATA_DIR (hplsim's source tree) must be defined by sim/CMakeLists.txt"
#endif

namespace hplsim::sim {
namespace fs = std::filesystem;

std::string data_root() {
  const char* env = std::getenv("HPLSIM_DATA_DIR");
  if (env != nullptr && *env != '\0') return env;
  return HPLSIM_DATA_DIR;
}

namespace {

/// `p` (normalized) without its leading ".." components.
fs::path strip_parents(const fs::path& p) {
  fs::path out;
  bool leading = true;
  for (const fs::path& part : p) {
    if (leading && part == "..") continue;
    leading = false;
    out /= part;
  }
  return out;
}

bool exists(const fs::path& p) {
  std::error_code ignored;
  return fs::is_regular_file(p, ignored);
}

} // namespace

ScenarioFile find_scenario_file(const std::string& base_dir, const std::string& value) {
  ScenarioFile out;
  const fs::path given(value);
  if (given.is_absolute()) {
    out.tried.push_back(value);
  } else {
    const fs::path beside = (fs::path(base_dir.empty() ? "." : base_dir) / given).lexically_normal();
    out.tried.push_back(beside.string());
    const fs::path under_root =
        (fs::path(data_root()) / strip_parents(given.lexically_normal())).lexically_normal();
    if (under_root != beside) out.tried.push_back(under_root.string());
  }
  out.path = out.tried.front();
  for (const std::string& candidate : out.tried)
    if (exists(candidate)) {
      out.path = candidate;
      out.found = true;
      break;
    }
  return out;
}

std::string describe_tried(const ScenarioFile& file) {
  std::string text;
  for (std::size_t i = 0; i < file.tried.size(); ++i)
    text += (i > 0 ? ", " : "") + ("\"" + file.tried[i] + "\"") +
            (i == 0 && file.tried.size() > 1 ? " (next to the scenario)"
             : i > 0                         ? " (under the data root, $HPLSIM_DATA_DIR or the source tree)"
                                             : "");
  return text;
}

} // namespace hplsim::sim
