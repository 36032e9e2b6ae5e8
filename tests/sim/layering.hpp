#pragma once
// The layering check (tests/sim/layering_test.cpp): who may include whom in
// the source tree, read from the include lines of every .hpp/.cpp/.proto.
//   - each library (traces, topologies, models, sim/<library>) includes only
//     itself and the libraries it links (kLibraryDeps, the graph of the
//     CMakeLists: sim/CMakeLists.txt), directly or through them;
//   - the library graph has no cycle and is the one sim/CMakeLists.txt links;
//   - only sim/engine, sim/bench and sim/oracle (and the tests) include SimGrid
//     (<simgrid/...>, <xbt/...>);
//   - no two modules (a .hpp and its .cpp are one module) include each other,
//     directly or around a longer cycle;
//   - no file under sim/ is longer than kMaxSimFileLines.
// Each violation is one line "path:line: what".
#include <map>
#include <string>
#include <vector>

namespace hplsim::tests {

inline constexpr int kMaxSimFileLines = 600;

/// Checks the tree under `root` (the repository, or a planted copy).
std::vector<std::string> layering_violations(const std::string& root);

/// The cycles of a library graph (library -> the libraries it links), one line each.
std::vector<std::string> library_graph_cycles(const std::map<std::string, std::vector<std::string>>& graph);

} // namespace hplsim::tests
