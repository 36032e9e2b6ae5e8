// Layout constants are pixels of the figure, chosen for legibility; they carry
// no model meaning.
#include "sim/report/interval_plot_svg.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <sstream>

#include "sim/report/svg_text.hpp"
#include "sim/support/output_files.hpp"

namespace hplsim::sim {

namespace {

using svg::escape;
using svg::label;
using svg::px;

constexpr double kWidth = 760;
constexpr double kLeft = 90, kRight = 720;
constexpr double kPanelHeight = 230, kPanelGap = 90, kTopMargin = 50;
constexpr const char* kColor = "#0072B2"; // Okabe & Ito's blue, as the phase plot's gemm
constexpr const char* kBest = "#D55E00";  // Okabe & Ito's vermillion
// The series' colours: Okabe & Ito's palette (blue, vermillion, bluish green,
// reddish purple, orange, sky blue), distinct under the common colour-vision
// deficiencies.
constexpr const char* kSeriesColors[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"};
constexpr double kDodge = 9; // pixels between side-by-side points of two series

bool finite(double v) {
  return std::isfinite(v);
}

void text(std::ostringstream& out, double x, double y, const std::string& s, const char* anchor = "middle",
          const char* extra = "") {
  out << "<text x=\"" << px(x) << "\" y=\"" << px(y) << "\" text-anchor=\"" << anchor << "\"" << extra << ">"
      << escape(s) << "</text>\n";
}

void panel(std::ostringstream& out, const IntervalPanel& p, const std::string& x_label, double top) {
  const double bottom = top + kPanelHeight;
  const std::size_t n = p.x.size();
  // y range: every finite value and bound, padded by 8%, from 0 when all are positive and near it.
  std::vector<IntervalSeries> series{{p.name, p.y, p.low, p.high}};
  series.insert(series.end(), p.more.begin(), p.more.end());
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const IntervalSeries& s : series)
    for (std::size_t i = 0; i < n; ++i)
      for (const double v : {s.y[i], s.low[i], s.high[i]})
        if (finite(v)) {
          lo = std::min(lo, v);
          hi = std::max(hi, v);
        }
  if (!finite(lo) || (lo == 0.0 && hi == 0.0)) { // nothing, or all zero: a unit range from 0
    lo = 0.0;
    hi = 1.0;
  }
  if (lo >= 0.0 && lo < 0.5 * hi) lo = 0.0;
  const double pad = hi > lo ? 0.08 * (hi - lo) : std::max(1e-9, 0.08 * std::abs(hi));
  if (lo != 0.0) lo -= pad;
  hi += pad;
  const auto y_of = [&](double v) {
    return bottom - (std::clamp(v, lo, hi) - lo) / (hi - lo) * (bottom - top);
  };
  // x positions: evenly spaced in order of x (node counts are few and uneven).
  const auto x_of = [&](std::size_t i) {
    return n <= 1 ? (kLeft + kRight) / 2 : kLeft + 40 + double(i) * (kRight - kLeft - 80) / double(n - 1);
  };
  text(out, kLeft, top - 12, p.title, "start", " font-weight=\"bold\"");
  out << "<rect x=\"" << px(kLeft) << "\" y=\"" << px(top) << "\" width=\"" << px(kRight - kLeft)
      << "\" height=\"" << px(kPanelHeight) << "\" fill=\"none\" stroke=\"black\"/>\n";
  const double step = svg::nice_step((hi - lo) / 5.0);
  for (double v = std::ceil(lo / step) * step; v <= hi + 1e-12 * std::abs(hi); v += step) {
    out << "<line x1=\"" << px(kLeft - 5) << "\" y1=\"" << px(y_of(v)) << "\" x2=\"" << px(kRight)
        << "\" y2=\"" << px(y_of(v)) << "\" stroke=\"#ddd\"/>\n";
    text(out, kLeft - 8, y_of(v) + 4, label(std::abs(v) < step * 1e-9 ? 0.0 : v), "end");
  }
  const double mid = (top + bottom) / 2;
  out << "<text x=\"24\" y=\"" << px(mid) << "\" text-anchor=\"middle\" transform=\"rotate(-90 24 " << px(mid)
      << ")\">" << escape(p.y_label) << "</text>\n";
  // Named points slant when there are many, so their names do not overlap.
  const bool slant = p.x_labels.size() > 3;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string name = i < p.x_labels.size() ? p.x_labels[i] : label(p.x[i]);
    if (slant)
      out << "<text x=\"" << px(x_of(i)) << "\" y=\"" << px(bottom + 14)
          << "\" text-anchor=\"end\" font-size=\"11\" transform=\"rotate(-25 " << px(x_of(i)) << ' '
          << px(bottom + 14) << ")\">" << escape(name) << "</text>\n";
    else
      text(out, x_of(i), bottom + 18, name);
  }
  if (!slant) text(out, (kLeft + kRight) / 2, bottom + 38, x_label);
  // Points in order along x are joined; named points (a sweep's) are not a series.
  const std::size_t count = series.size();
  for (std::size_t k = 0; k < count; ++k) {
    const IntervalSeries& s = series[k];
    const char* color = count == 1 ? kColor : kSeriesColors[k % std::size(kSeriesColors)];
    const double dodge = (double(k) - double(count - 1) / 2.0) * kDodge;
    if (p.x_labels.empty()) {
      out << "<polyline class=\"value\" fill=\"none\" stroke=\"" << color
          << "\" stroke-width=\"1.5\" points=\"";
      bool first = true;
      for (std::size_t i = 0; i < n; ++i)
        if (finite(s.y[i])) {
          out << (first ? "" : " ") << px(x_of(i) + dodge) << ',' << px(y_of(s.y[i]));
          first = false;
        }
      out << "\"/>\n";
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (!finite(s.y[i])) {
        if (count == 1) text(out, x_of(i), bottom - 8, "none", "middle", " fill=\"#888\"");
        continue;
      }
      const double ylo = std::isnan(s.low[i]) ? s.y[i] : s.low[i];
      const double yhi = std::isnan(s.high[i]) ? s.y[i] : s.high[i];
      const double x = x_of(i) + dodge;
      const double cap = count == 1 ? 6 : 4; // narrower whisker caps side by side
      out << "<g class=\"interval\" stroke=\"" << color << "\">"
          << "<line x1=\"" << px(x) << "\" y1=\"" << px(y_of(ylo)) << "\" x2=\"" << px(x) << "\" y2=\""
          << px(y_of(yhi)) << "\"/><line x1=\"" << px(x - cap) << "\" y1=\"" << px(y_of(ylo)) << "\" x2=\""
          << px(x + cap) << "\" y2=\"" << px(y_of(ylo)) << "\"/><line x1=\"" << px(x - cap) << "\" y1=\""
          << px(y_of(yhi)) << "\" x2=\"" << px(x + cap) << "\" y2=\"" << px(y_of(yhi)) << "\"/></g>\n";
      out << "<circle cx=\"" << px(x) << "\" cy=\"" << px(y_of(s.y[i])) << "\" r=\"4\" fill=\"" << color
          << "\"/>\n";
      if (k == 0 && p.best == i) {
        out << "<circle class=\"best\" cx=\"" << px(x) << "\" cy=\"" << px(y_of(s.y[i]))
            << "\" r=\"9\" fill=\"none\" stroke=\"" << kBest << "\" stroke-width=\"2\"/>\n";
        // Above the interval's upper cap, clear of the whisker; beside the
        // point when that would leave the panel.
        const double above = y_of(yhi) - 8;
        if (above >= top + 14)
          text(out, x, above, "best", "middle", " fill=\"#D55E00\"");
        else
          text(out, x + 12, y_of(s.y[i]) + 4, "best", "start", " fill=\"#D55E00\"");
      }
    }
  }
}

} // namespace

std::string interval_plot_svg(const std::string& x_label, const std::vector<IntervalPanel>& panels) {
  bool slanted = false;
  for (const IntervalPanel& p : panels)
    slanted = slanted || p.x_labels.size() > 3;
  const double gap = slanted ? 2 * kPanelGap : kPanelGap; // room for the slanted names
  const double height = kTopMargin + double(panels.size()) * (kPanelHeight + gap);
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << px(kWidth) << "\" height=\"" << px(height)
      << "\" viewBox=\"0 0 " << px(kWidth) << ' ' << px(height)
      << "\" font-family=\"sans-serif\" font-size=\"13\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  // Several series: one legend for the figure, above the first panel's title
  // (every panel has the same series).
  if (!panels.empty() && !panels.front().more.empty()) {
    std::vector<std::string> names{panels.front().name};
    for (const IntervalSeries& s : panels.front().more)
      names.push_back(s.name);
    for (std::size_t k = 0; k < names.size(); ++k) {
      const double at = kLeft + double(k) * 130.0;
      out << "<line x1=\"" << px(at) << "\" y1=\"14\" x2=\"" << px(at + 18) << "\" y2=\"14\" stroke=\""
          << kSeriesColors[k % std::size(kSeriesColors)] << "\" stroke-width=\"2\"/>\n";
      text(out, at + 22, 18, names[k], "start");
    }
  }
  for (std::size_t i = 0; i < panels.size(); ++i)
    panel(out, panels[i], x_label, kTopMargin + double(i) * (kPanelHeight + gap));
  out << "</svg>\n";
  return out.str();
}

void write_interval_plot_svg(const std::string& x_label, const std::vector<IntervalPanel>& panels,
                             const std::string& path) {
  const std::string doc = interval_plot_svg(x_label, panels);
  write_file_atomically(path, [&](std::ostream& out) { out << doc; });
}

} // namespace hplsim::sim
