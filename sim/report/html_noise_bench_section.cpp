// The noise-bench section of `hplsim report` (sim/report/html_sections.hpp):
// iterations.csv's iteration times per busy-core count, as stdout prints them,
// and iterations.svg.
#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "sim/report/format.hpp"
#include "sim/report/html_sections.hpp"
#include "sim/support/errors.hpp"

namespace hplsim::sim::html {

namespace {

// Nearest-rank percentile of sorted times, p in [0, 100] (as the noise-bench's stdout).
double percentile_s(const std::vector<double>& sorted_s, double p) {
  const auto n = static_cast<double>(sorted_s.size());
  const auto rank = static_cast<std::size_t>(std::max(1.0, std::ceil(p / 100.0 * n)));
  return sorted_s[std::min(rank, sorted_s.size()) - 1];
}

} // namespace

void noise_bench_section(Page& page, const fs::path& dir, const Csv& csv) {
  std::map<long long, std::vector<double>> by_busy;
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    const auto busy = csv.number(r, "busy_cores");
    const auto t = csv.number(r, "time_s");
    if (!busy || !t)
      throw InputError(csv.path.string() + ": row " + std::to_string(r + 2) +
                       ": busy_cores and time_s are needed");
    by_busy[std::llround(*busy)].push_back(*t);
  }
  page.section("noise-bench", "Noise microbenchmark");
  page.paragraph("Each iteration is the same work on every busy core, then a collective; a noise source that "
                 "interrupts a core delays that iteration for every rank (docs/noise.md). Times in us.");
  Table t{{"busy cores", "iterations", "min us", "median us", "p99 us", "max us", "> 1.1 x median"},
          {true, true, true, true, true, true, true},
          {},
          {}};
  const auto us = [](double s) { return format_sig(s * 1e6, 4); };
  for (auto& [busy, times] : by_busy) {
    std::sort(times.begin(), times.end());
    const double median_s = percentile_s(times, 50);
    const auto slow = std::count_if(times.begin(), times.end(), [&](double x) { return x > 1.1 * median_s; });
    t.rows.push_back(
        {std::to_string(busy), std::to_string(times.size()), us(times.front()), us(median_s),
         us(percentile_s(times, 99)), us(times.back()),
         std::to_string(slow) + " (" +
             format_sig(100.0 * static_cast<double>(slow) / static_cast<double>(times.size()), 3) + "%)"});
  }
  page.table(t, "iterations.csv");
  if (fs::exists(dir / "iterations.svg"))
    page.figure(dir / "iterations.svg",
                "Share of iterations at or below each time, one curve per busy-core count");
  page.end_section();
}

} // namespace hplsim::sim::html
