// Layout constants are pixels of the figure, chosen for legibility; they carry
// no model meaning.
#include "sim/report/interval_plot_svg.hpp"

#include <algorithm>
#include <cmath>
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
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (std::size_t i = 0; i < n; ++i)
    for (const double v : {p.y[i], p.low[i], p.high[i]})
      if (finite(v)) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
  if (!finite(lo)) {
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
  if (p.x_labels.empty()) {
    out << "<polyline class=\"value\" fill=\"none\" stroke=\"" << kColor
        << "\" stroke-width=\"1.5\" points=\"";
    bool first = true;
    for (std::size_t i = 0; i < n; ++i)
      if (finite(p.y[i])) {
        out << (first ? "" : " ") << px(x_of(i)) << ',' << px(y_of(p.y[i]));
        first = false;
      }
    out << "\"/>\n";
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!finite(p.y[i])) {
      text(out, x_of(i), bottom - 8, "none", "middle", " fill=\"#888\"");
      continue;
    }
    const double ylo = std::isnan(p.low[i]) ? p.y[i] : p.low[i];
    const double yhi = std::isnan(p.high[i]) ? p.y[i] : p.high[i];
    const double x = x_of(i);
    out << "<g class=\"interval\" stroke=\"" << kColor << "\">"
        << "<line x1=\"" << px(x) << "\" y1=\"" << px(y_of(ylo)) << "\" x2=\"" << px(x) << "\" y2=\""
        << px(y_of(yhi)) << "\"/><line x1=\"" << px(x - 6) << "\" y1=\"" << px(y_of(ylo)) << "\" x2=\""
        << px(x + 6) << "\" y2=\"" << px(y_of(ylo)) << "\"/><line x1=\"" << px(x - 6) << "\" y1=\""
        << px(y_of(yhi)) << "\" x2=\"" << px(x + 6) << "\" y2=\"" << px(y_of(yhi)) << "\"/></g>\n";
    out << "<circle cx=\"" << px(x) << "\" cy=\"" << px(y_of(p.y[i])) << "\" r=\"4\" fill=\"" << kColor
        << "\"/>\n";
    if (p.best == i) {
      out << "<circle class=\"best\" cx=\"" << px(x) << "\" cy=\"" << px(y_of(p.y[i]))
          << "\" r=\"9\" fill=\"none\" stroke=\"" << kBest << "\" stroke-width=\"2\"/>\n";
      // Above the interval's upper cap, clear of the whisker; beside the
      // point when that would leave the panel.
      const double above = y_of(yhi) - 8;
      if (above >= top + 14)
        text(out, x, above, "best", "middle", " fill=\"#D55E00\"");
      else
        text(out, x + 12, y_of(p.y[i]) + 4, "best", "start", " fill=\"#D55E00\"");
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
