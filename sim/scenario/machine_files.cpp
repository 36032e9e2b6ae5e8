// The machine's calibration files (machine.*_file, relative to the scenario)
// and the MPI library's collectives (machine.mpi / machine.mpi_file).
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "sim/scenario/scenario_check.hpp"
#include "sim/scenario/scenario_paths.hpp"
#include "sim/scenario/scenario_validate.hpp"
#include "traces/mpi_collectives.hpp"

namespace hplsim::sim::detail {
namespace pb = google::protobuf;

/// Reads the file that machine.`field` names (sim/scenario/scenario_paths.hpp) into
/// `out`, `tree` locating its fields; returns the path as opened. Errors name
/// the field.
std::string read_machine_file(const Checker& c, const LoadedScenario& loaded, const std::string& field,
                              const std::string& relative, pb::Message& out,
                              pb::TextFormat::ParseInfoTree& tree) {
  const std::string name = "machine." + field;
  if (relative.empty()) c.fail(name, name + " must not be empty");
  const ScenarioFile found = find_scenario_file(loaded.base_dir, relative);
  if (!found.found)
    c.fail(name, name + " \"" + relative + "\": no such file; tried " + describe_tried(found));
  const std::string& file = found.path;
  std::ifstream in(file, std::ios::binary);
  if (!in) c.fail(name, name + ": cannot open \"" + file + "\": " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  parse_textproto(text.str(), file, out, tree);
  return file;
}

namespace {

// The table's rules (mpi::validate_collectives), the failure placed at the field it names.
void check_mpi(const Checker& c, const mpi::MpiCollectives& mpi, const std::string& prefix) {
  try {
    mpi::validate_collectives(mpi);
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    const std::string field = what.substr(0, what.find_first_of(":"));
    c.fail(prefix + field, prefix + what);
  }
}

} // namespace

void load_mpi(const Checker& c, LoadedScenario& loaded) {
  const Machine& m = loaded.scenario.machine();
  loaded.mpi.Clear();
  if (m.has_mpi_file()) {
    pb::TextFormat::ParseInfoTree tree;
    const std::string file = read_machine_file(c, loaded, "mpi_file", m.mpi_file(), loaded.mpi, tree);
    check_mpi(Checker(SourceMap{file, mpi::MpiCollectives::descriptor(), &tree}, nullptr), loaded.mpi, "");
    loaded.mpi_path = file;
  }
  if (!m.has_mpi()) return;
  check_mpi(c, m.mpi(), "machine.mpi.");
  if (m.mpi().selections_size() > 0) loaded.mpi.clear_selections();
  loaded.mpi.MergeFrom(m.mpi());
}

} // namespace hplsim::sim::detail
