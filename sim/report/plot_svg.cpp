// Phase-time and rate plot as SVG 1.1 text. Layout constants are pixels of the
// figure, chosen for legibility; they carry no model meaning.
#include "sim/report/plot_svg.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "sim/report/report.hpp"
#include "sim/report/svg_text.hpp"
#include "sim/report/units.hpp"
#include "sim/support/output_files.hpp"

namespace hplsim::sim {
namespace {

constexpr double kWidth = 900;
constexpr double kHeight = 720;
constexpr double kLeft = 90; // room for tick labels and the y label
constexpr double kRight = 860;
constexpr double kTop1 = 66; // phase panel (the legend row above it)
constexpr double kBottom1 = 400;
constexpr double kTop2 = 470; // rate panel
constexpr double kBottom2 = 660;
constexpr int kPlottedPhases = 5; // pfact..gemm; solve is not a panel-step phase
// Colour-blind-safe palette (Okabe & Ito, "Color Universal Design", 2008).
constexpr std::array<const char*, kPlottedPhases> kColors = {"#E69F00", "#56B4E9", "#009E73", "#CC79A7",
                                                             "#0072B2"};

using svg::escape;
using svg::label;
using svg::nice_step;
using svg::px;

double x_of(double fraction) {
  return kLeft + std::clamp(fraction, 0.0, 1.0) * (kRight - kLeft);
}

void text(std::ostringstream& svg, double x, double y, const std::string& s, const char* anchor = "middle",
          const char* extra = "") {
  svg << "<text x=\"" << px(x) << "\" y=\"" << px(y) << "\" text-anchor=\"" << anchor << "\"" << extra << ">"
      << escape(s) << "</text>\n";
}

void line(std::ostringstream& svg, double x1, double y1, double x2, double y2, const char* style) {
  svg << "<line x1=\"" << px(x1) << "\" y1=\"" << px(y1) << "\" x2=\"" << px(x2) << "\" y2=\"" << px(y2)
      << "\" " << style << "/>\n";
}

/// Frame, x ticks at 0, 0.2, ..., 1 and the x label of one panel.
void x_axis(std::ostringstream& svg, double top, double bottom) {
  svg << "<rect x=\"" << px(kLeft) << "\" y=\"" << px(top) << "\" width=\"" << px(kRight - kLeft)
      << "\" height=\"" << px(bottom - top) << "\" fill=\"none\" stroke=\"black\"/>\n";
  for (int i = 0; i <= 5; ++i) {
    const double f = i / 5.0;
    line(svg, x_of(f), bottom, x_of(f), bottom + 5, "stroke=\"black\"");
    text(svg, x_of(f), bottom + 18, label(f));
  }
  text(svg, (kLeft + kRight) / 2, bottom + 36, "matrix fraction k*NB/N");
}

/// Vertical label at the panel's left.
void y_label(std::ostringstream& svg, double top, double bottom, const std::string& s) {
  const double y = (top + bottom) / 2;
  svg << "<text x=\"20\" y=\"" << px(y) << "\" text-anchor=\"middle\" transform=\"rotate(-90 20 " << px(y)
      << ")\">" << escape(s) << "</text>\n";
}

/// A curve cut to what the plot can show: per pixel column of the x axis the
/// lowest and the highest point, in step order (the envelope a screen draws
/// anyway). A full-scale run has ~75,000 steps; the panel is 770 px wide.
class Decimated {
public:
  void add(double x, double y) {
    const int column = static_cast<int>(std::floor(x));
    if (column != column_) flush();
    column_ = column;
    if (count_ == 0 || y < lo_.second) lo_ = {x, y}, lo_at_ = count_;
    if (count_ == 0 || y > hi_.second) hi_ = {x, y}, hi_at_ = count_;
    ++count_;
  }
  /// The points as a polyline's "x,y x,y ..." list.
  std::string points() {
    flush();
    return out_.str();
  }

private:
  void flush() {
    if (count_ == 0) return;
    put(lo_at_ <= hi_at_ ? lo_ : hi_);
    if (lo_at_ != hi_at_) put(lo_at_ <= hi_at_ ? hi_ : lo_);
    count_ = 0;
  }
  void put(const std::pair<double, double>& p) {
    out_ << (first_ ? "" : " ") << px(p.first) << ',' << px(p.second);
    first_ = false;
  }
  std::ostringstream out_;
  bool first_ = true;
  int column_ = INT32_MIN;
  int count_ = 0, lo_at_ = 0, hi_at_ = 0;
  std::pair<double, double> lo_, hi_;
};

/// 10^decade seconds, read as a person would: "100 µs", "10 ms", "1 s", "100 s".
std::string decade_seconds(int decade) {
  if (decade >= 0) return label(std::pow(10.0, decade)) + " s";
  static const char* const units[] = {"ms", "\u00b5s", "ns", "ps"};
  const int unit = std::min(3, (-decade - 1) / 3);
  const int left = decade + 3 * (unit + 1); // 0, 1 or 2: 1, 10 or 100 of the unit
  return label(std::pow(10.0, left)) + " " + units[unit];
}

/// The value at fraction `q` of the sorted values (nearest rank).
double quantile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  return values[std::min(values.size() - 1,
                         static_cast<std::size_t>(q * static_cast<double>(values.size())))];
}

void phase_panel(std::ostringstream& svg, const std::vector<const StepRecord*>& steps) {
  std::vector<double> values;
  for (const StepRecord* r : steps)
    for (int p = 0; p < kPlottedPhases; ++p)
      for (double v : {r->phase_s[p], r->mean_phase_s[p]})
        if (v > 0.0 && std::isfinite(v)) values.push_back(v);
  int decade_lo = -6; // an empty plot shows 1 µs..1 s
  int decade_hi = 0;
  if (!values.empty()) {
    // The axis spans the data, not its stray smallest values: from the 2nd
    // percentile, at most 6 decades below the largest; what lies below is
    // drawn on the axis (and said so).
    const double hi = *std::max_element(values.begin(), values.end());
    decade_hi = static_cast<int>(std::ceil(std::log10(hi)));
    decade_lo = std::max(static_cast<int>(std::floor(std::log10(quantile(values, 0.02)))), decade_hi - 6);
    decade_hi = std::max(decade_hi, decade_lo + 1);
  }
  const double floor_s = std::pow(10.0, decade_lo);
  const bool clipped = std::any_of(values.begin(), values.end(), [floor_s](double v) { return v < floor_s; });
  auto y_of = [&](double v) {
    return kBottom1 -
           (std::log10(std::max(v, floor_s)) - decade_lo) / (decade_hi - decade_lo) * (kBottom1 - kTop1);
  };
  x_axis(svg, kTop1, kBottom1);
  const int decade_step = std::max(1, (decade_hi - decade_lo + 9) / 10); // at most ~10 labels
  for (int d = decade_lo; d <= decade_hi; d += decade_step) {
    const double y = y_of(std::pow(10.0, d));
    line(svg, kLeft - 5, y, kLeft, y, "stroke=\"black\"");
    line(svg, kLeft, y, kRight, y, "stroke=\"#dddddd\"");
    text(svg, kLeft - 8, y + 4, decade_seconds(d), "end");
  }
  y_label(svg, kTop1, kBottom1, "phase time per step (log)");
  if (clipped)
    text(svg, kRight - 4, kBottom1 - 6, "below " + decade_seconds(decade_lo) + ": drawn on the axis", "end",
         " fill=\"#666666\" font-size=\"10\"");
  // Solid: the slowest rank's time in the phase; dashed: the rank mean.
  for (const bool mean : {false, true})
    for (int p = 0; p < kPlottedPhases; ++p) {
      Decimated curve;
      for (const StepRecord* r : steps) {
        const double v = mean ? r->mean_phase_s[p] : r->phase_s[p];
        if (v > 0.0 && std::isfinite(v)) curve.add(x_of(r->matrix_fraction), y_of(v));
      }
      svg << "<polyline class=\"phase-" << kPhaseNames[p] << (mean ? "-mean" : "")
          << "\" fill=\"none\" stroke=\"" << kColors[p] << "\" stroke-width=\"1.5\""
          << (mean ? " stroke-dasharray=\"5,3\"" : "") << " points=\"" << curve.points() << "\"/>\n";
    }
  // Legend: one row above the panel, clear of the curves.
  double lx = kLeft;
  const double ly = kTop1 - 12;
  svg << "<g class=\"legend\">\n";
  for (int p = 0; p < kPlottedPhases; ++p) {
    line(svg, lx, ly - 4, lx + 24, ly - 4,
         (std::string("stroke=\"") + kColors[p] + "\" stroke-width=\"3\"").c_str());
    text(svg, lx + 30, ly, kPhaseNames[p], "start");
    lx += 95;
  }
  line(svg, lx, ly - 4, lx + 24, ly - 4, "stroke=\"black\" stroke-width=\"1.5\" stroke-dasharray=\"5,3\"");
  text(svg, lx + 30, ly, "rank mean (solid: slowest rank)", "start");
  svg << "</g>\n";
}

void rate_panel(std::ostringstream& svg, const std::vector<const StepRecord*>& steps) {
  double hi_tflops = 0.0;
  for (const StepRecord* r : steps)
    if (std::isfinite(step_rate_tflops(*r))) hi_tflops = std::max(hi_tflops, step_rate_tflops(*r));
  // The unit the largest rate reads in with a few digits (GF/s on a workstation, EF/s on Aurora).
  const Unit unit = rate_unit(hi_tflops * 1e12);
  const double per_unit = 1e12 / unit.scale; // TF/s -> the unit
  const double hi = hi_tflops * per_unit;
  const double step = hi > 0.0 ? nice_step(hi / 5.0) : 1.0;
  const int ticks = hi > 0.0 ? static_cast<int>(std::ceil(hi / step)) : 5;
  const double top_value = ticks * step;
  auto y_of = [&](double v) { return kBottom2 - v / top_value * (kBottom2 - kTop2); };
  x_axis(svg, kTop2, kBottom2);
  for (int i = 0; i <= ticks; ++i) {
    const double y = y_of(i * step);
    line(svg, kLeft - 5, y, kLeft, y, "stroke=\"black\"");
    line(svg, kLeft, y, kRight, y, "stroke=\"#dddddd\"");
    text(svg, kLeft - 8, y + 4, label(i * step), "end");
  }
  y_label(svg, kTop2, kBottom2, std::string("rate per step (") + unit.name + ")");
  Decimated curve;
  for (const StepRecord* r : steps) {
    const double v = step_rate_tflops(*r);
    if (std::isfinite(v)) curve.add(x_of(r->matrix_fraction), y_of(v * per_unit));
  }
  svg << "<polyline class=\"rate\" fill=\"none\" stroke=\"black\" stroke-width=\"1.5\" points=\""
      << curve.points() << "\"/>\n";
}

} // namespace

std::string phase_plot_svg(const RunResult& result) {
  std::vector<const StepRecord*> steps;
  for (const StepRecord& r : result.step_records)
    if (!r.final_solve) steps.push_back(&r);
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" << px(kWidth) << "\" height=\""
      << px(kHeight) << "\" viewBox=\"0 0 " << px(kWidth) << ' ' << px(kHeight)
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  text(svg, kWidth / 2, 28,
       result.benchmark + " (" + result.mode + "): N=" + std::to_string(result.n) +
           " NB=" + std::to_string(result.nb) + " P=" + std::to_string(result.p) +
           " Q=" + std::to_string(result.q) + ", " + std::to_string(result.nodes) + " nodes",
       "middle", " font-size=\"15\"");
  phase_panel(svg, steps);
  rate_panel(svg, steps);
  if (const auto k = crossover_step(result)) {
    const auto fraction = crossover_fraction(result);
    const double x = x_of(fraction.value_or(0.0));
    const char* dashed = "stroke=\"#D55E00\" stroke-width=\"1.5\" stroke-dasharray=\"6,4\"";
    svg << "<g class=\"crossover\">\n";
    line(svg, x, kTop1, x, kBottom1, dashed);
    line(svg, x, kTop2, x, kBottom2, dashed);
    const bool near_right = x > kRight - 150; // keep the label inside the figure
    text(svg, near_right ? x - 4 : x + 4, kTop1 + 14, "crossover, step " + std::to_string(*k),
         near_right ? "end" : "start", " fill=\"#D55E00\"");
    svg << "</g>\n";
  }
  // Faults (docs/faults.md): a marker at the first step each reached event
  // touched, labelled with its id as in faults.csv; a run a failure ended is
  // marked where it ended.
  if (result.has_faults) {
    svg << "<g class=\"faults\">\n";
    for (const auto& f : result.faults) {
      if (!f.reached || !f.touched()) continue;
      const std::int64_t first = f.first_step;
      const double fraction =
          result.n > 0 ? double(std::min(first * result.nb, result.n)) / double(result.n) : 0.0;
      const double x = x_of(fraction);
      const char* colour = f.ended_run ? "#CC0000" : "#7B3294";
      const std::string stroke = std::string("stroke=\"") + colour + "\" stroke-width=\"1\"";
      const std::string fill = std::string(" fill=\"") + colour + "\" font-size=\"10\"";
      line(svg, x, kTop2, x, kBottom2, stroke.c_str());
      text(svg, x + 2, kTop2 + 12, (f.ended_run ? "end: " : "") + std::string("F") + std::to_string(f.id),
           "start", fill.c_str());
    }
    svg << "</g>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

void write_phase_plot_svg(const RunResult& result, const std::string& path) {
  const std::string svg = phase_plot_svg(result);
  write_file_atomically(path, [&svg](std::ostream& out) { out << svg; });
}

} // namespace hplsim::sim
