// The `hplsim` command line: run, topo, trace, calibrate, osu.
#include "sim/cli.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sys/resource.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "sim/cli_commands.hpp"
#include "sim/plot_svg.hpp"
#include "sim/report.hpp"
#include "sim/scenario_defaults.hpp"
#include "sim/scenario_loader.hpp"
#include "sim/simulation.hpp"
#include "sim/window_process.hpp"

namespace hplsim::sim {

namespace {

// Exit codes (README, "Command line"): 0 ok, 1 bad input, 2 usage, 3 internal error.
constexpr int kExitInput = 1;
constexpr int kExitInternal = 3;

// A progress bar on stderr, shown only when stderr is a terminal and the run
// has lasted more than two seconds.
class ProgressBar {
public:
  ProgressBar() : enabled_(isatty(STDERR_FILENO) != 0), start_(std::chrono::steady_clock::now()) {}
  void update(double fraction) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    const double elapsed_s = std::chrono::duration<double>(now - start_).count();
    if (elapsed_s < 2.0 || now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    shown_ = true;
    const int width = 40;
    const int filled = static_cast<int>(fraction * width);
    const double eta_s = fraction > 0 ? elapsed_s * (1.0 - fraction) / fraction : 0.0;
    std::fprintf(stderr, "\r[%.*s%*s] %5.1f%%  elapsed %.0fs  eta %.0fs ", filled,
                 "########################################", width - filled, "", 100.0 * fraction, elapsed_s,
                 eta_s);
    std::fflush(stderr);
  }
  void finish() {
    if (shown_) std::fprintf(stderr, "\r%*s\r", 80, "");
  }

private:
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_{};
};

void add_scenario_flags(CLI::App* cmd, ScenarioOverrides& ov) {
  cmd->add_option("--set", ov.set, "Override a scenario field: FIELD.PATH=VALUE (repeatable)");
  cmd->add_option("--nodes", ov.nodes, "Nodes used (workload.nodes)");
  cmd->add_option("--ppn", ov.ppn, "Ranks per node (workload.ranks_per_node)");
  cmd->add_option("--N", ov.n, "Matrix order N (workload.n)");
  cmd->add_option("--NB", ov.nb, "Block size NB (workload.nb)");
  cmd->add_option("--P", ov.p, "Process rows P (workload.p)");
  cmd->add_option("--Q", ov.q, "Process columns Q (workload.q)");
  cmd->add_option("--depth", ov.depth, "Look-ahead depth 0 or 1 (workload.depth)");
}

int cmd_run(const std::string& path, ScenarioOverrides ov, const std::string& out_dir) {
  const LoadedScenario loaded = load_scenario(path, ov);
  const ResolvedScenario sc = resolve(loaded);
  ProgressBar bar;
  SimulateOptions options;
  options.progress = [&bar](double f) { bar.update(f); };
  const auto t0 = std::chrono::steady_clock::now();
  RunResult result = simulate(sc, options);
  bar.finish();
  result.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  result.peak_rss_bytes = peak_rss_bytes(RUSAGE_SELF);
  if (result.window_processes > 0) result.window_peak_rss_bytes = peak_rss_bytes(RUSAGE_CHILDREN);
  std::filesystem::create_directories(out_dir);
  write_summary_json(result, out_dir + "/summary.json");
  write_steps_csv(result, out_dir + "/steps.csv");
  write_stats_json(result, out_dir + "/stats.json");
  write_phase_plot_svg(result, out_dir + "/phases.svg");
  print_summary(result, std::cout);
  std::cout << "outputs: " << out_dir << "/{summary.json,steps.csv,stats.json,phases.svg}\n";
  return 0;
}

} // namespace

int run_cli(int argc, char** argv) {
  CLI::App app{"hplsim: discrete-event simulation of HPL and HPL-MxP runs on exascale machines"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every subcommand");

  // run
  auto* run = app.add_subcommand("run", "Simulate a scenario and write summary.json, steps.csv, phases.svg");
  std::string run_path, out_dir;
  ScenarioOverrides run_ov;
  std::string mode;
  unsigned long long seed = 0;
  run->add_option("scenario", run_path, "Scenario file (.textproto)")->required();
  run->add_option("--mode", mode, "reference | fast | analytic | auto (default: the scenario's)")
      ->check(CLI::IsMember({"reference", "fast", "analytic", "auto"}));
  run->add_option("--seed", seed, "Random seed (default: the scenario's)");
  run->add_option("--out", out_dir, "Output directory (default: hplsim-out/<scenario name>)");
  add_scenario_flags(run, run_ov);

  // topo
  auto* topo_cmd = app.add_subcommand("topo", "Counts, bandwidths and diameter of a scenario's machine");
  std::string topo_path;
  bool topo_json = false;
  topo_cmd->add_option("scenario", topo_path, "Scenario file (.textproto)")->required();
  topo_cmd->add_flag("--json", topo_json, "Print JSON instead of text");

  // trace
  auto* trace = app.add_subcommand("trace", "Write the panel schedule of some steps (Protobuf stream)");
  std::string trace_path, trace_steps, trace_out;
  bool trace_text = false;
  ScenarioOverrides trace_ov;
  trace->add_option("scenario", trace_path, "Scenario file (.textproto)")->required();
  trace
      ->add_option("--steps", trace_steps,
                   "A:B, the steps A to B inclusive (the final solve is step ceil(N/NB))")
      ->required();
  trace->add_option("--out", trace_out, "Output file")->required();
  trace->add_flag("--text", trace_text, "Protobuf text format instead of the length-delimited binary stream");
  add_scenario_flags(trace, trace_ov);

  add_calibrate_commands(app);
  add_osu_command(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help is a "successful" parse error (0); every other one is a usage error.
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }

  try {
    if (*run) {
      if (!mode.empty()) run_ov.mode = mode;
      if (run->count("--seed") > 0) run_ov.seed = seed;
      if (out_dir.empty()) out_dir = "hplsim-out/" + std::filesystem::path(run_path).stem().string();
      return cmd_run(run_path, run_ov, out_dir);
    }
    if (*topo_cmd) return cmd_topo(topo_path, topo_json);
    if (*trace) return cmd_trace(trace_path, trace_ov, trace_steps, trace_out, trace_text);
    if (app.got_subcommand("osu")) return run_osu_command();
    return run_calibrate_command(app);
  } catch (const ScenarioError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitInput;
  } catch (const InputError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitInput;
  } catch (const std::invalid_argument& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitInput;
  } catch (const std::exception& e) {
    std::cerr << "hplsim: internal error: " << e.what() << "\n";
    return kExitInternal;
  }
}

} // namespace hplsim::sim
