#pragma once
// The per-step curve of a fast-mode run between its simulated windows
// (README, "Fast mode: integrating the curve"). Each window is one node: the
// mean of its measured steps at their mean step index (the window's
// telescoped time, steadier than either step alone). Steps between nodes are
// read off an interpolant through the nodes.
#include <vector>

namespace hplsim::sim {

// The values are options.fast.interpolation's (sim/scenario.proto), which
// scenario_defaults.cpp checks.
enum class CurveRule {
  Linear = 1,        // straight lines between nodes
  MonotoneCubic = 2, // piecewise cubic Hermite, slopes of Fritsch & Butland (monotone between nodes)
  Parabolic = 3,     // piecewise cubic Hermite, slopes of the parabola through each node's neighbours
};

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
