// sweep.svg (sim/report/sweep_plot_svg.hpp) with the netlib sample's 288
// points: everything inside the figure, only the best points labelled, the
// height used, and the legend naming only what is drawn.
#include "sim/report/sweep_plot_svg.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>

namespace hplsim::sim {
namespace {

// The netlib HPL 2.3 sample's shape (scenarios/hpl-dat/README.md): 4 Ns x 4 NBs
// x 3 grids x 3 RFACTs x 2 NBMINs, with a made-up Rmax per point.
SweepPlot netlib_like(double sampling_error) {
  SweepPlot plot;
  plot.title = "Rmax of the sweep's 288 points";
  plot.names = {"N", "NB", "PxQ", "rfact", "nbmin"};
  int i = 0;
  for (const char* n : {"29", "30", "34", "35"})
    for (const char* nb : {"1", "2", "3", "4"})
      for (const char* grid : {"2x2", "1x4", "4x1"})
        for (const char* rfact : {"left", "crout", "right"})
          for (const char* nbmin : {"2", "4"}) {
            SweepPlotPoint p;
            p.values = {n, nb, grid, rfact, nbmin};
            p.rmax_flops_per_s = 1e9 * (1.0 + 0.001 * (288 - i++));
            p.sampling_error = sampling_error;
            plot.points.push_back(p);
          }
  return plot;
}

double number_after(const std::string& svg, const std::string& attr) {
  const auto at = svg.find(attr + "=\"");
  return at == std::string::npos ? NAN : std::stod(svg.substr(at + attr.size() + 2));
}

TEST(SweepPlotSvg, HundredsOfPointsStayInsideTheFigureAndFillIt) {
  const std::string svg = sweep_plot_svg(netlib_like(-1.0));
  const double width = number_after(svg, "width"), height = number_after(svg, "height");
  ASSERT_EQ(width, 900.0);
  // Every text's extent at 7 px a character (the 12 px sans-serif font's
  // average width, as the layout assumes) is inside the figure.
  const std::regex text_at(
      R"re(<text x="([-0-9.]+)" y="([-0-9.]+)" text-anchor="(\w+)"[^>]*>([^<]*)</text>)re");
  double lowest = 0;
  int texts = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), text_at); it != std::sregex_iterator(); ++it) {
    const double x = std::stod((*it)[1]), y = std::stod((*it)[2]);
    const std::string anchor = (*it)[3];
    const double w = 7.0 * static_cast<double>((*it)[4].length());
    const double left = anchor == "end" ? x - w : anchor == "middle" ? x - w / 2 : x;
    EXPECT_GE(left, 0.0) << it->str();
    EXPECT_LE(left + w, width) << it->str();
    EXPECT_LE(y, height) << it->str();
    lowest = std::max(lowest, y);
    ++texts;
  }
  EXPECT_GT(texts, 50);
  // The facets fill the figure to its bottom: the lowest text within 60 px of it.
  EXPECT_GT(lowest, height - 60);
  // Only the best kSweepTopPoints points are labelled with their values.
  EXPECT_NE(svg.find(">1. N=29 NB=1 PxQ=2x2 rfact=left nbmin=2<"), std::string::npos);
  EXPECT_NE(svg.find(">15. "), std::string::npos);
  EXPECT_EQ(svg.find(">16. "), std::string::npos);
  EXPECT_NE(svg.find("The best 15 of 288 points"), std::string::npos);
  // One facet per varied parameter.
  std::size_t facets = 0;
  for (auto at = svg.find("class=\"facet\""); at != std::string::npos;
       at = svg.find("class=\"facet\"", at + 1))
    ++facets;
  EXPECT_EQ(facets, 5u);
}

TEST(SweepPlotSvg, WhiskersAreDrawnAndNamedOnlyWhenThePointsHaveASamplingError) {
  const std::string analytic = sweep_plot_svg(netlib_like(-1.0));
  EXPECT_EQ(analytic.find("sampling"), std::string::npos);
  EXPECT_EQ(analytic.find("whisker"), std::string::npos);
  const std::string fast = sweep_plot_svg(netlib_like(0.002));
  EXPECT_NE(fast.find("whiskers: twice the sampling error"), std::string::npos);
  EXPECT_EQ(analytic, sweep_plot_svg(netlib_like(-1.0))); // deterministic
}

TEST(SweepPlotSvg, PointsThatDidNotCompleteAreCountedNotDrawn) {
  SweepPlot plot = netlib_like(-1.0);
  plot.points.resize(4);
  plot.points[3].rmax_flops_per_s = 0.0;
  const std::string svg = sweep_plot_svg(plot);
  EXPECT_NE(svg.find("All 4 points, best first (1 did not complete)"), std::string::npos) << svg;
  EXPECT_EQ(svg.find(">4. "), std::string::npos);
}

} // namespace
} // namespace hplsim::sim
