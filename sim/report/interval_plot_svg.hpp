#pragma once
// A figure of one or more panels, each a value with its interval at a few x
// positions (a plan's objective against node count; a sweep's Rmax against
// one varied parameter): points joined by a line, whiskers for the interval,
// the best point ringed. Deterministic: the same panels give the same bytes.
#include <optional>
#include <string>
#include <vector>

namespace hplsim::sim {

/// A further series of a panel: values at the panel's x positions.
struct IntervalSeries {
  std::string name;
  std::vector<double> y, low, high;
};

struct IntervalPanel {
  std::string title, y_label;
  std::vector<double> x, y, low, high; ///< NaN y: no point there; an infinite bound is drawn to the frame
  std::vector<std::string> x_labels;   ///< when given, written under the points instead of x
  std::optional<std::size_t> best;     ///< ringed
  /// With `more`: the series above is named `name`, each series has a colour
  /// of its own and a legend entry, and their points at one x stand side by side.
  std::string name;
  std::vector<IntervalSeries> more;
};

/// The SVG document: the panels stacked, sharing the x positions' labels.
std::string interval_plot_svg(const std::string& x_label, const std::vector<IntervalPanel>& panels);
/// Writes it atomically (OutputError when it cannot).
void write_interval_plot_svg(const std::string& x_label, const std::vector<IntervalPanel>& panels,
                             const std::string& path);

} // namespace hplsim::sim
