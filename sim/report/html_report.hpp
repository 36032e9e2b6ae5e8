#pragma once
// `hplsim report DIR` (docs/studies.md, "The report"): one self-contained HTML
// page of what an output directory holds, readable on a laptop screen and
// needing no network: the summary of a run (summary.json, stats.json) with its
// phase plot, fault timeline (faults.csv), trial outcomes (outcome.json,
// trials.csv), a sweep's ranking and figures (sweep.csv, sweep.svg,
// sweep-heatmap.svg) and a plan (plan.csv, plan.svg). The SVG figures are
// inlined. Every scalar of summary.json is in the page as an element with
// data-key="KEY" (nested keys as a.b) holding the JSON text of its value.
// Deterministic: the same directory gives the same bytes.
#include <string>

namespace hplsim::sim {

/// The page for the files in `dir`. InputError when `dir` holds none of them
/// or one of them cannot be parsed (naming the file).
std::string html_report(const std::string& dir);

/// Writes it atomically to `path` (OutputError when it cannot).
void write_html_report(const std::string& dir, const std::string& path);

} // namespace hplsim::sim
