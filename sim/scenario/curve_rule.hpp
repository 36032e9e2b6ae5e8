#pragma once
// How fast mode reads the steps between its windows off the curve through
// them (options.fast.interpolation; sim/fast/step_curve.hpp implements it).

namespace hplsim::sim {

// The values are options.fast.interpolation's (sim/scenario/scenario.proto), which
// scenario_defaults.cpp checks.
enum class CurveRule {
  Linear = 1,        // straight lines between nodes
  MonotoneCubic = 2, // piecewise cubic Hermite, slopes of Fritsch & Butland (monotone between nodes)
  Parabolic = 3,     // piecewise cubic Hermite, slopes of the parabola through each node's neighbours
};

} // namespace hplsim::sim
