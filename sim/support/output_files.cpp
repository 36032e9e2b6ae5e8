#include "sim/support/output_files.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <system_error>
#include <unistd.h>

#include "sim/support/errors.hpp"

namespace hplsim::sim {

namespace {

std::string temporary_name(const std::string& path) {
  return path + ".tmp-" + std::to_string(static_cast<long>(::getpid()));
}

// Creates and removes a probe file in `dir`: the only sure test that files can
// be written there (permissions, read-only mounts, /proc).
void probe_directory(const std::string& dir, const std::string& what) {
  const std::string probe = temporary_name((std::filesystem::path(dir) / ".hplsim-probe").string());
  std::FILE* f = std::fopen(probe.c_str(), "wb");
  if (f == nullptr) throw OutputError(what + ": cannot create a file there: " + std::strerror(errno));
  std::fclose(f);
  std::remove(probe.c_str());
}

// Every file an hplsim verb writes into its output directory (the verbs
// under sim/cli, `hplsim report`'s report.html).
const std::set<std::string>& output_file_names() {
  static const std::set<std::string> names = {"about.json",
                                              "summary.json",
                                              "steps.csv",
                                              "stats.json",
                                              "phases.svg",
                                              "faults.csv",
                                              "trials.csv",
                                              "trial-faults.csv",
                                              "outcome.json",
                                              "sweep.csv",
                                              "sweep.svg",
                                              "sweep-heatmap.svg",
                                              "plan.csv",
                                              "plan.svg",
                                              "sensitivity.csv",
                                              "sensitivity.svg",
                                              "sensitivity-differences.csv",
                                              "sensitivity-faults.csv",
                                              "sensitivity-trials.csv",
                                              "iterations.csv",
                                              "iterations.svg",
                                              "report.html"};
  return names;
}

} // namespace

std::vector<std::string> prepare_output_dir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw OutputError(dir + ": cannot create the output directory: " + ec.message());
  if (!std::filesystem::is_directory(dir, ec))
    throw OutputError(dir + ": the output path exists and is not a directory");
  probe_directory(dir, dir);
  // An earlier run's outputs would sit beside this run's and read as its own
  // (a faults.csv of a run with faults beside a run without): remove them.
  std::vector<std::string> removed, others;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file(ec) && output_file_names().contains(name)) {
      if (!std::filesystem::remove(e.path(), ec) || ec)
        throw OutputError(e.path().string() + ": cannot remove an earlier run's output: " + ec.message());
      removed.push_back(name);
    } else {
      others.push_back(name);
    }
  }
  std::sort(removed.begin(), removed.end());
  std::sort(others.begin(), others.end());
  const auto listed = [](const std::vector<std::string>& names) {
    std::string s;
    for (const std::string& n : names)
      s += (s.empty() ? "" : ", ") + n;
    return s;
  };
  if (!removed.empty())
    std::cerr << "hplsim: note: " << dir << " held an earlier run's outputs; removed " << listed(removed)
              << "\n";
  if (!others.empty())
    std::cerr << "hplsim: warning: " << dir << " also holds " << listed(others)
              << ", not outputs of hplsim: left as they are\n";
  return removed;
}

void check_output_file(const std::string& path) {
  const std::filesystem::path p(path);
  const std::string dir = p.has_parent_path() ? p.parent_path().string() : std::string(".");
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw OutputError(path + ": cannot write: directory " + dir + " does not exist");
  if (std::filesystem::is_directory(p, ec)) throw OutputError(path + ": cannot write: it is a directory");
  probe_directory(dir, path);
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  const std::string tmp = temporary_name(path);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw OutputError(path + ": cannot create: " + std::strerror(errno));
    try {
      write(out);
    } catch (...) {
      out.close();
      std::remove(tmp.c_str());
      throw;
    }
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw OutputError(path + ": error while writing (disk full?)");
    }
    out.close();
    if (out.fail()) {
      std::remove(tmp.c_str());
      throw OutputError(path + ": error while closing (disk full?)");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw OutputError(path + ": cannot rename the finished file into place: " + std::strerror(err));
  }
}

} // namespace hplsim::sim
