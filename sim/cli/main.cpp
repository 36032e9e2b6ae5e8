#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "sim/cli/cli.hpp"
#include "sim/distributed/world.hpp"
#include "sim/engine/asan_fibers.hpp"

int main(int argc, char** argv) {
  int code = 0;
  {
    // Joins the MPI job when an MPI launcher started hplsim (sim/distributed/world.hpp);
    // leaves it at the end of this scope.
    const hplsim::sim::World world(argc, argv);
    code = hplsim::sim::run_cli(argc, argv);
  }
  // Every output is written and closed. The process ends here without running
  // the exit handlers: SimGrid's would tear its engine down, which for a
  // full-scale platform frees millions of small objects one by one (seconds:
  // docs/benchmarks.md, "The full Aurora HPL run"), memory the process gives
  // back whole anyway. Sanitizer builds exit normally, so LeakSanitizer still
  // looks at everything.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  if (!HPLSIM_ASAN) std::_Exit(code);
  return code;
}
