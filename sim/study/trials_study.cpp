#include "sim/study/trials_study.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/faults/timeline.hpp"
#include "sim/report/faults_report.hpp"
#include "sim/report/format.hpp"
#include "sim/report/units.hpp"
#include "sim/support/output_files.hpp"

namespace hplsim::sim {

namespace {

std::string number(double v) {
  if (std::isnan(v)) return "";
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::string("nan");
}

const char* cause_name(TrialRow::Cause c) {
  switch (c) {
  case TrialRow::Cause::None:
    return "";
  case TrialRow::Cause::NodeFailure:
    return "node_failure";
  case TrialRow::Cause::Transport:
    return "link_flap";
  case TrialRow::Cause::Other:
    return "other";
  }
  return "?";
}

nlohmann::ordered_json spread_json(const Spread& s) {
  if (s.count == 0) return nullptr;
  return {{"count", s.count}, {"mean", s.mean}, {"p5", s.p5}, {"p50", s.p50}, {"p95", s.p95}};
}

nlohmann::ordered_json optional_json(const std::optional<double>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

} // namespace

std::optional<double> closed_form_rate_per_hour(const ResolvedScenario& sc) {
  const Faults& f = sc.faults;
  if (!f.has_failure_process() || f.failure_process().law() != FailureProcess::EXPONENTIAL)
    return std::nullopt;
  if (f.link_flaps_size() > 0 || f.node_failures_size() > 0) return std::nullopt;
  if (f.has_flap_process())
    for (const auto& c : f.flap_process().classes())
      if (c.rate_per_link_per_hour() > 0.0) return std::nullopt;
  return models::total_failure_rate_per_hour(failure_params(f.failure_process(), sc.workload.nodes),
                                             sc.workload.nodes);
}

const char* const kTrialColumns =
    "trial,stream,completed,time_s,rmax_flops_per_s,ended_by,ending_event,reached,flaps_reached,"
    "node_failures_reached,messages_failed,retries,retry_wait_s,flap_delay_s,lost_work_s\n";

void write_trial_row(std::ostream& out, const ResolvedScenario& sc, const TrialRow& r) {
  out << r.trial << ',' << sc.options.seed << ':' << r.trial << ',' << (r.completed ? "true" : "false") << ','
      << number(r.time_s) << ',' << number(r.rmax_flops_per_s) << ',' << cause_name(r.ended_by) << ','
      << (r.ending_event >= 0 ? std::to_string(r.ending_event) : "") << ',' << r.reached << ','
      << r.flaps_reached << ',' << r.node_failures_reached << ',' << r.messages_failed << ',' << r.retries
      << ',' << number(r.retry_wait_s) << ',' << number(r.flap_delay_s) << ',' << number(r.lost_work_s)
      << '\n';
}

namespace {

// outcome.json's fields of one set of trials (one strategy's).
nlohmann::ordered_json outcome_fields(const TrialsResult& t, const Outcome& o) {
  nlohmann::ordered_json j;
  if (!t.fault_free.panel_exchange.empty()) j["panel_exchange"] = t.fault_free.panel_exchange;
  if (t.fault_free.time_s > 0.0)
    j["fault_free"] = {{"time_s", t.fault_free.time_s}, {"rmax_flops_per_s", t.fault_free.rmax_flops_per_s}};
  else
    j["fault_free"] = nullptr; // reference mode simulates the trials only
  j["completed"] = o.completed;
  j["p_complete"] = o.p_complete;
  j["p_complete_95"] = {o.p_complete_95.low, o.p_complete_95.high};
  j["time_s"] = spread_json(o.time_s);
  j["rmax_flops_per_s"] = spread_json(o.rmax_flops_per_s);
  j["lost_work_s"] = spread_json(o.lost_work_s);
  j["restart_setup_s"] = o.restart_setup_s;
  j["expected_time_to_result_s"] = optional_json(o.expected_time_to_result_s);
  if (o.closed_form_p_complete)
    j["closed_form"] = {{"p_complete", *o.closed_form_p_complete},
                        {"time_to_result_s", optional_json(o.closed_form_time_to_result_s)}};
  else
    j["closed_form"] = nullptr;
  return j;
}

nlohmann::ordered_json difference_json(const PairedDifference& d) {
  const auto bound = [](double v) { return std::isfinite(v) ? nlohmann::ordered_json(v) : nullptr; };
  return {{"pairs", d.pairs}, {"mean", d.mean}, {"low_95", bound(d.low)}, {"high_95", bound(d.high)}};
}

} // namespace

void write_trials_csv(const ResolvedScenario& sc, const TrialsResult& t, const std::string& path) {
  write_file_atomically(path, [&](std::ostream& out) {
    out << kTrialColumns;
    for (const TrialRow& r : t.trials)
      write_trial_row(out, sc, r);
  });
}

void write_strategies_trials_csv(const ResolvedScenario& sc, const std::vector<StrategyTrials>& s,
                                 const std::string& path) {
  write_file_atomically(path, [&](std::ostream& out) {
    out << "panel_exchange," << kTrialColumns;
    for (const StrategyTrials& st : s)
      for (const TrialRow& r : st.trials.trials) {
        out << st.name << ',';
        write_trial_row(out, sc, r);
      }
  });
}

void write_trial_faults_csv(const ResolvedScenario& sc, const std::vector<const TrialsResult*>& studies,
                            const std::string& path) {
  write_file_atomically(path, [&](std::ostream& out) {
    out << "trial,stream," << kFaultsCsvColumns;
    for (const TrialsResult* t : studies)
      for (const TrialRow& r : t->trials)
        for (const auto& f : r.events) {
          out << r.trial << ',' << sc.options.seed << ':' << r.trial << ',';
          write_fault_row(out, f, t->fault_free.panel_exchange);
        }
  });
}

void write_outcome_json(const ResolvedScenario& sc, const TrialsResult& t, const Outcome& o,
                        const std::string& path) {
  nlohmann::ordered_json j;
  j["scenario"] = sc.name;
  j["mode"] = t.fault_free.mode;
  j["seed"] = sc.options.seed;
  j["trials"] = o.trials;
  j.update(outcome_fields(t, o));
  write_file_atomically(path, [&](std::ostream& out) { out << j.dump(2) << "\n"; });
}

void write_strategies_outcome_json(const ResolvedScenario& sc, const std::vector<StrategyTrials>& s,
                                   const std::vector<StrategyComparison>& differences,
                                   const std::string& path) {
  nlohmann::ordered_json j;
  j["scenario"] = sc.name;
  j["mode"] = s.empty() ? "" : s.front().trials.fault_free.mode;
  j["seed"] = sc.options.seed;
  j["trials"] = s.empty() ? 0 : s.front().outcome.trials;
  j["common_random_numbers"] = "trial i of every strategy draws RandomStreams(seed, i)";
  j["strategies"] = nlohmann::ordered_json::array();
  for (const StrategyTrials& st : s)
    j["strategies"].push_back(outcome_fields(st.trials, st.outcome));
  j["differences"] = nlohmann::ordered_json::array();
  for (const StrategyComparison& c : differences)
    j["differences"].push_back({{"a", c.a},
                                {"b", c.b},
                                {"time_s", difference_json(c.time_s)},
                                {"rmax_flops_per_s", difference_json(c.rmax_flops_per_s)},
                                {"p_complete", difference_json(c.p_complete)}});
  write_file_atomically(path, [&](std::ostream& out) { out << j.dump(2) << "\n"; });
}

void print_differences(const std::vector<StrategyComparison>& differences, std::ostream& out) {
  // Each figure with its 95% interval, Rmax in the unit of the largest difference's size.
  double largest_rate = 0.0;
  for (const StrategyComparison& c : differences)
    largest_rate =
        std::max({largest_rate, std::fabs(c.rmax_flops_per_s.low), std::fabs(c.rmax_flops_per_s.high)});
  const Unit rate = rate_unit(largest_rate);
  const auto interval = [](const PairedDifference& d, double scale) {
    return format_sig(d.mean / scale) + " " + format_interval(d.low / scale, d.high / scale);
  };
  for (const StrategyComparison& c : differences) {
    out << c.a << " - " << c.b << " (paired, 95%): P(complete) " << interval(c.p_complete, 1.0) << " over "
        << c.p_complete.pairs << " trials; time " << interval(c.time_s, 1.0) << " s, Rmax "
        << interval(c.rmax_flops_per_s, rate.scale) << " " << rate.name << " over the " << c.time_s.pairs
        << " trials both completed";
    const bool time_clear = c.time_s.pairs >= 2 && (c.time_s.low > 0 || c.time_s.high < 0);
    const bool p_clear = c.p_complete.low > 0 || c.p_complete.high < 0;
    out << (time_clear || p_clear ? "" : ": no difference at 95%") << "\n";
  }
}

void print_outcome(const TrialsResult& t, const Outcome& o, std::ostream& out) {
  // One rate unit and one time unit for the whole block, chosen by its largest figure.
  const Unit rate = rate_unit(std::max(t.fault_free.rmax_flops_per_s, o.rmax_flops_per_s.p95));
  double largest_s = std::max(t.fault_free.time_s, o.time_s.count > 0 ? o.time_s.p95 : 0.0);
  if (o.expected_time_to_result_s) largest_s = std::max(largest_s, *o.expected_time_to_result_s);
  const Unit time = time_unit(largest_s);
  const auto r = [&](double v) { return format_in_unit(v, rate); };
  const auto s = [&](double v) { return format_in_unit(v, time); };
  const auto bare_s = [&](double v) { return format_sig(v / time.scale); };
  out << "Trials: " << o.trials << " (" << t.fault_free.mode << " mode"
      << (t.fault_free.panel_exchange.empty() ? "" : ", panel exchange " + t.fault_free.panel_exchange)
      << ")\n";
  if (t.fault_free.time_s > 0.0)
    out << "Without faults: " << s(t.fault_free.time_s) << ", Rmax " << r(t.fault_free.rmax_flops_per_s)
        << "\n";
  out << "Completed: " << o.completed << " of " << o.trials << ", P(complete) "
      << format_fraction(o.p_complete)
      << " (95%: " << format_interval(o.p_complete_95.low, o.p_complete_95.high) << ")";
  if (o.closed_form_p_complete)
    out << "; closed form exp(-Lambda T) " << format_fraction(*o.closed_form_p_complete);
  out << "\n";
  if (o.time_s.count > 0)
    out << "Completed runs: time " << s(o.time_s.mean) << " (p5, p50, p95: " << bare_s(o.time_s.p5) << ", "
        << bare_s(o.time_s.p50) << ", " << bare_s(o.time_s.p95) << " " << time.name << "), Rmax "
        << r(o.rmax_flops_per_s.mean) << " (p5-p95: "
        << format_interval(o.rmax_flops_per_s.p5 / rate.scale, o.rmax_flops_per_s.p95 / rate.scale, 4) << " "
        << rate.name << ")\n";
  out << "Expected wall time to a result (restart set-up " << format_duration(o.restart_setup_s) << "): ";
  if (o.expected_time_to_result_s)
    out << s(*o.expected_time_to_result_s);
  else
    out << "none completed";
  if (o.closed_form_time_to_result_s) out << "; closed form " << s(*o.closed_form_time_to_result_s);
  out << "\n";
}

} // namespace hplsim::sim
