#include "sim/report/reference_report.hpp"

#include "sim/report/format.hpp"

namespace hplsim::sim {

std::optional<double> reference_difference_fraction(const RunResult& result) {
  if (!result.reference || !result.completed || !result.reference->comparable() ||
      result.reference->rmax_flops_per_s <= 0.0)
    return std::nullopt;
  return result.rmax_flops_per_s / result.reference->rmax_flops_per_s - 1.0;
}

void add_reference_json(const RunResult& result, nlohmann::ordered_json& summary) {
  summary["calibration"] = result.calibration;
  if (!result.calibration_files.empty()) summary["calibration_files"] = result.calibration_files;
  if (!result.noise_json.empty()) summary["noise"] = nlohmann::ordered_json::parse(result.noise_json);
  if (!result.reference) return;
  const ReferenceFigure& ref = *result.reference;
  nlohmann::ordered_json j;
  j["id"] = ref.id;
  j["source"] = ref.source;
  j["rmax_flops_per_s"] = ref.rmax_flops_per_s;
  const std::optional<double> difference = reference_difference_fraction(result);
  j["difference_fraction"] =
      difference ? nlohmann::ordered_json(*difference) : nlohmann::ordered_json(nullptr);
  j["fit_target"] = ref.fit_target;
  j["comparable"] = ref.comparable();
  if (!ref.comparable()) {
    j["reference_run"] = ref.reference_run;
    j["this_run"] = ref.this_run;
  }
  summary["reference"] = j;
}

void print_reference(const RunResult& result, std::ostream& out) {
  if (result.calibration == "calibrated")
    out << "Calibration: fitted parameters from " << result.calibration_files.front()
        << " (--sourced-only leaves them out)\n";
  else if (result.calibration == "sourced only")
    out << "Calibration: sourced figures only (--sourced-only left out the fitted "
        << result.calibration_files.front() << ")\n";
  if (!result.noise_text.empty()) out << "System noise: " << result.noise_text << "\n";
  if (!result.reference) return;
  const ReferenceFigure& ref = *result.reference;
  out << "Reference: " << format_rate(ref.rmax_flops_per_s) << " published; ";
  const std::optional<double> difference = reference_difference_fraction(result);
  if (!ref.comparable())
    out << "reference run: " << ref.reference_run << "; this run differs (" << ref.this_run
        << "): no comparison\n";
  else if (!difference)
    out << "this run did not complete, so it has no Rmax to compare\n";
  else if (ref.fit_target)
    out << "this run " << format_percent_change(*difference)
        << ", by construction: the calibration in effect was fitted to that figure\n";
  else
    out << "this run " << format_percent_change(*difference)
        << ", a prediction: no parameter in effect was fitted to that figure\n";
  out << "  (" << ref.source << ")\n";
}

} // namespace hplsim::sim
