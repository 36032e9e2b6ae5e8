// Heatmap as SVG 1.1 text. Layout constants are pixels of the figure, chosen
// for legibility; they carry no model meaning.
#include "sim/report/heatmap_svg.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>

#include "sim/report/svg_text.hpp"
#include "sim/support/output_files.hpp"

namespace hplsim::sim {

namespace {

using svg::escape;
using svg::px;

// Sequential palette: viridis sampled at 0, 0.25, 0.5, 0.75, 1 (van der Walt
// and Smith, matplotlib's default colour map; perceptually uniform and
// readable in grey and by colour-blind readers).
constexpr std::array<std::array<double, 3>, 5> kStops = {
    {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}};

std::string colour(double t) {
  t = std::clamp(t, 0.0, 1.0) * (kStops.size() - 1);
  const std::size_t i = std::min<std::size_t>(static_cast<std::size_t>(t), kStops.size() - 2);
  const double f = t - static_cast<double>(i);
  char buf[8];
  const auto channel = [&](int c) {
    return static_cast<int>(std::lround(kStops[i][c] + f * (kStops[i + 1][c] - kStops[i][c])));
  };
  std::snprintf(buf, sizeof buf, "#%02X%02X%02X", channel(0), channel(1), channel(2));
  return buf;
}

// Every value with the decimals that give the largest four significant digits.
std::string value_text(double v, double largest) {
  std::ostringstream s;
  const int digits = largest > 0 ? static_cast<int>(std::floor(std::log10(largest))) : 0;
  s.precision(std::clamp(3 - digits, 0, 6));
  s << std::fixed << v;
  return s.str();
}

} // namespace

std::string heatmap_svg(const Heatmap& map) {
  constexpr double kCellW = 96, kCellH = 40, kLeft = 130, kTop = 70;
  // At least wide enough for the legend line under the cells.
  const double width = std::max(kLeft + kCellW * static_cast<double>(map.columns.size()) + 40, 660.0);
  const double height = kTop + kCellH * static_cast<double>(map.rows.size()) + 90;
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& row : map.values)
    for (const double v : row)
      if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" << px(width) << "\" height=\""
      << px(height) << "\" viewBox=\"0 0 " << px(width) << ' ' << px(height)
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << px(width / 2) << "\" y=\"26\" text-anchor=\"middle\" font-size=\"15\">"
      << escape(map.title) << "</text>\n"
      << "<text x=\"" << px(kLeft + kCellW * static_cast<double>(map.columns.size()) / 2) << "\" y=\""
      << px(kTop - 26) << "\" text-anchor=\"middle\">" << escape(map.column_label) << "</text>\n"
      << "<text x=\"" << px(kLeft - 12) << "\" y=\"" << px(kTop - 8) << "\" text-anchor=\"end\">"
      << escape(map.row_label) << "</text>\n";
  for (std::size_t c = 0; c < map.columns.size(); ++c)
    out << "<text x=\"" << px(kLeft + kCellW * (static_cast<double>(c) + 0.5)) << "\" y=\"" << px(kTop - 8)
        << "\" text-anchor=\"middle\">" << escape(map.columns[c]) << "</text>\n";
  for (std::size_t r = 0; r < map.rows.size(); ++r) {
    const double y = kTop + kCellH * static_cast<double>(r);
    out << "<text x=\"" << px(kLeft - 12) << "\" y=\"" << px(y + kCellH / 2 + 4) << "\" text-anchor=\"end\">"
        << escape(map.rows[r]) << "</text>\n";
    for (std::size_t c = 0; c < map.columns.size(); ++c) {
      const double x = kLeft + kCellW * static_cast<double>(c);
      const double v = r < map.values.size() && c < map.values[r].size() ? map.values[r][c] : NAN;
      const bool best = map.best && map.best->first == r && map.best->second == c;
      const bool near = r < map.near_best.size() && c < map.near_best[r].size() && map.near_best[r][c];
      if (!std::isfinite(v)) {
        out << "<rect x=\"" << px(x) << "\" y=\"" << px(y) << "\" width=\"" << px(kCellW) << "\" height=\""
            << px(kCellH) << "\" fill=\"#eeeeee\" stroke=\"white\"/>\n";
        continue;
      }
      const double t = hi > lo ? (v - lo) / (hi - lo) : 1.0;
      out << "<rect class=\"cell"
          << (best   ? " best"
              : near ? " near-best"
                     : "")
          << "\" x=\"" << px(x) << "\" y=\"" << px(y) << "\" width=\"" << px(kCellW) << "\" height=\""
          << px(kCellH) << "\" fill=\"" << colour(t) << "\" stroke=\"white\"/>\n";
      if (best || near)
        out << "<rect x=\"" << px(x + 3) << "\" y=\"" << px(y + 3) << "\" width=\"" << px(kCellW - 6)
            << "\" height=\"" << px(kCellH - 6) << "\" fill=\"none\" stroke=\"#D55E00\" stroke-width=\""
            << (best ? "3" : "1.5") << "\"" << (best ? "" : " stroke-dasharray=\"4,3\"") << "/>\n";
      out << "<text x=\"" << px(x + kCellW / 2) << "\" y=\"" << px(y + kCellH / 2 + 4)
          << "\" text-anchor=\"middle\" fill=\"" << (t < 0.6 ? "white" : "black") << "\""
          << (best ? " font-weight=\"bold\"" : "") << ">" << value_text(v, hi) << "</text>\n";
    }
  }
  const double ly = kTop + kCellH * static_cast<double>(map.rows.size()) + 30;
  bool any_near = false;
  for (const auto& row : map.near_best)
    any_near = any_near || std::find(row.begin(), row.end(), true) != row.end();
  // The legend names only what is drawn: no dashed cell, no word of them.
  out << "<text x=\"" << px(kLeft) << "\" y=\"" << px(ly) << "\">" << escape(map.unit)
      << ". Ringed: the best." << (any_near ? " Dashed: within twice the sampling error of it." : "")
      << "</text>\n";
  // Colour scale: five stops from the lowest value to the highest.
  for (std::size_t i = 0; i < 5; ++i) {
    const double t = static_cast<double>(i) / 4.0;
    const double x = kLeft + static_cast<double>(i) * 60;
    out << "<rect x=\"" << px(x) << "\" y=\"" << px(ly + 12) << "\" width=\"60\" height=\"12\" fill=\""
        << colour(t) << "\"/>\n";
    if (std::isfinite(lo))
      out << "<text x=\"" << px(x + 30) << "\" y=\"" << px(ly + 38)
          << "\" text-anchor=\"middle\" font-size=\"10\">" << value_text(lo + t * (hi - lo), hi)
          << "</text>\n";
  }
  out << "</svg>\n";
  return out.str();
}

void write_heatmap_svg(const Heatmap& map, const std::string& path) {
  const std::string svg = heatmap_svg(map);
  write_file_atomically(path, [&svg](std::ostream& out) { out << svg; });
}

} // namespace hplsim::sim
