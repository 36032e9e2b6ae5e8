#include "sim/result/run_result.hpp"

#include <algorithm>
#include <string>
#include <string_view>

#include "traces/hpl_flops.hpp"

namespace hplsim::sim {

void finalize_result(RunResult& r) {
  r.time_s = 0.0;
  for (const auto& s : r.step_records)
    r.time_s = std::max(r.time_s, s.end_s);
  const double flops = traces::hpl_flops(r.n);
  // HPL-MxP: the refinement is the final step; its time is what the run spends after the last panel step.
  if (r.benchmark == "hpl-mxp" && r.step_records.size() >= 2) {
    const auto& last = r.step_records.back();
    r.refinement_s = last.end_s - r.step_records[r.step_records.size() - 2].end_s;
    // steps.csv's "extrapolated:k" (sim/fast/integration.cpp): k iterations simulated.
    constexpr std::string_view kExtrapolated = "extrapolated:";
    if (last.how.starts_with(kExtrapolated))
      r.refinement_iterations_simulated = std::stoi(last.how.substr(kExtrapolated.size()));
  }
  r.rmax_flops_per_s = r.time_s > 0.0 ? flops / r.time_s : 0.0;
}

} // namespace hplsim::sim
