// The `hplsim` command line: the verbs (sim/cli/commands.hpp) and the one
// place where errors become exit codes (sim/support/errors.hpp).
#include "sim/cli/cli.hpp"

#include <charconv>
#include <dlfcn.h>
#include <exception>
#include <iostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "sim/cli/commands.hpp"
#include "sim/distributed/world.hpp"
#include "sim/support/errors.hpp"
#include "sim/support/suggest.hpp"

#ifndef HPLSIM_VERSION
#error "HPLSIM_VERSION (the project's version) must be defined by sim/CMakeLists.txt"
#endif

namespace hplsim::sim {

namespace {

constexpr const char* kSetHelp =
    "Override a scenario field: FIELD.PATH=VALUE (repeatable). A repeated field takes an index, "
    "faults.link_flaps[0].duration_s=3; the index one past its last element appends one";

std::string bound_checker(std::string& typed, long long minimum) {
  long long value = 0;
  const char* end = typed.data() + typed.size();
  const auto [ptr, ec] = std::from_chars(typed.data(), end, value);
  if (ec == std::errc::result_out_of_range) return "out of range (got " + typed + ")";
  if (ec != std::errc{} || ptr != end) return "expects a whole number (got " + typed + ")";
  if (value < minimum) return "must be at least " + std::to_string(minimum) + " (got " + typed + ")";
  return "";
}

// Every flag name a verb takes ("--trials", "-h"), its own and the application's.
std::vector<std::string> flag_names(const CLI::App& verb) {
  std::vector<std::string> names;
  for (const CLI::App* a = &verb; a != nullptr; a = a->get_parent())
    for (const CLI::Option* o : a->get_options()) {
      for (const std::string& n : o->get_lnames())
        names.push_back("--" + n);
      for (const std::string& n : o->get_snames())
        names.push_back("-" + n);
    }
  return names;
}

bool is_number(std::string_view token) {
  double ignored = 0.0;
  const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), ignored);
  return ec == std::errc{} && ptr == token.data() + token.size();
}

// A command-line error in the user's words. A misspelled flag or verb is named
// with the nearest one ("run: unknown flag --trails; did you mean --trials?").
std::string usage_error(const CLI::App& app, const CLI::ParseError& e, int argc, char** argv) {
  const std::vector<CLI::App*> parsed = app.get_subcommands();
  if (parsed.empty()) {
    if (argc > 1 && argv[1][0] != '-') {
      std::vector<std::string> verbs;
      for (const CLI::App* sub : app.get_subcommands({}))
        verbs.push_back(sub->get_name());
      const std::string typed = argv[1];
      std::string message = "unknown verb " + typed;
      if (const auto near = closest_name(typed, verbs)) message += "; did you mean " + *near + "?";
      return message + " (hplsim --help lists them)";
    }
    return e.what();
  }
  // The innermost verb parsed ("calibrate kernels"): its flags and its parents'.
  const CLI::App* inner = parsed.front();
  std::string verb_name = inner->get_name();
  while (!inner->get_subcommands().empty()) {
    inner = inner->get_subcommands().front();
    verb_name += " " + inner->get_name();
  }
  const CLI::App& verb = *inner;
  const std::vector<std::string> known = flag_names(verb);
  const std::set<std::string> known_set(known.begin(), known.end());
  for (int i = 1; i < argc; ++i) {
    const std::string_view token = argv[i];
    if (token == "--") break;
    if (token.size() < 2 || token[0] != '-' || is_number(token)) continue;
    const std::string name(token.substr(0, token.find('=')));
    if (known_set.count(name) > 0) continue;
    std::string message = verb_name + ": unknown flag " + name;
    if (const auto near = closest_name(name, known)) message += "; did you mean " + *near + "?";
    return message + " (hplsim " + verb_name + " --help lists them)";
  }
  // A message about a flag starts with it ("--trials: ..."); any other names the verb.
  const std::string what = e.what();
  return what.rfind("-", 0) == 0 ? what : verb_name + ": " + what;
}

} // namespace

CLI::Validator at_least(long long minimum) {
  return CLI::Validator([minimum](std::string& typed) { return bound_checker(typed, minimum); },
                        "INT >= " + std::to_string(minimum));
}

CLI::Validator greater_than_zero() {
  return CLI::Validator(
      [](std::string& typed) {
        double value = 0.0;
        const char* end = typed.data() + typed.size();
        const auto [ptr, ec] = std::from_chars(typed.data(), end, value);
        if (ec != std::errc{} || ptr != end) return "expects a number (got " + typed + ")";
        if (!(value > 0.0)) return "must be greater than 0 (got " + typed + ")";
        return std::string();
      },
      "NUMBER > 0");
}

void warn_if_trials_identical(const ResolvedScenario& sc, const std::string& path, const std::string& what) {
  const Faults& f = sc.faults;
  if (f.has_failure_process() || f.has_flap_process() || !World::current().is_root()) return;
  std::cerr << "hplsim: warning: " << path
            << " has no fault to draw (no faults.failure_process or faults.flap_process): " << what
            << " are all identical\n";
}

std::string version_text() {
  return std::string("hplsim ") + HPLSIM_VERSION + "\nbuilt with SimGrid " + HPLSIM_SIMGRID_VERSION +
         "\nbuilt with Protobuf " + HPLSIM_PROTOBUF_VERSION + "\nallocator " +
         // jemalloc exports mallctl; glibc's malloc does not (sim/CMakeLists.txt, HPLSIM_JEMALLOC).
         (dlsym(RTLD_DEFAULT, "mallctl") != nullptr ? "jemalloc" : "system malloc");
}

void add_scenario_flags(CLI::App* cmd, ScenarioOverrides& ov) {
  cmd->add_option("--set", ov.set, kSetHelp);
  cmd->add_option("--nodes", ov.nodes, "Nodes used (workload.nodes)");
  cmd->add_option("--ppn", ov.ppn, "Ranks per node (workload.ranks_per_node)");
  cmd->add_option("--N", ov.n, "Matrix order N (workload.n)");
  cmd->add_option("--NB", ov.nb, "Block size NB (workload.nb)");
  cmd->add_option("--P", ov.p, "Process rows P (workload.p)");
  cmd->add_option("--Q", ov.q, "Process columns Q (workload.q)");
  cmd->add_option("--depth", ov.depth, "Look-ahead depth 0 or 1 (workload.depth)");
  cmd->add_flag("--sourced-only", ov.sourced_only,
                "Leave out the fitted parameters (calibration files that declare fit_targets): the model of "
                "sourced figures alone");
}

void add_study_scenario_flags(CLI::App* cmd, StudyScenarioFlags& f) {
  cmd->add_option("--mode", f.mode, "reference | fast | analytic | auto (default: the scenario's)")
      ->check(CLI::IsMember({"reference", "fast", "analytic", "auto"}));
  cmd->add_option("--seed", f.seed, "Random seed (default: the scenario's)");
  cmd->add_option("--set", f.set, kSetHelp);
  cmd->add_flag("--sourced-only", f.sourced_only,
                "Leave out the fitted parameters (calibration files that declare fit_targets): the model of "
                "sourced figures alone");
}

ScenarioOverrides StudyScenarioFlags::overrides(const CLI::App& cmd) const {
  ScenarioOverrides o;
  o.set = set;
  o.sourced_only = sourced_only;
  if (!mode.empty()) o.mode = mode;
  if (cmd.count("--seed") > 0) o.seed = seed;
  return o;
}

int run_cli(int argc, char** argv) {
  CLI::App app{"hplsim: discrete-event simulation of HPL and HPL-MxP runs on exascale machines"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every subcommand");
  app.set_version_flag("-V,--version", version_text(),
                       "Print the version of hplsim and of the libraries it was built with");
  const std::vector<Command> commands = {
      add_run_command(app),       add_topo_command(app),         add_trace_command(app),
      add_calibrate_command(app), add_osu_command(app),          add_noise_bench_command(app),
      add_plan_command(app),      add_sweep_command(app),        add_sensitivity_command(app),
      add_report_command(app),    add_rma_alltoallv_command(app)};
  // `hplsim help [VERB...]` is `hplsim [VERB...] --help`, as in git and cargo.
  std::vector<char*> args(argv, argv + argc);
  std::string help_flag = "--help";
  if (argc > 1 && std::string_view(argv[1]) == "help") {
    args.erase(args.begin() + 1);
    args.push_back(help_flag.data());
    argc = static_cast<int>(args.size());
    argv = args.data();
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "successful" parse errors (0); every other one
    // is a usage error, on one line.
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);
    std::cerr << "hplsim: error: " << usage_error(app, e, argc, argv) << "\n";
    return kExitUsage;
  }
  // Under MPI (sim/distributed/world.hpp) an error on one rank ends the whole
  // job with its exit code: the other ranks may be waiting for its answers.
  const World& world = World::current();
  const auto failed = [&world](int code) {
    world.abort(code);
    return code;
  };
  try {
    for (const Command& c : commands)
      if (*c.app) return c.run();
    return kExitUsage;
  } catch (const ScenarioErrors& e) {
    for (const std::string& problem : e.problems())
      std::cerr << "hplsim: error: " << problem << "\n";
    return failed(kExitInput);
  } catch (const UserError& e) {
    std::cerr << "hplsim: error: " << e.what() << "\n";
    return failed(kExitInput);
  } catch (const OutputError& e) {
    std::cerr << "hplsim: error: " << e.what() << "\n";
    return failed(kExitOutput);
  } catch (const std::exception& e) {
    std::cerr << "hplsim: error: internal error (a bug in hplsim): " << e.what() << "\n";
    return failed(kExitInternal);
  }
}

} // namespace hplsim::sim
