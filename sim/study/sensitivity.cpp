#include "sim/study/sensitivity.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iomanip>
#include <map>
#include <stdexcept>

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

SensitivityStudy sensitivity_of(const std::vector<FlapScale>& scales, int trials,
                                std::vector<SensitivityInput> inputs) {
  if (scales.empty() || trials < 1 || inputs.empty())
    throw std::invalid_argument("sensitivity_of: give scales, trials and at least one strategy");
  const std::size_t n = static_cast<std::size_t>(trials);
  for (const SensitivityInput& in : inputs) {
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
  for (std::size_t s = 0; s < scales.size(); ++s)
    for (std::size_t a = 0; a < study.inputs.size(); ++a)
      for (std::size_t b = a + 1; b < study.inputs.size(); ++b)
        study.differences.push_back(
            {scales[s], compare_paired(study.inputs[a].strategy, rows_at(study.inputs[a], s),
                                       study.inputs[b].strategy, rows_at(study.inputs[b], s))});
  return study;
}

void write_sensitivity_csv(const SensitivityStudy& study, const std::string& path) {
  std::map<std::string, const SensitivityInput*> input;
  for (const SensitivityInput& in : study.inputs)
    input[in.strategy] = &in;
  write_file_atomically(path, [&](std::ostream& out) {
    out << "panel_exchange,rate_scale,duration_scale,trials,flaps_reached_mean,messages_failed_mean,"
           "completed,"
           "p_complete,p_complete_low,p_complete_high,fault_free_time_s,fault_free_rmax_flops_per_s,"
           "time_added_s,time_added_low_s,time_added_high_s,rmax_flops_per_s,expected_time_to_result_s\n";
    for (const SensitivityCell& c : study.cells) {
      const SensitivityInput& in = *input.at(c.strategy);
      const Outcome& o = c.outcome;
      const bool any = c.time_added_s.pairs > 0;
      out << c.strategy << ',' << number(c.scale.rate) << ',' << number(c.scale.duration) << ',' << o.trials
          << ',' << number(c.flaps_reached_mean) << ',' << number(c.messages_failed_mean) << ','
          << o.completed << ',' << number(o.p_complete) << ',' << number(o.p_complete_95.low) << ','
          << number(o.p_complete_95.high) << ',' << number(in.fault_free_time_s) << ','
          << number(in.fault_free_rmax_flops_per_s) << ',' << (any ? number(c.time_added_s.mean) : "") << ','
          << (any ? number(c.time_added_s.low) : "") << ',' << (any ? number(c.time_added_s.high) : "") << ','
          << (o.rmax_flops_per_s.count > 0 ? number(o.rmax_flops_per_s.mean) : "") << ','
          << (o.expected_time_to_result_s ? number(*o.expected_time_to_result_s) : "") << '\n';
    }
  });
}

void write_sensitivity_differences_csv(const SensitivityStudy& study, const std::string& path) {
  write_file_atomically(path, [&](std::ostream& out) {
    out << "rate_scale,duration_scale,a,b,pairs,time_s_mean,time_s_low,time_s_high,p_complete_mean,"
           "p_complete_low,p_complete_high\n";
    for (const SensitivityDifference& d : study.differences) {
      const StrategyComparison& c = d.comparison;
      out << number(d.scale.rate) << ',' << number(d.scale.duration) << ',' << c.a << ',' << c.b << ','
          << c.time_s.pairs << ',' << (c.time_s.pairs > 0 ? number(c.time_s.mean) : "") << ','
          << (c.time_s.pairs > 0 ? number(c.time_s.low) : "") << ','
          << (c.time_s.pairs > 0 ? number(c.time_s.high) : "") << ',' << number(c.p_complete.mean) << ','
          << number(c.p_complete.low) << ',' << number(c.p_complete.high) << '\n';
    }
  });
}

void write_sensitivity_trials_csv(const SensitivityStudy& study, const ResolvedScenario& scenario,
                                  const std::string& path) {
  const std::size_t n = static_cast<std::size_t>(study.trials);
  write_file_atomically(path, [&](std::ostream& out) {
    out << "panel_exchange,rate_scale,duration_scale," << kTrialColumns;
    for (const SensitivityInput& in : study.inputs)
      for (std::size_t r = 0; r < in.rows.size(); ++r) {
        const FlapScale& s = study.scales[r / n];
        out << in.strategy << ',' << number(s.rate) << ',' << number(s.duration) << ',';
        write_trial_row(out, scenario, in.rows[r]);
      }
  });
}

void write_sensitivity_faults_csv(const SensitivityStudy& study, const ResolvedScenario& scenario,
                                  const std::string& path) {
  const std::size_t n = static_cast<std::size_t>(study.trials);
  write_file_atomically(path, [&](std::ostream& out) {
    out << "rate_scale,duration_scale,trial,stream," << kFaultsCsvColumns;
    for (const SensitivityInput& in : study.inputs)
      for (std::size_t r = 0; r < in.rows.size(); ++r) {
        const FlapScale& s = study.scales[r / n];
        for (const auto& f : in.rows[r].events) {
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

const SensitivityCell* cell_at(const SensitivityStudy& study, const std::string& strategy, double rate,
                               double duration) {
  for (const SensitivityCell& c : study.cells)
    if (c.strategy == strategy && c.scale.rate == rate && c.scale.duration == duration) return &c;
  return nullptr;
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
      s.name = strategy_name(study.inputs[k].strategy);
      for (const double r : rates) {
        const SensitivityCell* c = cell_at(study, study.inputs[k].strategy, r, duration);
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

void print_sensitivity(const SensitivityStudy& study, std::ostream& out) {
  out << "Sensitivity to the flap process: " << study.trials << " trials at each of " << study.scales.size()
      << " scales (rate x duration), common random numbers\n";
  out << std::left << std::setw(12) << "strategy" << std::setw(8) << "rate" << std::setw(10) << "duration"
      << std::setw(8) << "flaps" << std::setw(24) << "P(complete) [95%]"
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
    out << std::setw(12) << strategy_name(c.strategy) << std::setw(8) << scale_label(c.scale.rate)
        << std::setw(10) << scale_label(c.scale.duration) << std::setw(8)
        << format_sig(c.flaps_reached_mean, 3) << std::setw(24)
        << (format_sig(o.p_complete, 3) + " " + format_interval(o.p_complete_95.low, o.p_complete_95.high, 3))
        << added << "\n";
  }
  for (const SensitivityDifference& d : study.differences) {
    const PairedDifference& t = d.comparison.time_s;
    if (t.pairs == 0) continue;
    const bool clear = std::isfinite(t.low) && (t.low > 0.0 || t.high < 0.0);
    out << "  " << scale_label(d.scale.rate) << " rate, " << scale_label(d.scale.duration)
        << " duration: " << d.comparison.a << " - " << d.comparison.b << " time " << format_sig(t.mean, 3)
        << " s" << (std::isfinite(t.low) ? " " + format_interval(t.low, t.high, 3) : std::string())
        << " over " << t.pairs << " pairs" << (clear ? ", clear of zero" : "") << "\n";
  }
  out << std::right;
}

} // namespace hplsim::sim
