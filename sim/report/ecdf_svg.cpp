// Layout constants are pixels of the figure, chosen for legibility; they carry
// no model meaning.
#include "sim/report/ecdf_svg.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>

#include "sim/report/svg_text.hpp"

namespace hplsim::sim {

namespace {

using svg::escape;
using svg::px;

constexpr double kWidth = 900, kHeight = 330;
constexpr double kTop = 50, kBottom = 260;
// Okabe & Ito's colour-blind-safe palette, as the other figures: its 8
// colours, so a trials plot's series (up to 3 strategies x with/without
// faults) each have their own.
constexpr std::array<const char*, 8> kColors = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                                "#E69F00", "#56B4E9", "#F0E442", "#000000"};

void text(std::ostringstream& out, double x, double y, const std::string& s, const char* anchor = "middle",
          const std::string& extra = "") {
  out << "<text x=\"" << px(x) << "\" y=\"" << px(y) << "\" text-anchor=\"" << anchor << "\"" << extra << ">"
      << escape(s) << "</text>\n";
}

void panel(std::ostringstream& out, const EcdfPanel& p, double x0, double x1) {
  double lo = INFINITY, hi = -INFINITY;
  for (const EcdfSeries& s : p.series) {
    for (const double v : s.values)
      if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    for (const auto& [x, f] : s.curve)
      if (std::isfinite(x)) lo = std::min(lo, x), hi = std::max(hi, x);
  }
  if (!std::isfinite(lo)) lo = 0, hi = 1;
  if (!(hi > lo)) {
    const double pad = std::fabs(hi) > 0 ? std::fabs(hi) * 0.05 : 1.0;
    lo -= pad, hi += pad;
  }
  const double step = svg::nice_step((hi - lo) / 4);
  const double axis_lo = std::floor(lo / step) * step, axis_hi = std::ceil(hi / step) * step;
  const auto x_of = [&](double v) { return x0 + (v - axis_lo) / (axis_hi - axis_lo) * (x1 - x0); };
  const auto y_of = [&](double f) { return kBottom - f * (kBottom - kTop); };
  out << "<g class=\"ecdf\">\n";
  text(out, (x0 + x1) / 2, kTop - 14, p.title, "middle", " font-weight=\"bold\"");
  for (int i = 0; i <= 4; ++i) {
    const double y = y_of(i / 4.0);
    out << "<line x1=\"" << px(x0) << "\" y1=\"" << px(y) << "\" x2=\"" << px(x1) << "\" y2=\"" << px(y)
        << "\" stroke=\"#dddddd\"/>\n";
    text(out, x0 - 6, y + 4, svg::label(i / 4.0), "end", " font-size=\"10\"");
  }
  for (double v = axis_lo; v <= axis_hi + step / 2; v += step) {
    const double x = x_of(v);
    out << "<line x1=\"" << px(x) << "\" y1=\"" << px(kBottom) << "\" x2=\"" << px(x) << "\" y2=\""
        << px(kBottom + 5) << "\" stroke=\"black\"/>\n";
    text(out, x, kBottom + 18, svg::label(std::fabs(v) < step * 1e-9 ? 0.0 : v), "middle",
         " font-size=\"10\"");
  }
  out << "<rect x=\"" << px(x0) << "\" y=\"" << px(kTop) << "\" width=\"" << px(x1 - x0) << "\" height=\""
      << px(kBottom - kTop) << "\" fill=\"none\" stroke=\"black\"/>\n";
  text(out, (x0 + x1) / 2, kBottom + 38, p.x_label);
  const double ym = (kTop + kBottom) / 2;
  text(out, x0 - 40, ym, p.y_label, "middle",
       " font-size=\"11\" transform=\"rotate(-90 " + px(x0 - 40) + " " + px(ym) + ")\"");
  for (std::size_t s = 0; s < p.series.size(); ++s) {
    std::vector<double> v;
    for (const double x : p.series[s].values)
      if (std::isfinite(x)) v.push_back(x);
    std::sort(v.begin(), v.end());
    const char* colour = kColors[s % kColors.size()];
    const std::string label =
        p.series[s].name + (p.series[s].curve.empty() ? " (" + std::to_string(v.size()) + ")" : "");
    if (p.series.size() > 1) {
      // Bottom right, where a distribution function rising to the top right leaves room.
      const double ly = kBottom - 10 - 16 * static_cast<double>(p.series.size() - 1 - s);
      out << "<line x1=\"" << px(x1 - 28) << "\" y1=\"" << px(ly - 4) << "\" x2=\"" << px(x1 - 8)
          << "\" y2=\"" << px(ly - 4) << "\" stroke=\"" << colour << "\" stroke-width=\"3\"/>\n";
      text(out, x1 - 34, ly, label, "end", " font-size=\"11\"");
    }
    if (!p.series[s].curve.empty()) {
      out << "<polyline class=\"curve\" fill=\"none\" stroke=\"" << colour
          << "\" stroke-width=\"2\" points=\"";
      for (std::size_t i = 0; i < p.series[s].curve.size(); ++i)
        out << (i ? " " : "") << px(x_of(p.series[s].curve[i].first)) << ","
            << px(y_of(std::clamp(p.series[s].curve[i].second, 0.0, 1.0)));
      out << "\"/>\n";
      continue;
    }
    if (v.empty()) continue;
    // The step curve: 0 left of the smallest value, up by 1/n at each value.
    std::ostringstream d;
    d << "M" << px(x0) << "," << px(y_of(0)) << " H" << px(x_of(v[0]));
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i > 0) d << " H" << px(x_of(v[i]));
      d << " V" << px(y_of(static_cast<double>(i + 1) / static_cast<double>(v.size())));
    }
    d << " H" << px(x1);
    out << "<path class=\"series\" d=\"" << d.str() << "\" fill=\"none\" stroke=\"" << colour
        << "\" stroke-width=\"2\"/>\n";
  }
  out << "</g>\n";
}

} // namespace

std::string ecdf_svg(const std::vector<EcdfPanel>& panels) {
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" << px(kWidth) << "\" height=\""
      << px(kHeight) << "\" viewBox=\"0 0 " << px(kWidth) << ' ' << px(kHeight)
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  const double each = kWidth / static_cast<double>(std::max<std::size_t>(panels.size(), 1));
  for (std::size_t i = 0; i < panels.size(); ++i)
    panel(out, panels[i], each * static_cast<double>(i) + 70, each * static_cast<double>(i + 1) - 30);
  out << "</svg>\n";
  return out.str();
}

} // namespace hplsim::sim
