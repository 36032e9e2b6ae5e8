#pragma once
// The per-step curve of a fast-mode run between its simulated windows
// (docs/fast-mode.md, "integrating the curve"). Each window is one node: the
// mean of its measured steps at their mean step index (the window's
// telescoped time, steadier than either step alone). Steps between nodes are
// read off an interpolant through the nodes.
#include <vector>

#include "sim/scenario/curve_rule.hpp"

namespace hplsim::sim {

struct CurveNode {
  double step = 0.0;
  double value = 0.0;
};

class StepCurve {
public:
  /// Nodes in increasing, distinct `step`; at least two.
  StepCurve(std::vector<CurveNode> nodes, CurveRule rule);

  /// The curve at `step`, which lies within [first node, last node].
  [[nodiscard]] double at(double step) const;

private:
  std::vector<double> x_, y_, slope_;
  CurveRule rule_;
};

} // namespace hplsim::sim
