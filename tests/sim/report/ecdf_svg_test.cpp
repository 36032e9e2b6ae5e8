// The trials' distribution figure (sim/report/ecdf_svg.hpp): one step per value,
// rising from 0 to 1, a legend only when a panel has several series.
#include "sim/report/ecdf_svg.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

namespace hplsim::sim {
namespace {

// The "V y" moves of the first path: the curve's heights, in drawing order.
std::vector<double> heights(const std::string& svg) {
  const auto d = svg.find(" d=\"");
  const auto end = svg.find('"', d + 4);
  std::vector<double> ys;
  std::istringstream in(svg.substr(d + 4, end - d - 4));
  std::string move;
  while (in >> move)
    if (move[0] == 'V') ys.push_back(std::stod(move.substr(1)));
  return ys;
}

TEST(EcdfSvg, EveryValueIsAStepUpToOne) {
  const std::string svg =
      ecdf_svg({{"Run time", "s", "share", {{"completed", {3.0, 1.0, 2.0, NAN, 2.0}, {}}}}});
  const std::vector<double> ys = heights(svg);
  ASSERT_EQ(ys.size(), 4u); // the NaN is left out
  // The y axis spans 50 px (share 1) to 260 px (share 0): each of the 4 values lifts the curve 52.5 px.
  for (std::size_t i = 0; i < ys.size(); ++i)
    EXPECT_NEAR(ys[i], 260.0 - 52.5 * static_cast<double>(i + 1), 0.01) << i;
  EXPECT_EQ(svg.find("completed (4)"), std::string::npos); // one series: no legend
}

TEST(EcdfSvg, SeveralSeriesGetALegendWithTheirCounts) {
  const std::string svg =
      ecdf_svg({{"Rmax", "PF/s", "share", {{"P2P", {1.0, 2.0}, {}}, {"HYBRID", {1.5}, {}}}},
                {"Time", "s", "share", {{"all", {4.0}, {}}}}});
  EXPECT_NE(svg.find(">P2P (2)<"), std::string::npos);
  EXPECT_NE(svg.find(">HYBRID (1)<"), std::string::npos);
  EXPECT_NE(svg.find(">Time<"), std::string::npos);
  EXPECT_EQ(svg, ecdf_svg({{"Rmax", "PF/s", "share", {{"P2P", {1.0, 2.0}, {}}, {"HYBRID", {1.5}, {}}}},
                           {"Time", "s", "share", {{"all", {4.0}, {}}}}}));
}

TEST(EcdfSvg, AComputedCurveIsALineThroughItsPoints) {
  // x from 0 to 4 over the panel's 70..870 px, share 0..1 over 260..50 px.
  const std::string svg =
      ecdf_svg({{"Time", "s", "share", {{"with restarts", {}, {{0.0, 0.0}, {4.0, 1.0}}}}}});
  EXPECT_NE(svg.find("<polyline class=\"curve\""), std::string::npos);
  EXPECT_NE(svg.find("points=\"70.00,260.00 870.00,50.00\""), std::string::npos) << svg;
}

} // namespace
} // namespace hplsim::sim
