#pragma once
// Empirical distribution functions (a trials study's time to result and Rmax):
// panels side by side, each the share of the values at or below x as a step
// curve per series, so every value is drawn however many there are and no bin
// width is chosen. Deterministic: the same panels give the same bytes.
#include <string>
#include <utility>
#include <vector>

namespace hplsim::sim {

struct EcdfSeries {
  std::string name;           ///< in the legend when a panel has more than one series
  std::vector<double> values; ///< in the panel's unit; non-finite ones are left out
  /// A distribution function already computed, (x, share) in x order: drawn as
  /// a line instead of the values' steps (the legend counts no values then).
  std::vector<std::pair<double, double>> curve;
};

struct EcdfPanel {
  std::string title, x_label, y_label;
  std::vector<EcdfSeries> series;
};

/// The SVG document (the panels in one row, 900 px wide in all).
std::string ecdf_svg(const std::vector<EcdfPanel>& panels);

} // namespace hplsim::sim
