#include "sim/cli.hpp"

#include <CLI/CLI.hpp>

namespace hplsim::sim {
int run_cli(int argc, char** argv) {
  CLI::App app{"hplsim: discrete-event simulation of HPL and HPL-MxP runs"};
  app.require_subcommand(1);
  CLI11_PARSE(app, argc, argv);
  return 0;
}
} // namespace hplsim::sim
