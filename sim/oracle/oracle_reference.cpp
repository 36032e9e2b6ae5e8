#include "sim/oracle/oracle_reference.hpp"

#include <algorithm>
#include <ostream>

#include <nlohmann/json.hpp>

#include "sim/engine/machine.hpp"
#include "sim/engine/replay.hpp"
#include "sim/engine/replay_setup.hpp"
#include "sim/support/output_files.hpp"
#include "sim/workload/schedule_source.hpp"

namespace hplsim::sim {

OracleReference run_oracle_reference(const ResolvedScenario& sc) {
  BuiltMachine m = build_machine(sc);
  const auto source = make_schedule_source(sc);
  check_kernel_coverage(sc, *source, *m.kernels);
  Replay replay(*m.platform, *m.kernels, m.protocol.get(), source->step_function(), replay_options(sc));
  replay.start();
  m.engine->run();
  OracleReference r;
  r.time_s = replay.makespan_s();
  r.completed = replay.finished_ranks() == replay.active_ranks();
  r.rank_phase_s = replay.rank_phase_totals_s();
  r.rank_kernel_s = replay.rank_kernel_totals_s();
  r.rank_swap_bcast_s = replay.rank_swap_bcast_s();
  r.activities = replay.stats().activities();
  return r;
}

void write_oracle_reference(const OracleReference& reference, const std::string& path) {
  nlohmann::ordered_json j;
  j["time_s"] = reference.time_s;
  j["completed"] = reference.completed;
  j["activities"] = reference.activities;
  // Per phase, the largest over the ranks of each rank's total (as HPL_DETAILED_TIMING's "Max aggregated").
  nlohmann::ordered_json max_phase = nlohmann::ordered_json::object();
  for (int p = 0; p < kPhaseCount; ++p) {
    double most = 0.0;
    for (const RankPhases& r : reference.rank_phase_s)
      most = std::max(most, r[static_cast<std::size_t>(p)]);
    max_phase[kPhaseNames[static_cast<std::size_t>(p)]] = most;
  }
  j["max_rank_phase_s"] = max_phase;
  nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
  for (std::size_t r = 0; r < reference.rank_phase_s.size(); ++r) {
    nlohmann::ordered_json row = nlohmann::ordered_json::object();
    row["rank"] = r;
    for (int p = 0; p < kPhaseCount; ++p)
      row[std::string(kPhaseNames[static_cast<std::size_t>(p)]) + "_s"] = reference.rank_phase_s[r][p];
    for (int p = 0; p < kPhaseCount; ++p)
      row[std::string(kPhaseNames[static_cast<std::size_t>(p)]) + "_kernel_s"] =
          reference.rank_kernel_s[r][p];
    row["bcast_in_swap_s"] = reference.rank_swap_bcast_s[r];
    ranks.push_back(row);
  }
  j["ranks"] = ranks;
  write_file_atomically(path, [&](std::ostream& out) { out << j.dump(1) << "\n"; });
}

} // namespace hplsim::sim
