#pragma once
// A run held against its scenario's published figure (Scenario.reference):
// the prediction, the figure, their difference, and whether the figure was a
// target of the calibration in effect (then the agreement is by construction).
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

#include "sim/result/run_result.hpp"

namespace hplsim::sim {

/// (prediction - reference) / reference; empty without a reference, when
/// the run did not complete, or when it is not the run the figure was
/// published for (ReferenceFigure::comparable).
std::optional<double> reference_difference_fraction(const RunResult& result);

/// summary.json's "calibration" (and "calibration_files"), then "reference"
/// when the scenario names one, added to `summary`.
void add_reference_json(const RunResult& result, nlohmann::ordered_json& summary);

/// The stdout lines: the calibration in effect and, with a reference, the
/// comparison and what it means.
void print_reference(const RunResult& result, std::ostream& out);

} // namespace hplsim::sim
