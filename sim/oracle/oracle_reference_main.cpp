// hplsim_oracle_reference OUT.json: hplsim's side of an oracle comparison for
// the scenario the environment names (HPLSIM_ORACLE_MACHINE,
// HPLSIM_ORACLE_HPL_DAT; sim/oracle/oracle_machine.hpp): the reference run's
// time, every rank's phase times and kernel seconds. Run by
// scripts/oracle/compare.py.
#include <cstdio>
#include <exception>

#include "sim/oracle/oracle_machine.hpp"
#include "sim/oracle/oracle_reference.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr,
                 "usage: hplsim_oracle_reference OUT.json (the scenario comes from HPLSIM_ORACLE_*)\n");
    return 2;
  }
  try {
    const hplsim::sim::OracleMachine& machine = hplsim::sim::oracle_machine();
    const hplsim::sim::OracleReference r = hplsim::sim::run_oracle_reference(machine.scenario);
    hplsim::sim::write_oracle_reference(r, argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  return 0;
}
