#pragma once
// The sections of `hplsim report`'s page, one per kind of output
// (sim/report/html_report.hpp): a run (html_report.cpp), trials, a sweep and
// a plan (html_study_sections.cpp), a sensitivity study
// (html_sensitivity_section.cpp), a noise benchmark (html_noise_bench_section.cpp).
#include "sim/report/html_page.hpp"

namespace hplsim::sim::html {

/// The run of summary.json: headline cards (or, when it did not complete, what
/// ended it), phases.svg, the phase totals, the faults of faults.csv, the
/// simulator's cost and the raw summary.
void run_sections(Page& page, const fs::path& dir, const Json& summary);
/// faults.csv as a table (also without summary.json).
void faults_section(Page& page, const fs::path& dir, const Json& summary);
/// outcome.json and trials.csv: P(complete) with its interval, the spread of
/// the trials, their distribution (ECDF) and rows.
void trials_section(Page& page, const fs::path& dir, const Json& outcome);
/// sweep.csv: the best point, the ranking, sweep-heatmap.svg and sweep.svg.
void sweep_section(Page& page, const fs::path& dir, const Csv& csv);
/// plan.csv: the best node count per objective, plan.svg and the table.
void plan_section(Page& page, const fs::path& dir, const Csv& csv);
/// sensitivity.csv: the study's size, sensitivity.svg, each strategy at each
/// scale, and sensitivity-differences.csv (html_sensitivity_section.cpp).
void sensitivity_section(Page& page, const fs::path& dir, const Csv& csv);
/// iterations.csv of `hplsim noise-bench`: each busy-core count's iteration
/// times and iterations.svg (html_noise_bench_section.cpp).
void noise_bench_section(Page& page, const fs::path& dir, const Csv& csv);

} // namespace hplsim::sim::html
