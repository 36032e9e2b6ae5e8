// hplsim_oracle_kernels OUT.json: hplsim's kernel totals per rank and phase
// for the oracle's scenario (HPLSIM_ORACLE_MACHINE, HPLSIM_ORACLE_HPL_DAT; see
// sim/oracle/oracle_machine.hpp), for scripts/oracle/compare.sh.
#include <cstdio>
#include <exception>

#include "sim/oracle/oracle_machine.hpp"
#include "sim/oracle/schedule_kernels.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: hplsim_oracle_kernels OUT.json (the scenario comes from HPLSIM_ORACLE_*)\n");
    return 2;
  }
  try {
    hplsim::sim::write_schedule_kernels(hplsim::sim::oracle_machine(), argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  return 0;
}
