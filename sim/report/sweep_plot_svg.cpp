// sweep.svg as SVG 1.1 text. Layout constants are pixels of the figure, chosen
// for legibility; they carry no model meaning.
#include "sim/report/sweep_plot_svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "sim/report/svg_text.hpp"
#include "sim/report/units.hpp"

namespace hplsim::sim {

namespace {

using svg::escape;
using svg::px;

constexpr double kWidth = 900;
constexpr double kRowHeight = 20;         // a row of the ranked dot plot
constexpr double kCharWidth = 7.0;        // of the 12 px sans-serif font, bold included, on average
constexpr double kFacetHeight = 170;      // a parameter's panel, its frame
constexpr double kFacetGap = 70;          // below a panel: its value labels and the next title
constexpr const char* kColor = "#0072B2"; // Okabe & Ito's blue, as the phase plot's gemm
constexpr const char* kBest = "#D55E00";  // Okabe & Ito's vermillion
constexpr const char* kGrid = "stroke=\"#dddddd\"";

void text(std::ostringstream& out, double x, double y, const std::string& s, const char* anchor = "middle",
          const std::string& extra = "") {
  out << "<text x=\"" << px(x) << "\" y=\"" << px(y) << "\" text-anchor=\"" << anchor << "\"" << extra << ">"
      << escape(s) << "</text>\n";
}

void line(std::ostringstream& out, double x1, double y1, double x2, double y2, const std::string& style) {
  out << "<line x1=\"" << px(x1) << "\" y1=\"" << px(y1) << "\" x2=\"" << px(x2) << "\" y2=\"" << px(y2)
      << "\" " << style << "/>\n";
}

/// An axis over [lo, hi] in steps of 1, 2 or 5 times a power of ten, about `ticks` of them.
struct Axis {
  double lo = 0, hi = 1, step = 1;
  Axis(double min_v, double max_v, int ticks) {
    if (!(max_v > min_v)) {
      const double pad = std::fabs(max_v) > 0 ? std::fabs(max_v) * 0.05 : 1.0;
      min_v -= pad, max_v += pad;
    }
    step = svg::nice_step((max_v - min_v) / ticks);
    lo = std::floor(min_v / step) * step;
    hi = std::ceil(max_v / step) * step;
  }
  double at(double v, double from, double to) const { return from + (v - lo) / (hi - lo) * (to - from); }
  std::vector<double> values() const {
    std::vector<double> out;
    for (double v = lo; v <= hi + step / 2; v += step)
      out.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
    return out;
  }
};

std::string point_label(const SweepPlot& plot, const SweepPlotPoint& p) {
  std::string s;
  for (std::size_t i = 0; i < plot.names.size() && i < p.values.size(); ++i)
    s += (s.empty() ? "" : " ") + plot.names[i] + "=" + p.values[i];
  return s.empty() ? "the scenario" : s;
}

/// The distinct values of parameter `k`, numerically ordered when all are numbers.
std::vector<std::string> levels_of(const SweepPlot& plot, std::size_t k) {
  std::vector<std::string> levels;
  for (const SweepPlotPoint& p : plot.points)
    if (k < p.values.size() && std::find(levels.begin(), levels.end(), p.values[k]) == levels.end())
      levels.push_back(p.values[k]);
  const auto numeric = [](const std::string& s) {
    char* end = nullptr;
    std::strtod(s.c_str(), &end);
    return !s.empty() && *end == '\0';
  };
  if (std::all_of(levels.begin(), levels.end(), numeric))
    std::sort(levels.begin(), levels.end(), [](const std::string& a, const std::string& b) {
      return std::strtod(a.c_str(), nullptr) < std::strtod(b.c_str(), nullptr);
    });
  else
    std::sort(levels.begin(), levels.end());
  return levels;
}

std::string shorten(const std::string& s, double width_px) {
  const auto fits = static_cast<std::size_t>(std::max(3.0, width_px / kCharWidth));
  return s.size() <= fits ? s : s.substr(0, fits - 1) + "\u2026";
}

} // namespace

std::string sweep_plot_svg(const SweepPlot& plot) {
  std::vector<const SweepPlotPoint*> done;
  for (const SweepPlotPoint& p : plot.points)
    if (p.rmax_flops_per_s > 0 && std::isfinite(p.rmax_flops_per_s)) done.push_back(&p);
  const Unit unit = rate_unit(done.empty() ? 0.0 : done.front()->rmax_flops_per_s);
  const auto scaled = [&](double v) { return v / unit.scale; };
  const std::size_t shown = std::min(done.size(), kSweepTopPoints);
  bool whiskers = false;
  for (std::size_t i = 0; i < shown; ++i)
    whiskers = whiskers || done[i]->sampling_error > 0;

  // Ranked dot plot of the best points.
  std::vector<std::string> labels;
  double label_w = 0;
  for (std::size_t i = 0; i < shown; ++i) {
    labels.push_back(std::to_string(i + 1) + ". " + point_label(plot, *done[i]));
    label_w = std::max(label_w, kCharWidth * static_cast<double>(labels.back().size()));
  }
  label_w = std::clamp(label_w, 80.0, 430.0);
  const double left = 40 + label_w, right = kWidth - 40;
  const double top = 76, bottom = top + kRowHeight * static_cast<double>(std::max<std::size_t>(shown, 1));
  double lo = INFINITY, hi = -INFINITY;
  for (std::size_t i = 0; i < shown; ++i) {
    const double r = done[i]->rmax_flops_per_s, e = std::max(0.0, done[i]->sampling_error) * r;
    lo = std::min(lo, scaled(r - 2 * e)), hi = std::max(hi, scaled(r + 2 * e));
  }
  const Axis top_axis(std::isfinite(lo) ? lo : 0.0, std::isfinite(hi) ? hi : 1.0, 5);

  // One panel per varied parameter, three to a row.
  const std::size_t facets = done.empty() ? 0 : plot.names.size();
  const std::size_t per_row = std::min<std::size_t>(3, std::max<std::size_t>(facets, 1));
  const std::size_t facet_rows = (facets + per_row - 1) / per_row;
  const double facets_top = bottom + 110;
  // The last row of panels ends with its value labels, 15 px under its frame.
  const double height =
      facet_rows > 0
          ? facets_top + static_cast<double>(facet_rows) * (kFacetHeight + kFacetGap) - kFacetGap + 40
          : bottom + 60;

  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" << px(kWidth) << "\" height=\""
      << px(height) << "\" viewBox=\"0 0 " << px(kWidth) << ' ' << px(height)
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  text(out, kWidth / 2, 26, plot.title, "middle", " font-size=\"15\"");
  const std::string count = std::to_string(plot.points.size());
  const std::string failed =
      done.size() < plot.points.size()
          ? " (" + std::to_string(plot.points.size() - done.size()) + " did not complete)"
          : "";
  const std::string heading = done.empty() ? "No point completed"
                              : shown == done.size()
                                  ? "All " + count + " points, best first" + failed
                                  : "The best " + std::to_string(shown) + " of " + count + " points" + failed;
  text(out, 20, 56, heading, "start", " font-weight=\"bold\"");

  out << "<g class=\"ranked\">\n";
  for (const double v : top_axis.values()) {
    const double x = top_axis.at(v, left, right);
    line(out, x, top, x, bottom, kGrid);
    line(out, x, bottom, x, bottom + 5, "stroke=\"black\"");
    text(out, x, bottom + 18, svg::label(v));
  }
  out << "<rect x=\"" << px(left) << "\" y=\"" << px(top) << "\" width=\"" << px(right - left)
      << "\" height=\"" << px(bottom - top) << "\" fill=\"none\" stroke=\"black\"/>\n";
  for (std::size_t i = 0; i < shown; ++i) {
    const SweepPlotPoint& p = *done[i];
    const double y = top + kRowHeight * (static_cast<double>(i) + 0.5);
    const double r = p.rmax_flops_per_s, e = std::max(0.0, p.sampling_error) * r;
    text(out, left - 8, y + 4, shorten(labels[i], label_w), "end", i == 0 ? " font-weight=\"bold\"" : "");
    if (e > 0) {
      const std::string whisker = std::string("stroke=\"") + kColor + "\" stroke-width=\"1.5\"";
      line(out, top_axis.at(scaled(r - 2 * e), left, right), y, top_axis.at(scaled(r + 2 * e), left, right),
           y, whisker);
    }
    out << "<circle class=\"" << (i == 0 ? "best" : "point") << "\" cx=\""
        << px(top_axis.at(scaled(r), left, right)) << "\" cy=\"" << px(y) << "\" r=\"4.5\" fill=\""
        << (i == 0 ? kBest : kColor) << "\"/>\n";
  }
  text(out, (left + right) / 2, bottom + 38,
       std::string("Rmax (") + unit.name + ")" + (whiskers ? "; whiskers: twice the sampling error" : ""));
  out << "</g>\n";

  if (facets > 0) {
    text(out, 20, bottom + 78,
         "Rmax of every point over each varied parameter (ringed: the best at each value)", "start",
         " font-weight=\"bold\"");
    Axis y_axis(scaled(done.back()->rmax_flops_per_s), scaled(done.front()->rmax_flops_per_s), 4);
    const double panel_w = (kWidth - 20) / static_cast<double>(per_row);
    for (std::size_t k = 0; k < facets; ++k) {
      const std::vector<std::string> levels = levels_of(plot, k);
      const double x0 = 20 + panel_w * static_cast<double>(k % per_row) + 56, x1 = x0 + panel_w - 76;
      const double y0 = facets_top + static_cast<double>(k / per_row) * (kFacetHeight + kFacetGap) + 20;
      const double y1 = y0 + kFacetHeight - 20;
      out << "<g class=\"facet\">\n";
      text(out, (x0 + x1) / 2, y0 - 8, plot.names[k], "middle", " font-weight=\"bold\"");
      for (const double v : y_axis.values()) {
        const double y = y_axis.at(v, y1, y0);
        line(out, x0, y, x1, y, kGrid);
        text(out, x0 - 6, y + 4, svg::label(v), "end", " font-size=\"10\"");
      }
      out << "<rect x=\"" << px(x0) << "\" y=\"" << px(y0) << "\" width=\"" << px(x1 - x0) << "\" height=\""
          << px(y1 - y0) << "\" fill=\"none\" stroke=\"black\"/>\n";
      const double band = (x1 - x0) / static_cast<double>(levels.size());
      // At most about one value label per 40 px; the others' dots are still drawn.
      const std::size_t label_every = static_cast<std::size_t>(std::ceil(40.0 / band));
      for (std::size_t l = 0; l < levels.size(); ++l) {
        const double centre = x0 + band * (static_cast<double>(l) + 0.5);
        if (l % label_every == 0)
          text(out, centre, y1 + 15, shorten(levels[l], band * static_cast<double>(label_every) - 4),
               "middle", " font-size=\"10\"");
        std::vector<const SweepPlotPoint*> in;
        for (const SweepPlotPoint* p : done)
          if (k < p->values.size() && p->values[k] == levels[l]) in.push_back(p);
        // The level's dots spread about its centre, best first: 4 px apart, across
        // at most 60% of its band, so that a few points stay by their value's label.
        const double width =
            std::min(band * 0.6, 4.0 * static_cast<double>(in.size() - (in.empty() ? 0 : 1)));
        for (std::size_t j = 0; j < in.size(); ++j) {
          const double spread =
              in.size() > 1 ? static_cast<double>(j) / static_cast<double>(in.size() - 1) - 0.5 : 0.0;
          const double cx = centre + spread * width;
          const double cy = y_axis.at(scaled(in[j]->rmax_flops_per_s), y1, y0);
          out << "<circle cx=\"" << px(cx) << "\" cy=\"" << px(cy) << "\" r=\"2.5\" fill=\"" << kColor
              << "\" fill-opacity=\"0.45\"/>\n";
          if (j == 0)
            out << "<circle cx=\"" << px(cx) << "\" cy=\"" << px(cy) << "\" r=\"5\" fill=\"none\" stroke=\""
                << kBest << "\" stroke-width=\"1.5\"/>\n";
        }
      }
      text(out, x0 - 44, (y0 + y1) / 2, unit.name, "middle",
           " font-size=\"10\" transform=\"rotate(-90 " + px(x0 - 44) + " " + px((y0 + y1) / 2) + ")\"");
      out << "</g>\n";
    }
  }
  out << "</svg>\n";
  return out.str();
}

} // namespace hplsim::sim
