#pragma once
// `hplsim report DIR` (docs/studies.md, "The report"): one self-contained HTML
// page of what an output directory holds, laid out for its kind (about.json,
// sim/report/about.hpp): a run (summary.json, stats.json, phases.svg; a run
// that did not complete shows what ended it instead of a rate), its faults
// (faults.csv), trials (outcome.json, trials.csv: P(complete) with its
// interval and the trials' distribution), a sweep (sweep.csv, sweep.svg,
// sweep-heatmap.svg) and a plan (plan.csv, plan.svg). Titled with the
// scenario's description; figures through sim/report/format.hpp, at most 6
// significant digits in any text; the SVG figures inlined. Every scalar of
// summary.json is in the page as an element with data-key="KEY" (nested keys
// as a.b) and data-value holding the JSON text of its value. Deterministic:
// the same directory gives the same bytes.
#include <string>

namespace hplsim::sim {

/// The page for the files in `dir`. InputError when `dir` holds none of them
/// or one of them cannot be parsed (naming the file).
std::string html_report(const std::string& dir);

/// Writes it atomically to `path` (OutputError when it cannot).
void write_html_report(const std::string& dir, const std::string& path);

} // namespace hplsim::sim
