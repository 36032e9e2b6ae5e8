#include "sim/study/sensitivity.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iomanip>
#include <map>
#include <stdexcept>
#include <utility>

#include "sim/report/faults_report.hpp"
#include "sim/report/format.hpp"
#include "sim/report/interval_plot_svg.hpp"
#include "sim/study/trials_study.hpp"
#include "sim/support/output_files.hpp"

namespace hplsim::sim {

namespace {

std::string number(double v) {
  if (!std::isfinite(v)) return "";
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::string();
}

std::string strategy_name(const std::string& s) {
  return s.empty() ? std::string("scenario's") : s;
}

std::string scale_label(double v) {
  return "x" + number(v);
}

} // namespace

RecoveryParting recovery_parting(const FlapScale& scale, const std::string& a, const std::string& b,
                                 const std::vector<double>& recoveries,
                                 const std::vector<std::vector<TrialRow>>& a_rows,
                                 const std::vector<std::vector<TrialRow>>& b_rows) {
  if (recoveries.size() < 2 || a_rows.size() != recoveries.size() || b_rows.size() != recoveries.size())
    throw std::invalid_argument("recovery_parting: give two recovery values or more, and rows for each");
  for (std::size_t k = 0; k < recoveries.size(); ++k) {
    if (k > 0 && !(recoveries[k] > recoveries[k - 1]))
      throw std::invalid_argument("recovery_parting: the recovery values are not ascending");
    if (a_rows[k].size() != a_rows[0].size() || b_rows[k].size() != a_rows[0].size())
      throw std::invalid_argument("recovery_parting: the values' rows are not the same trials");
    for (std::size_t i = 0; i < a_rows[0].size(); ++i)
      if (a_rows[k][i].trial != a_rows[0][i].trial || b_rows[k][i].trial != a_rows[0][i].trial)
        throw std::invalid_argument("recovery_parting: the values' rows are not the same trials");
  }
  const auto same_run = [](const TrialRow& x, const TrialRow& y) {
    return x.completed == y.completed && x.time_s == y.time_s;
  };
  RecoveryParting p;
  p.scale = scale;
  p.a = a;
  p.b = b;
  p.base_s = recoveries.front();
  for (std::size_t k = 1; k < recoveries.size(); ++k) {
    RecoveryStep st;
    st.collective_recovery_s = recoveries[k];
    std::vector<double> change;
    for (std::size_t i = 0; i < a_rows[0].size(); ++i) {
      const TrialRow &a0 = a_rows[0][i], &b0 = b_rows[0][i], &ak = a_rows[k][i], &bk = b_rows[k][i];
      if (!same_run(a0, ak) || !same_run(b0, bk)) ++st.trials_moved;
      if (!(a0.completed && b0.completed && ak.completed && bk.completed)) continue;
      // Exactly 0 when neither run moved: (x - y) - (x - y).
      const double g = (ak.time_s - bk.time_s) - (a0.time_s - b0.time_s);
      change.push_back(g);
      st.gap_moved += g != 0.0;
    }
    st.gap_change_s = mean_interval(change);
    st.parts = change.size() >= 2 && std::isfinite(st.gap_change_s.low) &&
               (st.gap_change_s.low > 0.0 || st.gap_change_s.high < 0.0);
    if (st.parts && !p.threshold_s) p.threshold_s = recoveries[k];
    p.steps.push_back(st);
  }
  return p;
}

SensitivityStudy sensitivity_of(const std::vector<FlapScale>& scales, int trials,
                                std::vector<SensitivityInput> inputs, std::vector<double> recoveries) {
  if (scales.empty() || trials < 1 || inputs.empty())
    throw std::invalid_argument("sensitivity_of: give scales, trials and at least one strategy");
  const std::size_t n = static_cast<std::size_t>(trials);
  const std::size_t values = std::max<std::size_t>(1, recoveries.size());
  if (inputs.size() % values != 0)
    throw std::invalid_argument("sensitivity_of: the inputs are not every strategy at every recovery value");
  for (std::size_t k = 0; k < recoveries.size(); ++k)
    if (k > 0 && !(recoveries[k] > recoveries[k - 1]))
      throw std::invalid_argument("sensitivity_of: the recovery values are not ascending");
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const SensitivityInput& in = inputs[i];
    if (!recoveries.empty() && (in.collective_recovery_s != recoveries[i % values] ||
                                in.strategy != inputs[i - i % values].strategy))
      throw std::invalid_argument("sensitivity_of: input " + std::to_string(i) +
                                  " is not its strategy at its recovery value");
    if (in.rows.size() != scales.size() * n)
      throw std::invalid_argument("sensitivity_of: " + strategy_name(in.strategy) + " has " +
                                  std::to_string(in.rows.size()) + " rows, not " +
                                  std::to_string(scales.size() * n));
    for (std::size_t r = 0; r < in.rows.size(); ++r)
      if (in.rows[r].trial != inputs.front().rows[r].trial)
        throw std::invalid_argument("sensitivity_of: the strategies' trials are not the same");
  }
  SensitivityStudy study;
  study.scales = scales;
  study.trials = trials;
  study.recoveries = std::move(recoveries);
  study.inputs = std::move(inputs);
  const auto rows_at = [&](const SensitivityInput& in, std::size_t s) {
    return std::vector<TrialRow>(in.rows.begin() + static_cast<std::ptrdiff_t>(s * n),
                                 in.rows.begin() + static_cast<std::ptrdiff_t>((s + 1) * n));
  };
  for (const SensitivityInput& in : study.inputs)
    for (std::size_t s = 0; s < scales.size(); ++s) {
      const std::vector<TrialRow> rows = rows_at(in, s);
      SensitivityCell c;
      c.strategy = in.strategy;
      c.collective_recovery_s = in.collective_recovery_s;
      c.scale = scales[s];
      c.outcome = outcome_of(rows, std::nullopt, in.fault_free_time_s);
      std::vector<double> added;
      for (const TrialRow& r : rows) {
        c.flaps_reached_mean += r.flaps_reached / double(n);
        c.messages_failed_mean += r.messages_failed / double(n);
        if (r.completed) added.push_back(r.time_s - in.fault_free_time_s);
      }
      c.time_added_s = mean_interval(added);
      study.cells.push_back(std::move(c));
    }
  const std::size_t strategies = study.inputs.size() / values;
  const auto input = [&](std::size_t strategy, std::size_t value) -> const SensitivityInput& {
    return study.inputs[strategy * values + value];
  };
  for (std::size_t v = 0; v < values; ++v)
    for (std::size_t s = 0; s < scales.size(); ++s)
      for (std::size_t a = 0; a < strategies; ++a)
        for (std::size_t b = a + 1; b < strategies; ++b)
          study.differences.push_back({input(a, v).collective_recovery_s, scales[s],
                                       compare_paired(input(a, v).strategy, rows_at(input(a, v), s),
                                                      input(b, v).strategy, rows_at(input(b, v), s))});
  if (values >= 2)
    for (std::size_t s = 0; s < scales.size(); ++s)
      for (std::size_t a = 0; a < strategies; ++a)
        for (std::size_t b = a + 1; b < strategies; ++b) {
          std::vector<std::vector<TrialRow>> ra, rb;
          for (std::size_t v = 0; v < values; ++v) {
            ra.push_back(rows_at(input(a, v), s));
            rb.push_back(rows_at(input(b, v), s));
          }
          study.partings.push_back(recovery_parting(scales[s], input(a, 0).strategy, input(b, 0).strategy,
                                                    study.recoveries, ra, rb));
        }
  return study;
}

void write_sensitivity_csv(const SensitivityStudy& study, const std::string& path) {
  std::map<std::pair<std::string, double>, const SensitivityInput*> input;
  for (const SensitivityInput& in : study.inputs)
    input[{in.strategy, in.collective_recovery_s}] = &in;
  const bool axis = !study.recoveries.empty();
  write_file_atomically(path, [&](std::ostream& out) {
    out << "panel_exchange," << (axis ? "collective_recovery_s," : "")
        << "rate_scale,duration_scale,trials,flaps_reached_mean,messages_failed_mean,"
           "completed,"
           "p_complete,p_complete_low,p_complete_high,fault_free_time_s,fault_free_rmax_flops_per_s,"
           "time_added_s,time_added_low_s,time_added_high_s,rmax_flops_per_s,expected_time_to_result_s\n";
    for (const SensitivityCell& c : study.cells) {
      const SensitivityInput& in = *input.at({c.strategy, c.collective_recovery_s});
      const Outcome& o = c.outcome;
      const bool any = c.time_added_s.pairs > 0;
      out << c.strategy << ',';
      if (axis) out << number(c.collective_recovery_s) << ',';
      out << number(c.scale.rate) << ',' << number(c.scale.duration) << ',' << o.trials << ','
          << number(c.flaps_reached_mean) << ',' << number(c.messages_failed_mean) << ',' << o.completed
          << ',' << number(o.p_complete) << ',' << number(o.p_complete_95.low) << ','
          << number(o.p_complete_95.high) << ',' << number(in.fault_free_time_s) << ','
          << number(in.fault_free_rmax_flops_per_s) << ',' << (any ? number(c.time_added_s.mean) : "") << ','
          << (any ? number(c.time_added_s.low) : "") << ',' << (any ? number(c.time_added_s.high) : "") << ','
          << (o.rmax_flops_per_s.count > 0 ? number(o.rmax_flops_per_s.mean) : "") << ','
          << (o.expected_time_to_result_s ? number(*o.expected_time_to_result_s) : "") << '\n';
    }
  });
}

void write_sensitivity_differences_csv(const SensitivityStudy& study, const std::string& path) {
  const bool axis = !study.recoveries.empty();
  write_file_atomically(path, [&](std::ostream& out) {
    out << (axis ? "collective_recovery_s," : "")
        << "rate_scale,duration_scale,a,b,pairs,time_s_mean,time_s_low,time_s_high,p_complete_mean,"
           "p_complete_low,p_complete_high\n";
    for (const SensitivityDifference& d : study.differences) {
      const StrategyComparison& c = d.comparison;
      if (axis) out << number(d.collective_recovery_s) << ',';
      out << number(d.scale.rate) << ',' << number(d.scale.duration) << ',' << c.a << ',' << c.b << ','
          << c.time_s.pairs << ',' << (c.time_s.pairs > 0 ? number(c.time_s.mean) : "") << ','
          << (c.time_s.pairs > 0 ? number(c.time_s.low) : "") << ','
          << (c.time_s.pairs > 0 ? number(c.time_s.high) : "") << ',' << number(c.p_complete.mean) << ','
          << number(c.p_complete.low) << ',' << number(c.p_complete.high) << '\n';
    }
  });
}

void write_sensitivity_recovery_csv(const SensitivityStudy& study, const std::string& path) {
  write_file_atomically(path, [&](std::ostream& out) {
    out << "rate_scale,duration_scale,a,b,base_collective_recovery_s,collective_recovery_s,pairs,"
           "gap_change_s_mean,gap_change_s_low,gap_change_s_high,trials_moved,gap_moved,parts\n";
    for (const RecoveryParting& p : study.partings)
      for (const RecoveryStep& st : p.steps) {
        const PairedDifference& g = st.gap_change_s;
        out << number(p.scale.rate) << ',' << number(p.scale.duration) << ',' << p.a << ',' << p.b << ','
            << number(p.base_s) << ',' << number(st.collective_recovery_s) << ',' << g.pairs << ','
            << (g.pairs > 0 ? number(g.mean) : "") << ',' << (g.pairs > 0 ? number(g.low) : "") << ','
            << (g.pairs > 0 ? number(g.high) : "") << ',' << st.trials_moved << ',' << st.gap_moved << ','
            << (st.parts ? 1 : 0) << '\n';
      }
  });
}

void write_sensitivity_trials_csv(const SensitivityStudy& study, const ResolvedScenario& scenario,
                                  const std::string& path) {
  const std::size_t n = static_cast<std::size_t>(study.trials);
  const bool axis = !study.recoveries.empty();
  write_file_atomically(path, [&](std::ostream& out) {
    out << "panel_exchange," << (axis ? "collective_recovery_s," : "") << "rate_scale,duration_scale,"
        << kTrialColumns;
    for (const SensitivityInput& in : study.inputs)
      for (std::size_t r = 0; r < in.rows.size(); ++r) {
        const FlapScale& s = study.scales[r / n];
        out << in.strategy << ',';
        if (axis) out << number(in.collective_recovery_s) << ',';
        out << number(s.rate) << ',' << number(s.duration) << ',';
        write_trial_row(out, scenario, in.rows[r]);
      }
  });
}

void write_sensitivity_faults_csv(const SensitivityStudy& study, const ResolvedScenario& scenario,
                                  const std::string& path) {
  const std::size_t n = static_cast<std::size_t>(study.trials);
  const bool axis = !study.recoveries.empty();
  write_file_atomically(path, [&](std::ostream& out) {
    out << (axis ? "collective_recovery_s," : "") << "rate_scale,duration_scale,trial,stream,"
        << kFaultsCsvColumns;
    for (const SensitivityInput& in : study.inputs)
      for (std::size_t r = 0; r < in.rows.size(); ++r) {
        const FlapScale& s = study.scales[r / n];
        for (const auto& f : in.rows[r].events) {
          if (axis) out << number(in.collective_recovery_s) << ',';
          out << number(s.rate) << ',' << number(s.duration) << ',' << in.rows[r].trial << ','
              << scenario.options.seed << ':' << in.rows[r].trial << ',';
          write_fault_row(out, f, in.strategy);
        }
      }
  });
}

namespace {

// The distinct values of one scale, ascending (the figure's x axis and panels).
std::vector<double> distinct(const std::vector<FlapScale>& scales, double FlapScale::*field) {
  std::vector<double> out;
  for (const FlapScale& s : scales)
    if (std::find(out.begin(), out.end(), s.*field) == out.end()) out.push_back(s.*field);
  std::sort(out.begin(), out.end());
  return out;
}

const SensitivityCell* cell_at(const SensitivityStudy& study, const SensitivityInput& in, double rate,
                               double duration) {
  for (const SensitivityCell& c : study.cells)
    if (c.strategy == in.strategy && c.collective_recovery_s == in.collective_recovery_s &&
        c.scale.rate == rate && c.scale.duration == duration)
      return &c;
  return nullptr;
}

// A series' or a row's name: the strategy, and its recovery value when the study has the axis.
std::string input_name(const SensitivityStudy& study, const std::string& strategy, double recovery_s) {
  return strategy_name(strategy) +
         (study.recoveries.empty() ? std::string() : ", recovery " + number(recovery_s) + " s");
}

} // namespace

void write_sensitivity_svg(const SensitivityStudy& study, const std::string& path) {
  const std::vector<double> rates = distinct(study.scales, &FlapScale::rate);
  const std::vector<double> durations = distinct(study.scales, &FlapScale::duration);
  bool any_failed = false;
  for (const SensitivityCell& c : study.cells)
    any_failed = any_failed || c.outcome.completed < c.outcome.trials;
  std::vector<IntervalPanel> panels;
  const auto panel_of = [&](double duration, bool p_complete) {
    IntervalPanel p;
    p.title = (p_complete ? "P(complete), flap durations " : "Time the flaps add to a run, flap durations ") +
              scale_label(duration);
    p.y_label = p_complete ? "P(complete)" : "time added, s";
    p.x = rates;
    for (std::size_t k = 0; k < study.inputs.size(); ++k) {
      IntervalSeries s;
      s.name = input_name(study, study.inputs[k].strategy, study.inputs[k].collective_recovery_s);
      for (const double r : rates) {
        const SensitivityCell* c = cell_at(study, study.inputs[k], r, duration);
        double y = NAN, lo = NAN, hi = NAN;
        if (c && p_complete) {
          y = c->outcome.p_complete;
          lo = c->outcome.p_complete_95.low;
          hi = c->outcome.p_complete_95.high;
        } else if (c && c->time_added_s.pairs > 0) {
          y = c->time_added_s.mean;
          lo = c->time_added_s.low;
          hi = c->time_added_s.high;
        }
        s.y.push_back(y);
        s.low.push_back(lo);
        s.high.push_back(hi);
      }
      if (k == 0) {
        p.name = s.name;
        p.y = s.y;
        p.low = s.low;
        p.high = s.high;
      } else {
        p.more.push_back(std::move(s));
      }
    }
    return p;
  };
  for (const double d : durations)
    panels.push_back(panel_of(d, false));
  if (any_failed)
    for (const double d : durations)
      panels.push_back(panel_of(d, true));
  write_interval_plot_svg("flap rate scale (multiple of the scenario's rates)", panels, path);
}

namespace {

// A pair's parting along the recovery axis, and the value that parts them or why none does.
void print_parting(const RecoveryParting& p, int trials, std::ostream& out) {
  out << "Collective recovery, " << scale_label(p.scale.rate) << " rate, " << scale_label(p.scale.duration)
      << " duration: the gap " << p.a << " - " << p.b << " at each value minus at " << number(p.base_s)
      << " s, paired on the trials both completed at both\n";
  for (const RecoveryStep& st : p.steps) {
    const PairedDifference& g = st.gap_change_s;
    out << "  " << number(st.collective_recovery_s) << " s: ";
    if (g.pairs == 0)
      out << "no pair completed";
    else
      out << format_sig(g.mean, 3) << " s"
          << (std::isfinite(g.low) ? " " + format_interval(g.low, g.high, 3) : std::string()) << " over "
          << g.pairs << " pairs";
    out << "; " << st.trials_moved << " of " << trials << " trials moved, the gap in " << st.gap_moved
        << (st.parts ? ", parts" : "") << "\n";
  }
  if (p.threshold_s) {
    out << "  threshold: " << p.a << " and " << p.b << " part from " << number(*p.threshold_s) << " s\n";
    return;
  }
  const RecoveryStep& last = p.steps.back();
  out << "  threshold: none of the values parts them: ";
  if (last.trials_moved == 0)
    out << "no trial's run moved with the recovery (no collective had a stalled member)\n";
  else if (last.gap_moved == 0)
    out << last.trials_moved << " trials' runs moved, the gap in none (the stalled collectives were ones "
        << "both strategies have)\n";
  else
    out << "the gap moved in " << last.gap_moved << " of " << last.gap_change_s.pairs
        << " pairs, too few or too scattered for the interval to exclude 0\n";
}

} // namespace

void print_sensitivity(const SensitivityStudy& study, std::ostream& out) {
  const bool axis = !study.recoveries.empty();
  out << "Sensitivity to the flap process: " << study.trials << " trials at each of " << study.scales.size()
      << " scales (rate x duration)";
  if (axis) out << " and " << study.recoveries.size() << " collective recovery values";
  out << ", common random numbers\n";
  out << std::left << std::setw(12) << "strategy";
  if (axis) out << std::setw(13) << "recovery, s";
  out << std::setw(8) << "rate" << std::setw(10) << "duration" << std::setw(8) << "flaps" << std::setw(24)
      << "P(complete) [95%]"
      << "time added, s [95%]\n";
  for (const SensitivityCell& c : study.cells) {
    const Outcome& o = c.outcome;
    const std::string added =
        c.time_added_s.pairs == 0
            ? std::string("-")
            : format_sig(c.time_added_s.mean, 3) +
                  (std::isfinite(c.time_added_s.low)
                       ? " " + format_interval(c.time_added_s.low, c.time_added_s.high, 3)
                       : std::string());
    out << std::setw(12) << strategy_name(c.strategy);
    if (axis) out << std::setw(13) << number(c.collective_recovery_s);
    out << std::setw(8) << scale_label(c.scale.rate) << std::setw(10) << scale_label(c.scale.duration)
        << std::setw(8) << format_sig(c.flaps_reached_mean, 3) << std::setw(24)
        << (format_sig(o.p_complete, 3) + " " + format_interval(o.p_complete_95.low, o.p_complete_95.high, 3))
        << added << "\n";
  }
  for (const SensitivityDifference& d : study.differences) {
    const PairedDifference& t = d.comparison.time_s;
    if (t.pairs == 0) continue;
    const bool clear = std::isfinite(t.low) && (t.low > 0.0 || t.high < 0.0);
    out << "  " << (axis ? "recovery " + number(d.collective_recovery_s) + " s, " : std::string())
        << scale_label(d.scale.rate) << " rate, " << scale_label(d.scale.duration)
        << " duration: " << d.comparison.a << " - " << d.comparison.b << " time " << format_sig(t.mean, 3)
        << " s" << (std::isfinite(t.low) ? " " + format_interval(t.low, t.high, 3) : std::string())
        << " over " << t.pairs << " pairs" << (clear ? ", clear of zero" : "") << "\n";
  }
  for (const RecoveryParting& p : study.partings)
    print_parting(p, study.trials, out);
  out << std::right;
}

} // namespace hplsim::sim
