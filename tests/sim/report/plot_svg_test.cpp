// The phase plot at full scale (sim/report/plot_svg.hpp): decimated to the
// panel's pixel columns, the rate in a unit the data reads in, the log axis
// spanning the data rather than its stray smallest values.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "sim/report/heatmap_svg.hpp"
#include "sim/report/plot_svg.hpp"

namespace hplsim::sim {
namespace {

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto at = s.find(what); at != std::string::npos; at = s.find(what, at + 1))
    ++n;
  return n;
}

// The points attribute of the polyline of class `cls`.
std::string points_of(const std::string& svg, const std::string& cls) {
  const auto at = svg.find("<polyline class=\"" + cls + "\"");
  const auto begin = svg.find("points=\"", at) + 8;
  return svg.substr(begin, svg.find('"', begin) - begin);
}

// 75,000 steps as at full Aurora scale (N 28.8 M / NB 384); rates near 2 EF/s;
// gemm times falling from 10 s to 1e-9 s over the run (as the last steps do).
RunResult full_scale_like() {
  RunResult r;
  r.mode = "fast";
  r.benchmark = "hpl";
  r.n = 28'800'000;
  r.nb = 384;
  r.p = 162;
  r.q = 342;
  r.nodes = 9234;
  const int steps = 75'000;
  for (int k = 0; k < steps; ++k) {
    StepRecord s;
    s.step = k;
    s.matrix_fraction = double(k) / steps;
    const double gemm = 10.0 * std::pow(1e-10, s.matrix_fraction) * (1.0 + 0.1 * (k % 7));
    s.phase_s[static_cast<int>(PhaseId::Gemm)] = gemm;
    s.phase_s[static_cast<int>(PhaseId::Swap)] = 0.5;
    s.mean_phase_s = s.phase_s;
    s.start_s = k;
    s.end_s = k + 1.0;
    s.flops = 2e18 * (1.0 - s.matrix_fraction); // 2 EF/s falling to 0
    r.step_records.push_back(s);
  }
  return r;
}

TEST(PhasePlot, AFullScaleRunIsDrawnWithAtMostTwoPointsAPixelColumn) {
  const std::string svg = phase_plot_svg(full_scale_like());
  // 770 px panel (x 90..860): at most 2 points per column + the last one.
  for (const char* cls : {"phase-gemm", "phase-swap", "rate"}) {
    const std::string pts = points_of(svg, cls);
    EXPECT_LE(count(pts, ","), 2u * 771u) << cls;
    EXPECT_GE(count(pts, ","), 700u) << cls; // still one point per column at least
  }
  // Undecimated, this plot is 11 MB at this size; decimated, a few hundred kB at most.
  EXPECT_LT(svg.size(), 300'000u);
}

TEST(PhasePlot, TheSpikesOfAColumnSurviveDecimation) {
  RunResult r = full_scale_like();
  r.step_records[40'000].phase_s[static_cast<int>(PhaseId::Swap)] = 50.0; // one slow step
  const std::string pts = points_of(phase_plot_svg(r), "phase-swap");
  const std::string flat = points_of(phase_plot_svg(full_scale_like()), "phase-swap");
  EXPECT_NE(pts, flat); // the spike is drawn
}

TEST(PhasePlot, TheRateReadsInTheDatasUnit) {
  const std::string svg = phase_plot_svg(full_scale_like());
  EXPECT_NE(svg.find("rate per step (EF/s)"), std::string::npos);
  EXPECT_EQ(svg.find("TF/s"), std::string::npos);
}

TEST(PhasePlot, TheLogAxisSpansAtMostSixDecadesBelowTheLargestTime) {
  const std::string svg = phase_plot_svg(full_scale_like());
  // Largest time 16 s -> top decade 100 s; 6 decades below: 100 µs. 1e-9 s values go on the axis.
  EXPECT_NE(svg.find(">100 s</text>"), std::string::npos);
  EXPECT_NE(svg.find(">100 \u00b5s</text>"), std::string::npos);
  EXPECT_EQ(svg.find(">10 \u00b5s</text>"), std::string::npos);
  EXPECT_NE(svg.find("below 100 \u00b5s: drawn on the axis"), std::string::npos);
}

TEST(PhasePlot, TheLegendIsARowAboveThePanel) {
  const std::string svg = phase_plot_svg(full_scale_like());
  const auto legend = svg.find("<g class=\"legend\">");
  ASSERT_NE(legend, std::string::npos);
  // Every legend label sits above the panel's top (y 66).
  const std::string g = svg.substr(legend, svg.find("</g>", legend) - legend);
  for (auto at = g.find(" y=\""); at != std::string::npos; at = g.find(" y=\"", at + 1))
    EXPECT_LT(std::stod(g.substr(at + 4)), 66.0) << g;
}

TEST(Heatmap, MarksTheBestAndTheCellsWithinNoise) {
  Heatmap m;
  m.title = "t";
  m.row_label = "PxQ";
  m.column_label = "NB";
  m.unit = "Rmax in EF/s";
  m.rows = {"162x342", "171x324"};
  m.columns = {"256", "384"};
  m.values = {{1.40, 1.39}, {1.38, std::nan("")}};
  m.near_best = {{false, true}, {false, false}};
  m.best = std::make_pair(std::size_t{0}, std::size_t{0});
  const std::string svg = heatmap_svg(m);
  EXPECT_EQ(count(svg, "class=\"cell best\""), 1u);
  EXPECT_EQ(count(svg, "class=\"cell near-best\""), 1u);
  EXPECT_EQ(count(svg, "class=\"cell"), 3u); // the NaN cell is grey, not a cell
  EXPECT_NE(svg.find(">1.400</text>"), std::string::npos);
  EXPECT_NE(svg.find(">171x324</text>"), std::string::npos);
  EXPECT_EQ(heatmap_svg(m), svg);
}

} // namespace
} // namespace hplsim::sim
