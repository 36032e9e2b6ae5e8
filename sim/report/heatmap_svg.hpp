#pragma once
// A value over a grid of two parameters (a sweep's Rmax over P x Q and NB):
// one coloured cell each with its value written in it, the best ringed, the
// cells within the sampling error of the best outlined dashed. Deterministic:
// the same map gives the same bytes.
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hplsim::sim {

struct Heatmap {
  std::string title, row_label, column_label, unit;
  std::vector<std::string> rows, columns;
  std::vector<std::vector<double>> values; ///< [row][column]; NaN: no point there
  /// [row][column]: not distinguishable from the best (drawn dashed); may be empty.
  std::vector<std::vector<bool>> near_best;
  std::optional<std::pair<std::size_t, std::size_t>> best; ///< (row, column), ringed
};

/// The SVG document.
std::string heatmap_svg(const Heatmap& map);
/// Writes it atomically (OutputError when it cannot).
void write_heatmap_svg(const Heatmap& map, const std::string& path);

} // namespace hplsim::sim
