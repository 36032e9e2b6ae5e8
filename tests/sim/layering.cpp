#include "tests/sim/layering.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <regex>
#include <set>

namespace hplsim::tests {

namespace {

namespace fs = std::filesystem;

// Direct dependencies, as linked in the CMakeLists (target_link_libraries).
const std::map<std::string, std::vector<std::string>>& library_deps() {
  static const std::map<std::string, std::vector<std::string>> deps = {
      {"traces", {}},
      {"topologies", {}},
      {"models", {"traces"}},
      {"sim/support", {}},
      {"sim/distributed", {}},
      {"sim/result", {"traces", "sim/support"}},
      {"sim/scenario", {"sim/support", "models", "topologies", "traces"}},
      {"sim/workload", {"sim/scenario", "traces", "models"}},
      {"sim/faults", {"sim/scenario", "models", "topologies"}},
      {"sim/engine",
       {"sim/faults", "sim/workload", "sim/scenario", "sim/result", "sim/support", "models", "topologies"}},
      {"sim/bench", {"sim/engine", "sim/scenario", "sim/support", "models", "traces"}},
      {"sim/fast", {"sim/engine", "sim/workload", "sim/result", "sim/support"}},
      {"sim/run", {"sim/fast", "sim/engine", "sim/result", "sim/scenario"}},
      {"sim/study", {"sim/run", "sim/report", "sim/faults", "sim/scenario", "sim/support", "models"}},
      {"sim/report", {"sim/result", "sim/support"}},
      {"sim/oracle", {"sim/study", "sim/engine", "sim/scenario", "sim/support", "models", "traces"}},
      {"sim/cli",
       {"sim/distributed", "sim/bench", "sim/study", "sim/run", "sim/fast", "sim/report", "sim/engine",
        "sim/scenario", "sim/workload", "sim/support", "models"}},
  };
  return deps;
}

std::set<std::string> reachable(const std::string& library) {
  std::set<std::string> seen = {library};
  std::vector<std::string> frontier = {library};
  while (!frontier.empty()) {
    const std::string l = frontier.back();
    frontier.pop_back();
    const auto it = library_deps().find(l);
    if (it == library_deps().end()) continue;
    for (const auto& d : it->second)
      if (seen.insert(d).second) frontier.push_back(d);
  }
  return seen;
}

// The library a repository path belongs to ("" outside the layered tree).
std::string library_of(const std::string& path) {
  const auto slash = path.find('/');
  if (slash == std::string::npos) return "";
  const std::string top = path.substr(0, slash);
  if (top == "traces" || top == "topologies" || top == "models") return top;
  if (top != "sim") return "";
  const auto second = path.find('/', slash + 1);
  return second == std::string::npos ? "sim" : path.substr(0, second);
}

std::string module_of(const std::string& path) {
  std::string m = path;
  for (const char* ext : {".pb.h", ".hpp", ".cpp", ".proto", ".h"})
    if (m.size() > std::string(ext).size() && m.ends_with(ext))
      return m.substr(0, m.size() - std::string(ext).size());
  return m;
}

struct Include {
  std::string file;
  int line;
  std::string target; // as written
  bool system;        // <...>
};

// The libraries each sim/ target links in sim/CMakeLists.txt
// (hplsim_sim_library(name deps...) and target_link_libraries(hplsim_name ...)),
// as repository folders; other targets (protobuf, SimGrid, JSON, CLI11) left out.
std::map<std::string, std::set<std::string>> cmake_library_deps(const std::string& cmake_text) {
  std::map<std::string, std::set<std::string>> deps;
  const auto folder = [](const std::string& target) -> std::string {
    const std::string name = target.substr(std::string("hplsim_").size());
    if (name == "traces" || name == "topologies" || name == "models") return name;
    if (name.ends_with("_proto") || name == "oracle_reference") return "";
    return "sim/" + name;
  };
  const std::regex call_re(R"re((hplsim_sim_library|target_link_libraries)\(\s*(hplsim_)?(\w+)([^)]*)\))re");
  const std::regex target_re(R"re(\bhplsim_\w+)re");
  for (auto it = std::sregex_iterator(cmake_text.begin(), cmake_text.end(), call_re);
       it != std::sregex_iterator(); ++it) {
    const std::string self = folder("hplsim_" + (*it)[3].str());
    if (self.empty() || !library_deps().contains(self)) continue;
    auto& mine = deps[self];
    const std::string args = (*it)[4].str();
    for (auto t = std::sregex_iterator(args.begin(), args.end(), target_re); t != std::sregex_iterator();
         ++t) {
      const std::string dep = folder(t->str());
      if (!dep.empty() && dep != self) mine.insert(dep);
    }
  }
  return deps;
}

} // namespace

std::vector<std::string> library_graph_cycles(const std::map<std::string, std::vector<std::string>>& graph) {
  std::vector<std::string> out;
  std::map<std::string, int> state; // 0 new, 1 on the stack, 2 done
  std::vector<std::string> stack;
  std::function<void(const std::string&)> visit = [&](const std::string& l) {
    state[l] = 1;
    stack.push_back(l);
    if (const auto it = graph.find(l); it != graph.end())
      for (const auto& next : it->second) {
        if (state[next] == 1) {
          std::string cycle;
          for (auto s = std::find(stack.begin(), stack.end(), next); s != stack.end(); ++s)
            cycle += *s + " -> ";
          out.push_back("library cycle " + cycle + next);
        } else if (state[next] == 0) {
          visit(next);
        }
      }
    stack.pop_back();
    state[l] = 2;
  };
  for (const auto& [l, _] : graph)
    if (state[l] == 0) visit(l);
  return out;
}

std::vector<std::string> layering_violations(const std::string& root) {
  std::vector<std::string> out;
  // The library graph itself: acyclic, and the one sim/CMakeLists.txt links.
  for (const auto& c : library_graph_cycles(library_deps()))
    out.push_back("tests/sim/layering.cpp: " + c);
  if (std::ifstream cmake{fs::path(root) / "sim/CMakeLists.txt"}) {
    const std::string text{std::istreambuf_iterator<char>(cmake), std::istreambuf_iterator<char>()};
    for (const auto& [lib, linked] : cmake_library_deps(text)) {
      const auto& declared = library_deps().at(lib);
      for (const auto& d : linked)
        if (std::find(declared.begin(), declared.end(), d) == declared.end())
          out.push_back("sim/CMakeLists.txt: " + lib + " links " + d +
                        ", which tests/sim/layering.cpp's graph does not list");
      for (const auto& d : declared)
        if (d.starts_with("sim/") && !linked.contains(d))
          out.push_back("tests/sim/layering.cpp: " + lib + " is listed as linking " + d +
                        ", which sim/CMakeLists.txt does not link");
    }
  }
  std::vector<Include> includes;
  std::vector<std::string> files;
  for (const char* top : {"traces", "topologies", "models", "sim"}) {
    if (!fs::exists(fs::path(root) / top)) continue;
    for (const auto& e : fs::recursive_directory_iterator(fs::path(root) / top)) {
      if (!e.is_regular_file()) continue;
      const std::string ext = e.path().extension().string();
      if (ext != ".hpp" && ext != ".cpp" && ext != ".proto") continue;
      files.push_back(fs::relative(e.path(), root).generic_string());
    }
  }
  std::sort(files.begin(), files.end());
  const std::regex include_re(R"re(^\s*#\s*include\s*([<"])([^>"]+)[>"])re");
  const std::regex import_re(R"re(^\s*import\s+"([^"]+)"\s*;)re");
  for (const auto& f : files) {
    std::ifstream in(fs::path(root) / f);
    std::string text;
    int line = 0;
    while (std::getline(in, text)) {
      ++line;
      std::smatch m;
      if (std::regex_search(text, m, include_re))
        includes.push_back({f, line, m[2].str(), m[1].str() == "<"});
      else if (std::regex_search(text, m, import_re))
        includes.push_back({f, line, m[1].str(), false});
    }
    if (f.starts_with("sim/") && line > kMaxSimFileLines)
      out.push_back(f + ":" + std::to_string(line) + ": " + std::to_string(line) + " lines, more than " +
                    std::to_string(kMaxSimFileLines) + ": split it by concept");
  }
  // Library edges and SimGrid.
  std::map<std::string, std::set<std::string>> module_edges;
  std::map<std::pair<std::string, std::string>, std::string> edge_site;
  for (const auto& inc : includes) {
    const std::string from_lib = library_of(inc.file);
    const bool simgrid = inc.target.starts_with("simgrid/") || inc.target.starts_with("xbt/");
    // sim/bench drives its own actors on engine's machine (the OSU benchmarks,
    // the noise benchmark); sim/oracle is a SimGrid plugin (smpirun's platform
    // library and xhpl's kernel prices).
    if (simgrid && from_lib != "sim/engine" && from_lib != "sim/bench" && from_lib != "sim/oracle")
      out.push_back(inc.file + ":" + std::to_string(inc.line) + ": includes SimGrid (" + inc.target +
                    "); only sim/engine, sim/bench and sim/oracle may");
    if (inc.system) continue;
    const std::string to_lib = library_of(inc.target);
    if (to_lib.empty()) continue;
    if (from_lib == "sim" || to_lib == "sim") {
      out.push_back(inc.file + ":" + std::to_string(inc.line) + ": " + inc.target +
                    ": files directly under sim/ belong to no library");
      continue;
    }
    if (!reachable(from_lib).contains(to_lib))
      out.push_back(inc.file + ":" + std::to_string(inc.line) + ": " + from_lib + " includes " + inc.target +
                    " but does not link " + to_lib);
    const std::string a = module_of(inc.file), b = module_of(inc.target);
    if (a != b && module_edges[a].insert(b).second)
      edge_site[{a, b}] = inc.file + ":" + std::to_string(inc.line);
  }
  // Cycles between modules (depth-first search; each cycle reported once, at
  // the include that closes it).
  std::map<std::string, int> state; // 0 new, 1 on the stack, 2 done
  std::vector<std::string> stack;
  std::function<void(const std::string&)> visit = [&](const std::string& m) {
    state[m] = 1;
    stack.push_back(m);
    for (const auto& next : module_edges[m]) {
      if (state[next] == 1) {
        std::string cycle;
        for (auto it = std::find(stack.begin(), stack.end(), next); it != stack.end(); ++it)
          cycle += *it + " -> ";
        out.push_back(edge_site[{m, next}] + ": include cycle " + cycle + next);
      } else if (state[next] == 0) {
        visit(next);
      }
    }
    stack.pop_back();
    state[m] = 2;
  };
  std::vector<std::string> modules;
  for (const auto& [m, _] : module_edges)
    modules.push_back(m);
  for (const auto& m : modules)
    if (state[m] == 0) visit(m);
  return out;
}

} // namespace hplsim::tests
