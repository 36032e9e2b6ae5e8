// The report's section of a sensitivity study (hplsim sensitivity;
// sim/study/sensitivity.hpp): sensitivity.csv, sensitivity.svg and
// sensitivity-differences.csv.
#include <algorithm>
#include <cmath>
#include <set>

#include "sim/report/format.hpp"
#include "sim/report/html_sections.hpp"

namespace hplsim::sim::html {

namespace {

std::string scale(const Csv& csv, std::size_t r, const char* key) {
  return "\u00d7" + csv.cell(r, key);
}

// "4.08 [-3.34, 11.5]": a figure and its interval, "-" when absent.
std::string with_interval(const Csv& csv, std::size_t r, const char* key, const char* lo, const char* hi,
                          double unit = 1.0) {
  const auto v = csv.number(r, key), a = csv.number(r, lo), b = csv.number(r, hi);
  if (!v) return "-";
  return format_sig(*v / unit, 3) + (a && b ? " " + format_interval(*a / unit, *b / unit, 3) : "");
}

// "hybrid" or, with the study's recovery axis (--collective-recovery-s), "hybrid, recovery 2 s".
std::string with_recovery(const Csv& csv, std::size_t r, const std::string& name) {
  const std::string d = csv.cell(r, "collective_recovery_s");
  return d.empty() ? name : name + ", recovery " + d + " s";
}

} // namespace

void sensitivity_section(Page& page, const fs::path& dir, const Csv& csv) {
  page.section("sensitivity", "Sensitivity to the flap process");
  std::set<std::string> strategies, rates, durations;
  int trials = 0, failed_cells = 0;
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    strategies.insert(csv.cell(r, "panel_exchange"));
    rates.insert(csv.cell(r, "rate_scale"));
    durations.insert(csv.cell(r, "duration_scale"));
    trials = std::max(trials, static_cast<int>(csv.number(r, "trials").value_or(0)));
    failed_cells += csv.number(r, "p_complete").value_or(1.0) < 1.0;
  }
  page.cards(
      {{"strategies", std::to_string(strategies.size()), ""},
       {"flap scales",
        std::to_string(rates.size()) + " rates \u00d7 " + std::to_string(durations.size()) + " durations",
        "multipliers of the scenario's flap process"},
       {"trials", std::to_string(trials) + " at every scale",
        "the same draws at each: common random numbers"},
       {"cells with a failed run", std::to_string(failed_cells) + " of " + std::to_string(csv.rows.size()),
        "strategy and scale pairs where some trial did not complete", failed_cells > 0 ? "bad" : nullptr}});
  page.paragraph(
      "The scenario's trials with every flap class's rate per link and mean duration multiplied by the "
      "scales "
      "(docs/faults.md, \"Sensitivity to the flap process\"). Every scale and every strategy draws the same "
      "random numbers, so their differences are paired. Time added: the completed runs' time minus the "
      "strategy's run without faults, with Student's t 95% interval.");
  page.figure(dir / "sensitivity.svg", "Time the flaps add to a completed run against the rate scale, per "
                                       "duration scale and strategy, with 95% intervals");
  Table t{{"strategy", "rate", "duration", "flaps reached per run", "messages failed per run", "completed",
           "P(complete) [95%]", "time added, s [95%]", "time without faults, s",
           "expected time to a result, s"},
          {false, true, true, true, true, true, true, true, true, true},
          {},
          {}};
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    const auto num = [&](const char* key, int digits) {
      const auto v = csv.number(r, key);
      return v ? format_sig(*v, digits) : std::string("-");
    };
    t.rows.push_back({with_recovery(csv, r, csv.cell(r, "panel_exchange")), scale(csv, r, "rate_scale"),
                      scale(csv, r, "duration_scale"), num("flaps_reached_mean", 3),
                      num("messages_failed_mean", 3),
                      csv.cell(r, "completed") + " of " + csv.cell(r, "trials"),
                      with_interval(csv, r, "p_complete", "p_complete_low", "p_complete_high"),
                      with_interval(csv, r, "time_added_s", "time_added_low_s", "time_added_high_s"),
                      num("fault_free_time_s", 6), num("expected_time_to_result_s", 6)});
    t.row_class.push_back(csv.number(r, "p_complete").value_or(1.0) < 1.0 ? "failed" : "");
  }
  page.heading3("Each strategy at each scale");
  page.table(t, "sensitivity.csv");
  if (const auto text = read_if_present(dir / "sensitivity-differences.csv")) {
    const Csv d = parse_csv(dir / "sensitivity-differences.csv", *text);
    Table td{{"rate", "duration", "difference", "pairs", "time, s [95%]", "P(complete) [95%]"},
             {true, true, false, true, true, true},
             {},
             {}};
    for (std::size_t r = 0; r < d.rows.size(); ++r) {
      const auto lo = d.number(r, "time_s_low"), hi = d.number(r, "time_s_high");
      const bool clear = lo && hi && (*lo > 0.0 || *hi < 0.0);
      td.rows.push_back({scale(d, r, "rate_scale"), scale(d, r, "duration_scale"),
                         with_recovery(d, r, d.cell(r, "a") + " \u2212 " + d.cell(r, "b")),
                         d.cell(r, "pairs"), with_interval(d, r, "time_s_mean", "time_s_low", "time_s_high"),
                         with_interval(d, r, "p_complete_mean", "p_complete_low", "p_complete_high")});
      td.row_class.push_back(clear ? "best" : "");
    }
    page.heading3("Paired differences between strategies (highlighted: the time interval is clear of zero)");
    page.table(td, "sensitivity-differences.csv");
  }
  page.end_section();
}

} // namespace hplsim::sim::html
