// The interval plot of sweeps and plans (sim/report/interval_plot_svg.hpp):
// where the "best" label goes, clear of the best point's whisker.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "sim/report/interval_plot_svg.hpp"

namespace hplsim::sim {
namespace {

// The number after `attr="` at or after `from` in `svg`.
double attribute(const std::string& svg, std::size_t from, const std::string& attr) {
  const std::size_t at = svg.find(attr + "=\"", from);
  if (at == std::string::npos) return NAN;
  return std::stod(svg.substr(at + attr.size() + 2));
}

struct Label {
  double x, y, whisker_x, cap_y; // the label's anchor; the best point's whisker and its upper cap
  std::string anchor;
};

// The "best" label and the whisker drawn just before it (the best point's).
Label best_label(const std::string& svg) {
  const std::size_t text_end = svg.find(">best</text>");
  EXPECT_NE(text_end, std::string::npos);
  const std::size_t text = svg.rfind("<text", text_end);
  const std::size_t whisker = svg.rfind("<g class=\"interval\"", text);
  Label l{attribute(svg, text, "x"), attribute(svg, text, "y"), attribute(svg, whisker, "x1"),
          attribute(svg, whisker, "y2"), ""};
  const std::size_t a = svg.find("text-anchor=\"", text);
  l.anchor = svg.substr(a + 13, svg.find('"', a + 13) - a - 13);
  return l;
}

IntervalPanel sweep_like(double best_high) {
  IntervalPanel p;
  p.title = "Rmax";
  p.y_label = "PF/s";
  p.x_labels = {"a", "b", "c", "d", "e"};
  p.x = {0, 1, 2, 3, 4};
  p.y = {10, 14, 12, 11, 9};
  p.low = {9, 12, 11, 10, 8};
  p.high = {11, best_high, 13, 12, 10};
  p.best = 1;
  return p;
}

TEST(IntervalPlotSvg, BestLabelSitsAboveItsWhiskerWhenThereIsRoom) {
  // The best point's interval is not the highest bound: room above its cap.
  IntervalPanel p = sweep_like(15);
  p.high[2] = 30;
  const Label l = best_label(interval_plot_svg("point", {p}));
  EXPECT_EQ(l.anchor, "middle");
  EXPECT_DOUBLE_EQ(l.x, l.whisker_x);
  EXPECT_LE(l.y, l.cap_y - 8) << "the label must clear the whisker's upper cap";
}

TEST(IntervalPlotSvg, BestLabelGoesBesideThePointWhenItsWhiskerReachesTheTop) {
  // An unbounded interval is drawn to the frame: no room above it.
  IntervalPanel p = sweep_like(INFINITY);
  const Label l = best_label(interval_plot_svg("point", {p}));
  EXPECT_EQ(l.anchor, "start");
  EXPECT_GE(l.x, l.whisker_x + 12) << "right of the ring (radius 9) and of the whisker";
}

} // namespace
} // namespace hplsim::sim
