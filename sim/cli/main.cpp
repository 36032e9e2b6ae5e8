#include "sim/cli/cli.hpp"
#include "sim/distributed/world.hpp"

int main(int argc, char** argv) {
  // Joins the MPI job when an MPI launcher started hplsim (sim/distributed/world.hpp).
  const hplsim::sim::World world(argc, argv);
  return hplsim::sim::run_cli(argc, argv);
}
