#pragma once
// hplsim's side of an oracle comparison: the reference-mode replay of the
// oracle's scenario (the one `hplsim run --hpl-dat F --machine SCENARIO
// --mode reference` runs), with what HPL's own timers can be set against: the
// run's time and every rank's phase times (HPL_DETAILED_TIMING reports each
// phase's maximum over the ranks).
#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine/rank_mean.hpp"
#include "sim/oracle/oracle_machine.hpp"

namespace hplsim::sim {

struct OracleReference {
  double time_s = 0.0;
  bool completed = false;
  std::vector<RankPhases> rank_phase_s;  ///< index = rank
  std::vector<RankPhases> rank_kernel_s; ///< the seconds of each rank's kernels, by phase
  std::vector<double> rank_swap_bcast_s; ///< broadcast work done by probes inside a swap (Replay)
  std::uint64_t activities = 0;
};

/// Runs the replay in this process's SimGrid engine (once per process).
OracleReference run_oracle_reference(const ResolvedScenario& scenario);

/// Writes the reference run (time, per-rank phase times and kernel seconds) as
/// one JSON file for scripts/oracle/compare.py.
void write_oracle_reference(const OracleReference& reference, const std::string& path);

} // namespace hplsim::sim
