#include "sim/report/about.hpp"

#include <filesystem>

#include <nlohmann/json.hpp>

#include "sim/support/output_files.hpp"

namespace hplsim::sim {

void write_about_json(const About& about, const std::string& dir) {
  nlohmann::ordered_json j;
  j["kind"] = about.kind;
  j["scenario"] = about.scenario;
  j["description"] = about.description;
  if (!about.source.empty())
    j["source"] =
        std::filesystem::path(about.source).filename().string(); // no directory: same bytes anywhere
  j["mode"] = about.mode;
  j["seed"] = about.seed;
  const std::string text = j.dump(2) + '\n';
  write_file_atomically((std::filesystem::path(dir) / "about.json").string(),
                        [&text](std::ostream& out) { out << text; });
}

} // namespace hplsim::sim
