#pragma once
// sweep.svg: a sweep's Rmax, readable with hundreds of points. Top, the best
// points (at most kSweepTopPoints) as a ranked dot plot, each row labelled
// with its varied values, whiskers for twice the sampling error when the
// points have one. Below, one small panel per varied parameter: every point's
// Rmax over that parameter's values (a strip of dots per value, the best
// point of each value ringed), so the effect of each parameter reads at a
// glance. Deterministic: the same points give the same bytes.
#include <cstddef>
#include <string>
#include <vector>

namespace hplsim::sim {

inline constexpr std::size_t kSweepTopPoints = 15;

struct SweepPlotPoint {
  std::vector<std::string> values; ///< one per varied name, in the names' order
  double rmax_flops_per_s = 0.0;   ///< <= 0: the point did not complete (not drawn)
  double sampling_error = -1.0;    ///< fraction; < 0: none
};

struct SweepPlot {
  std::string title;
  std::vector<std::string> names;     ///< the varied parameters
  std::vector<SweepPlotPoint> points; ///< best first
};

/// The SVG document.
std::string sweep_plot_svg(const SweepPlot& plot);

} // namespace hplsim::sim
