#pragma once
// about.json: what an output directory is the output of, for the report's
// title and layout (sim/report/html_report.hpp): the kind of run (run,
// trials, sweep, plan), the scenario's name and description, the HPL.dat
// a sweep's points come from, the mode and the seed. Deterministic: no path, no timestamp.
#include <string>

namespace hplsim::sim {

struct About {
  std::string kind;        ///< "run", "trials", "sweep", "plan", "sensitivity" or "noise-bench"
  std::string scenario;    ///< the scenario's name
  std::string description; ///< its description ("" when it has none)
  std::string source;      ///< the HPL.dat a sweep's points come from ("" otherwise)
  std::string mode;        ///< the mode the runs take (reference, fast, analytic)
  unsigned long long seed = 0;
};

/// Writes DIR/about.json atomically (OutputError when it cannot).
void write_about_json(const About& about, const std::string& dir);

} // namespace hplsim::sim
