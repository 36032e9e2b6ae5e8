// The trials, sweep and plan sections of `hplsim report`'s page.
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "sim/report/ecdf_svg.hpp"
#include "sim/report/format.hpp"
#include "sim/report/html_sections.hpp"
#include "sim/report/result_time.hpp"
#include "sim/report/units.hpp"
#include "sim/support/errors.hpp"

namespace hplsim::sim::html {

namespace {

std::string count_at(const Json& j, const std::string& key) {
  const auto v = number_at(j, key);
  return v ? format_count(std::llround(*v)) : "-";
}

/// "[lo, hi]" of a two-number JSON array, each end through `show`.
template <class Show> std::string interval_at(const Json& j, const std::string& key, Show show) {
  if (!j.contains(key) || !j[key].is_array() || j[key].size() != 2 || !j[key][0].is_number() ||
      !j[key][1].is_number())
    return "";
  return "[" + show(j[key][0].get<double>()) + ", " + show(j[key][1].get<double>()) + "]";
}

std::string fraction(double x) {
  return format_fraction(x, 3);
}

std::string duration(double s) {
  return format_duration(s, 4);
}

std::string rate(double r) {
  return format_rate(r, 4);
}

/// The headline cards of one set of trials (one strategy's).
std::vector<Card> outcome_cards(const Json& o, const Json& top) {
  std::vector<Card> cards;
  if (const auto p = number_at(o, "p_complete"))
    cards.push_back(
        {"P(complete)", fraction(*p), "95% interval " + interval_at(o, "p_complete_95", fraction)});
  cards.push_back({"trials completed", count_at(o, "completed") + " of " + count_at(top, "trials"), ""});
  if (const auto t = number_at(o, "expected_time_to_result_s"))
    cards.push_back(
        {"expected time to a result", duration(*t),
         "restarts of " + format_duration(number_at(o, "restart_setup_s").value_or(0), 3) + " included"});
  const Json time = o.value("time_s", Json()), r = o.value("rmax_flops_per_s", Json());
  if (const auto m = number_at(time, "p50"))
    cards.push_back({"run time, median completed trial", duration(*m),
                     "5-95%: [" + duration(number_at(time, "p5").value_or(NAN)) + ", " +
                         duration(number_at(time, "p95").value_or(NAN)) + "]"});
  if (const auto m = number_at(r, "p50"))
    cards.push_back({"Rmax, median completed trial", rate(*m),
                     "5-95%: [" + rate(number_at(r, "p5").value_or(NAN)) + ", " +
                         rate(number_at(r, "p95").value_or(NAN)) + "]"});
  const Json ff = o.value("fault_free", Json());
  if (const auto t = number_at(ff, "time_s"))
    cards.push_back(
        {"the run without faults", duration(*t),
         number_at(ff, "rmax_flops_per_s") ? "Rmax " + rate(*number_at(ff, "rmax_flops_per_s")) : ""});
  const Json cf = o.value("closed_form", Json());
  if (const auto p = number_at(cf, "p_complete"))
    cards.push_back({"P(complete), closed form", fraction(*p), "exp(-\u039b T)"});
  return cards;
}

/// The spreads of outcome.json as one table (one row per figure, per strategy).
void spread_table(Page& page, const std::vector<std::pair<std::string, Json>>& sets) {
  Table t{{"", "figure", "trials", "mean", "5%", "median", "95%"},
          {false, false, true, true, true, true, true},
          {},
          {}};
  const bool named = sets.size() > 1;
  if (!named) t.header.erase(t.header.begin()), t.numeric.erase(t.numeric.begin());
  for (const auto& [name, o] : sets)
    for (const auto& [key, label, show] :
         std::vector<std::tuple<std::string, std::string, std::string (*)(double)>>{
             {"time_s", "run time of the completed trials", duration},
             {"rmax_flops_per_s", "Rmax of the completed trials", rate},
             {"lost_work_s", "work lost by the failed trials", duration}}) {
      const Json s = o.value(key, Json());
      if (!s.is_object()) continue;
      std::vector<std::string> row = {label, count_at(s, "count")};
      for (const char* q : {"mean", "p5", "p50", "p95"})
        row.push_back(number_at(s, q) ? show(*number_at(s, q)) : "-");
      if (named) row.insert(row.begin(), name);
      t.rows.push_back(row);
    }
  page.table(t);
}

/// The time to a result (one completed run, and with restarts until one
/// completes) and the Rmax of the completed trials, per strategy.
void trials_figure(Page& page, const Csv& csv, const std::map<std::string, double>& restart_s) {
  const bool strategies = csv.column("panel_exchange").has_value();
  std::vector<std::string> names;
  std::map<std::string, std::vector<double>> done, failed, rmax;
  double top_rate = 0;
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    const std::string name = strategies ? csv.cell(r, "panel_exchange") : "";
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    const bool completed = csv.cell(r, "completed") == "true";
    const auto t = csv.number(r, "time_s");
    const auto rm = csv.number(r, "rmax_flops_per_s");
    if (t) (completed ? done : failed)[name].push_back(*t);
    if (completed && rm && *rm > 0) rmax[name].push_back(*rm), top_rate = std::max(top_rate, *rm);
  }
  std::map<std::string, std::vector<std::pair<double, double>>> with_restarts;
  double top_time = 0;
  for (const std::string& n : names) {
    const auto it = restart_s.find(n);
    with_restarts[n] = result_time_cdf(done[n], failed[n], it == restart_s.end() ? 0.0 : it->second);
    for (const double t : done[n])
      top_time = std::max(top_time, t);
    if (!with_restarts[n].empty()) top_time = std::max(top_time, with_restarts[n].back().first);
  }
  const Unit tu = time_unit(top_time), ru = rate_unit(top_rate);
  EcdfPanel time{"Time to a result", std::string("wall time (") + tu.name + ")", "share of the results", {}};
  EcdfPanel rate_panel{"Rmax of each completed trial",
                       std::string("Rmax (") + ru.name + ")",
                       "share of the completed trials",
                       {}};
  for (const std::string& n : names) {
    const std::string prefix = n.empty() ? "" : n + ": ";
    EcdfSeries once{prefix + "one run, completed trials", done[n], {}};
    for (double& v : once.values)
      v /= tu.scale;
    if (!once.values.empty()) time.series.push_back(std::move(once));
    EcdfSeries restarts{prefix + "restarts included", {}, with_restarts[n]};
    for (auto& [t, f] : restarts.curve)
      t /= tu.scale;
    if (!restarts.curve.empty()) time.series.push_back(std::move(restarts));
    EcdfSeries r{n.empty() ? "completed" : n, rmax[n], {}};
    for (double& v : r.values)
      v /= ru.scale;
    if (!r.values.empty()) rate_panel.series.push_back(std::move(r));
  }
  if (time.series.empty()) return; // no trial completed: the cards say so
  page.figure_text(
      ecdf_svg({time, rate_panel}),
      "The distribution over the trials: the share of the completed trials at or below each value "
      "(every trial is a step), and the wall time to a first result when a failed run is restarted "
      "(each attempt drawn from the trials, restart set-up included)");
}

void trials_table(Page& page, const Csv& csv) {
  const bool strategies = csv.column("panel_exchange").has_value();
  // One unit per column, the unit of the column's largest value.
  const auto largest = [&](const char* key) {
    double top = 0;
    for (std::size_t r = 0; r < csv.rows.size(); ++r)
      top = std::max(top, csv.number(r, key).value_or(0));
    return top;
  };
  const Unit ru = rate_unit(largest("rmax_flops_per_s")), tu = time_unit(largest("time_s")),
             wu = time_unit(largest("retry_wait_s")), lu = time_unit(largest("lost_work_s"));
  Table t{{"trial", "completed", std::string("run time, ") + tu.name, std::string("Rmax, ") + ru.name,
           "ended by", "events reached", "messages failed", std::string("retry wait, ") + wu.name,
           std::string("work lost, ") + lu.name},
          {true, false, true, true, false, true, true, true, true},
          {},
          {}};
  if (strategies)
    t.header.insert(t.header.begin(), "panel exchange"), t.numeric.insert(t.numeric.begin(), false);
  const auto in = [&](std::size_t r, const char* key, Unit u) {
    const auto v = csv.number(r, key);
    return v ? format_sig(*v / u.scale, 4) : std::string("-");
  };
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    const bool completed = csv.cell(r, "completed") == "true";
    std::string ended = csv.cell(r, "ended_by");
    if (!csv.cell(r, "ending_event").empty()) ended += " (event " + csv.cell(r, "ending_event") + ")";
    std::vector<std::string> row = {csv.cell(r, "trial"),
                                    completed ? "yes" : "no",
                                    in(r, "time_s", tu),
                                    completed ? in(r, "rmax_flops_per_s", ru) : "-",
                                    ended.empty() ? "-" : ended,
                                    csv.cell(r, "reached"),
                                    csv.cell(r, "messages_failed"),
                                    in(r, "retry_wait_s", wu),
                                    in(r, "lost_work_s", lu)};
    if (strategies) row.insert(row.begin(), csv.cell(r, "panel_exchange"));
    t.rows.push_back(row);
    t.row_class.push_back(completed ? "" : "failed");
  }
  page.heading3("Each trial");
  page.table(t, "trials.csv");
}

} // namespace

void trials_section(Page& page, const fs::path& dir, const Json& outcome) {
  page.section("trials", "Trials");
  std::vector<std::pair<std::string, Json>> sets;
  if (outcome.contains("strategies") && outcome["strategies"].is_array()) {
    for (const Json& s : outcome["strategies"])
      sets.emplace_back(s.value("panel_exchange", "?"), s);
  } else {
    sets.emplace_back("", outcome);
  }
  for (const auto& [name, o] : sets) {
    if (!name.empty()) page.heading3("Panel exchange " + name);
    page.cards(outcome_cards(o, outcome));
  }
  if (outcome.contains("differences") && outcome["differences"].is_array() &&
      !outcome["differences"].empty()) {
    Table t{{"pair", "P(complete)", "run time", "Rmax"}, {false, true, true, true}, {}, {}};
    const auto diff = [](const Json& d, std::string (*show)(double)) {
      if (!number_at(d, "mean")) return std::string("-");
      const auto lo = number_at(d, "low_95"), hi = number_at(d, "high_95");
      return show(*number_at(d, "mean")) + " " + (lo && hi ? "[" + show(*lo) + ", " + show(*hi) + "]" : "");
    };
    for (const Json& d : outcome["differences"])
      t.rows.push_back(
          {d.value("a", "?") + " - " + d.value("b", "?"), diff(d.value("p_complete", Json()), fraction),
           diff(d.value("time_s", Json()), duration), diff(d.value("rmax_flops_per_s", Json()), rate)});
    page.heading3("Paired differences (mean and 95% interval; common random numbers)");
    page.table(t);
  }
  std::optional<Csv> csv;
  if (const auto text = read_if_present(dir / "trials.csv")) csv = parse_csv(dir / "trials.csv", *text);
  std::map<std::string, double> restart_s;
  for (const auto& [name, o] : sets)
    restart_s[name] = number_at(o, "restart_setup_s").value_or(0.0);
  if (csv && !csv->rows.empty()) trials_figure(page, *csv, restart_s);
  page.heading3("Spread over the trials");
  spread_table(page, sets);
  if (csv) trials_table(page, *csv);
  page.raw_json("Every value of outcome.json", outcome, "outcome.");
  page.end_section();
}

void sweep_section(Page& page, const fs::path& dir, const Csv& csv) {
  const auto first_summary = csv.column("benchmark");
  const auto rank = csv.column("rank"), rmax = csv.column("rmax_flops_per_s"),
             gap = csv.column("below_best_fraction"), beyond = csv.column("beyond_sampling_error");
  if (!first_summary || !rank || !rmax || !gap || !beyond)
    throw InputError((dir / "sweep.csv").string() + ": not the columns hplsim sweep writes");
  std::vector<std::pair<long long, std::size_t>> by_rank;
  for (std::size_t i = 0; i < csv.rows.size(); ++i) {
    const std::string& text = csv.rows[i][*rank];
    char* end = nullptr;
    const long long r = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0')
      throw InputError((dir / "sweep.csv").string() + ": row " + std::to_string(i + 2) + ": rank \"" + text +
                       "\" is not a whole number");
    by_rank.emplace_back(r, i);
  }
  std::stable_sort(by_rank.begin(), by_rank.end());
  const auto rmax_of = [&](std::size_t row) { return csv.number(row, "rmax_flops_per_s").value_or(0.0); };
  const auto error_of = [&](std::size_t row) { return csv.number(row, "rmax_sampling_error_fraction"); };
  const auto label_of = [&](std::size_t row) {
    std::string s;
    for (std::size_t c = 0; c < *first_summary; ++c)
      s += (s.empty() ? "" : " ") + csv.header[c] + "=" + csv.rows[row][c];
    return s.empty() ? std::string("the scenario") : s;
  };
  bool any_error = false;
  std::size_t completed = 0;
  double worst = INFINITY;
  for (const auto& [r, row] : by_rank) {
    any_error = any_error || error_of(row).has_value();
    if (rmax_of(row) > 0) ++completed, worst = std::min(worst, rmax_of(row));
  }
  const std::size_t best = by_rank.empty() ? 0 : by_rank.front().second;
  const double best_rmax = by_rank.empty() ? 0.0 : rmax_of(best);
  page.section("sweep", "Sweep");
  std::vector<Card> cards = {{"points", format_count(static_cast<long long>(csv.rows.size())),
                              format_count(static_cast<long long>(completed)) + " completed"}};
  if (best_rmax > 0) {
    cards.push_back({"best Rmax", rate(best_rmax), label_of(best)});
    if (error_of(best))
      cards.back().note += "; sampling error \u00b1" + format_sig(100 * *error_of(best), 3) + " %";
    cards.push_back({"worst completed point", rate(worst),
                     format_percent_change(worst / best_rmax - 1) + " from the best"});
  }
  page.cards(cards);
  page.figure(dir / "sweep.svg",
              std::string("The best points ranked, and every point's Rmax over each varied parameter") +
                  (any_error ? "; whiskers: twice the sampling error" : ""));
  page.figure(dir / "sweep-heatmap.svg", "Rmax over the two varied parameters");
  const Unit unit = rate_unit(best_rmax);
  Table t{{"rank"}, {true}, {}, {}};
  for (std::size_t c = 0; c < *first_summary; ++c)
    t.header.push_back(csv.header[c]), t.numeric.push_back(false);
  for (const std::string& h : {std::string("Rmax ") + unit.name, std::string("vs best")})
    t.header.push_back(h), t.numeric.push_back(true);
  if (any_error)
    for (const char* h : {"sampling error", "the difference"})
      t.header.push_back(h), t.numeric.push_back(std::string(h) == "sampling error");
  for (const auto& [r, row] : by_rank) {
    const bool is_best = r == 1;
    const bool real = csv.rows[row][*beyond] == "true";
    std::vector<std::string> cells = {std::to_string(r)};
    for (std::size_t c = 0; c < *first_summary; ++c)
      cells.push_back(csv.rows[row][c]);
    cells.push_back(rmax_of(row) > 0 ? format_sig(rmax_of(row) / unit.scale, 4) : "did not complete");
    cells.push_back(is_best ? "best"
                            : format_percent_change(-csv.number(row, "below_best_fraction").value_or(0)));
    if (any_error) {
      cells.push_back(error_of(row) ? "\u00b1" + format_sig(100 * *error_of(row), 3) + " %" : "-");
      cells.push_back(is_best ? ""
                      : real  ? "beyond twice the sampling error"
                              : "within twice the sampling error: noise");
    }
    t.rows.push_back(cells);
    t.row_class.push_back(is_best || real || !any_error ? "" : "noise");
  }
  page.heading3("Ranking, best first");
  page.table(t, "sweep.csv");
  page.end_section();
}

void plan_section(Page& page, const fs::path& dir, const Csv& csv) {
  for (const char* c : {"nodes", "p_complete", "best_rmax_in_window", "best_time_to_result"})
    if (!csv.column(c))
      throw InputError((dir / "plan.csv").string() + ": not the columns hplsim plan writes (no " + c + ")");
  page.section("plan", "Plan");
  std::vector<Card> cards;
  for (const auto& [column, label, value] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"best_rmax_in_window", "best for Rmax within the window", "rmax_in_window_flops_per_s"},
           {"best_time_to_result", "best for the time to a result", "expected_time_to_result_s"}})
    for (std::size_t r = 0; r < csv.rows.size(); ++r)
      if (csv.cell(r, column) == "true") {
        const auto v = csv.number(r, value);
        // The verdict stdout gives (sim/study/plan.cpp, best_point): a clear
        // winner when its 95% interval's worse end still beats every other
        // completed node count's better end.
        const bool by_time = value == "expected_time_to_result_s";
        const char* lo = by_time ? "expected_time_to_result_low_s" : "rmax_in_window_low";
        const char* hi = by_time ? "expected_time_to_result_high_s" : "rmax_in_window_high";
        bool clear = true;
        for (std::size_t o = 0; o < csv.rows.size(); ++o) {
          if (o == r || csv.cell(o, "simulated") == "false" || csv.number(o, "completed").value_or(0) == 0)
            continue;
          const double best_lo = csv.number(r, lo).value_or(0), best_hi = csv.number(r, hi).value_or(0);
          const double other_lo = csv.number(o, lo).value_or(0), other_hi = csv.number(o, hi).value_or(0);
          if (!(by_time ? best_hi < other_lo : best_lo > other_hi)) clear = false;
        }
        cards.push_back(
            {label, csv.cell(r, "nodes") + " nodes",
             (v ? (by_time ? "expected time to a result " + duration(*v)
                           : "expected Rmax in the window " + rate(*v))
                : std::string()) +
                 (clear ? "; its 95% interval is clear of every other node count's"
                        : "; not a clear winner: its 95% interval overlaps another node count's")});
      }
  if (cards.empty()) cards.push_back({"best node count", "none", "no node count completed a trial", "bad"});
  page.cards(cards);
  page.figure(dir / "plan.svg", "The objectives against node count, with their 95% intervals");
  double top_rate = 0, top_time = 0;
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    top_rate = std::max({top_rate, csv.number(r, "fault_free_rmax_flops_per_s").value_or(0)});
    const double t = csv.number(r, "expected_time_to_result_high_s").value_or(0);
    top_time =
        std::max({top_time, csv.number(r, "fault_free_time_s").value_or(0), std::isfinite(t) ? t : 0.0});
  }
  const Unit ru = rate_unit(top_rate), tu = time_unit(top_time), one{1.0, ""};
  // A figure and its 95% interval in one cell: "0.980 [0.895, 0.996]".
  const auto with_interval = [&](std::size_t r, const char* key, const char* lo, const char* hi, Unit u) {
    const auto v = csv.number(r, key), a = csv.number(r, lo), b = csv.number(r, hi);
    if (!v) return std::string("-");
    return format_sig(*v / u.scale, 3) + (a && b ? " " + format_interval(*a / u.scale, *b / u.scale, 3) : "");
  };
  Table t{{"nodes", "P x Q", "N", "NB", std::string("time without faults, ") + tu.name,
           std::string("Rmax without faults, ") + ru.name, "trials completed", "P(complete) [95%]",
           std::string("time to a result, ") + tu.name + " [95%]", "P(result in window) [95%]",
           std::string("Rmax in window, ") + ru.name + " [95%]"},
          std::vector<bool>(11, true),
          {},
          {}};
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    const auto count = [&](const char* key) {
      const auto v = csv.number(r, key);
      return v ? format_count(std::llround(*v)) : std::string("-");
    };
    const auto in = [&](const char* key, Unit u) {
      const auto v = csv.number(r, key);
      return v ? format_sig(*v / u.scale, 4) : std::string("-");
    };
    t.rows.push_back(
        {count("nodes"), count("p") + " x " + count("q"), count("n"), count("nb"),
         in("fault_free_time_s", tu), in("fault_free_rmax_flops_per_s", ru),
         count("completed") + " of " + count("trials"),
         with_interval(r, "p_complete", "p_complete_low", "p_complete_high", one),
         with_interval(r, "expected_time_to_result_s", "expected_time_to_result_low_s",
                       "expected_time_to_result_high_s", tu),
         with_interval(r, "p_result_in_window", "p_result_in_window_low", "p_result_in_window_high", one),
         with_interval(r, "rmax_in_window_flops_per_s", "rmax_in_window_low", "rmax_in_window_high", ru)});
    const bool best =
        csv.cell(r, "best_rmax_in_window") == "true" || csv.cell(r, "best_time_to_result") == "true";
    t.row_class.push_back(best ? "best" : csv.cell(r, "simulated") == "false" ? "failed" : "");
  }
  page.heading3("Each node count");
  page.table(t, "plan.csv");
  page.end_section();
}

} // namespace hplsim::sim::html
