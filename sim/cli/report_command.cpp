// `hplsim report DIR`: one self-contained HTML page of an output directory
// (sim/report/html_report.hpp).
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "sim/cli/commands.hpp"
#include "sim/report/html_report.hpp"

namespace hplsim::sim {

namespace {

struct ReportArgs {
  std::string dir, out;
};

int report(const ReportArgs& a) {
  const std::string out = a.out.empty() ? (std::filesystem::path(a.dir) / "report.html").string() : a.out;
  write_html_report(a.dir, out);
  std::cout << "report: " << out << "\n";
  return kExitOk;
}

} // namespace

Command add_report_command(CLI::App& app) {
  auto args = std::make_shared<ReportArgs>();
  auto* cmd = app.add_subcommand(
      "report", "One self-contained HTML page of an output directory (run, faults, trials, sweep, plan)");
  cmd->add_option("dir", args->dir, "Output directory of hplsim run, sweep or plan")->required();
  cmd->add_option("--out", args->out, "The HTML file (default: DIR/report.html)");
  return {cmd, [args]() { return report(*args); }};
}

} // namespace hplsim::sim
