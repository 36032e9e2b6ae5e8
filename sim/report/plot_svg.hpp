#pragma once
// SVG plot of a run's per-step phases, written directly (no plotting library:
// one figure type, a few hundred lines, tested). Deterministic: same RunResult
// => same bytes.
#include <string>

#include "sim/result/run_result.hpp"

namespace hplsim::sim {

/// Two panels against the matrix fraction k*NB/N of each panel step (the final
/// solve is left out): top, the per-step time of pfact, bcast, swap, trsm and
/// gemm (one <polyline class="phase-NAME"> each, log-scale y from the 2nd
/// percentile of the times, at most 6 decades, smaller times drawn on the
/// axis; non-positive times skipped); bottom, the per-step rate in the unit
/// its largest value reads in (<polyline class="rate">). Every curve keeps per
/// pixel column of the axis its lowest and highest point, so a full-scale
/// run's ~75,000 steps make at most ~1,540 points a curve. The legend is a
/// row above the panels. A dashed vertical line marks the crossover
/// (sim/report/report.hpp) when there is one. Throws OutputError
/// (sim/support/errors.hpp) when the file cannot be written.
void write_phase_plot_svg(const RunResult& result, const std::string& path);

/// The same document as a string.
std::string phase_plot_svg(const RunResult& result);

} // namespace hplsim::sim
