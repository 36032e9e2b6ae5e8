#include "sim/cli/cli.hpp"

int main(int argc, char** argv) {
  return hplsim::sim::run_cli(argc, argv);
}
