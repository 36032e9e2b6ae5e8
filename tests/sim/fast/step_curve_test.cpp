// The interpolants fast mode reads the steps between its windows from
// (sim/fast/step_curve.hpp).
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "sim/fast/step_curve.hpp"

namespace hplsim::sim {
namespace {

std::vector<CurveNode> nodes_of(const std::vector<double>& steps, double (*f)(double)) {
  std::vector<CurveNode> nodes;
  for (double s : steps)
    nodes.push_back({s, f(s)});
  return nodes;
}

// Uneven spacing, as windows placed by bisection are.
const std::vector<double> kSteps = {3.0, 250.5, 400.5, 1000.5, 1700.0};

TEST(StepCurve, EveryRuleGoesThroughItsNodesAndIsExactOnLines) {
  const auto line = [](double s) { return 0.5 - 2e-4 * s; };
  for (CurveRule rule : {CurveRule::Linear, CurveRule::MonotoneCubic, CurveRule::Parabolic}) {
    const StepCurve c(nodes_of(kSteps, line), rule);
    for (double s : kSteps)
      EXPECT_NEAR(c.at(s), line(s), 1e-12); // through its nodes
    for (double s = 3.0; s <= 1700.0; s += 7.0)
      EXPECT_NEAR(c.at(s), line(s), 1e-12); // all three reproduce a straight line
  }
}

TEST(StepCurve, ParabolicRuleIsExactOnAQuadraticCurve) {
  // A GEMM-bound step: its work falls with the square of the trailing matrix.
  const auto gemm_bound = [](double s) { return 0.42 * (1.0 - s / 2000.0) * (1.0 - s / 2000.0); };
  const StepCurve parabolic(nodes_of(kSteps, gemm_bound), CurveRule::Parabolic);
  const StepCurve linear(nodes_of(kSteps, gemm_bound), CurveRule::Linear);
  double worst_linear = 0.0;
  for (double s = 3.0; s <= 1700.0; s += 1.0) {
    EXPECT_NEAR(parabolic.at(s), gemm_bound(s), 1e-12);
    worst_linear = std::max(worst_linear, linear.at(s) - gemm_bound(s));
  }
  // The chord over a convex curve lies above it: by up to h^2 f''/8 = 699.5^2
  // * 0.84 / 2000^2 / 8 = 0.012844 on the widest interval (1000.5 to 1700).
  EXPECT_NEAR(worst_linear, 0.012844, 1e-5);
}

TEST(StepCurve, MonotoneCubicStaysBetweenItsNodesWhereTheCurveTurns) {
  // A step curve that falls and then flattens at a floor (latency-bound tail).
  const std::vector<CurveNode> nodes = {{0, 0.40}, {100, 0.39}, {200, 0.05}, {300, 0.049}, {400, 0.049}};
  const StepCurve c(nodes, CurveRule::MonotoneCubic);
  for (std::size_t i = 0; i + 1 < nodes.size(); ++i)
    for (double s = nodes[i].step; s <= nodes[i + 1].step; s += 1.0) {
      const double lo = std::min(nodes[i].value, nodes[i + 1].value);
      const double hi = std::max(nodes[i].value, nodes[i + 1].value);
      EXPECT_GE(c.at(s), lo - 1e-15);
      EXPECT_LE(c.at(s), hi + 1e-15);
    }
  // The parabolic rule overshoots there: it dips below the floor after the
  // drop (which is why fast mode never reads a step below zero off it).
  const StepCurve p(nodes, CurveRule::Parabolic);
  EXPECT_LT(p.at(250.0), 0.049);
}

TEST(StepCurve, RefusesTooFewOrUnorderedNodes) {
  EXPECT_THROW(StepCurve({{1.0, 1.0}}, CurveRule::Linear), std::invalid_argument);
  EXPECT_THROW(StepCurve({{2.0, 1.0}, {2.0, 0.5}}, CurveRule::Parabolic), std::invalid_argument);
  EXPECT_THROW(StepCurve({{3.0, 1.0}, {2.0, 0.5}}, CurveRule::MonotoneCubic), std::invalid_argument);
}

} // namespace
} // namespace hplsim::sim
