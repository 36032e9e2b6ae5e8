#include "sim/study/plan.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <limits>
#include <sstream>

#include "sim/report/format.hpp"
#include "sim/report/interval_plot_svg.hpp"
#include "sim/report/units.hpp"
#include "sim/support/output_files.hpp"

namespace hplsim::sim {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string number(double v) {
  if (std::isnan(v)) return "";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::string("nan");
}

// The objective's value, and its interval, of a point (larger is better for
// both after the sign: time-to-result is compared negated).
struct Value {
  double value, low, high;
};
Value value_of(const PlanPoint& p, Objective o) {
  if (o == Objective::RmaxInWindow)
    return {p.rmax_in_window_flops_per_s, p.rmax_in_window_low, p.rmax_in_window_high};
  return {p.time_to_result_s, p.time_to_result_low_s, p.time_to_result_high_s};
}
bool better(Objective o, double a, double b) {
  return o == Objective::RmaxInWindow ? a > b : a < b;
}

} // namespace

double expected_time_to_result_at(double p, double mean_failed_s, double restart_setup_s,
                                  double mean_completed_s) {
  if (!(p > 0.0)) return kInf;
  return (1.0 - p) / p * (mean_failed_s + restart_setup_s) + mean_completed_s;
}

double p_result_within(const std::vector<TrialRow>& rows, double p, double restart_setup_s, double window_s,
                       int grid) {
  std::vector<double> done_s, failed_s;
  for (const TrialRow& r : rows)
    (r.completed ? done_s : failed_s).push_back(r.time_s);
  if (done_s.empty() || !(window_s > 0.0) || grid < 1) return 0.0;
  const double w_done = failed_s.empty() ? 1.0 / double(done_s.size()) : p / double(done_s.size());
  const double w_failed = failed_s.empty() ? 0.0 : (1.0 - p) / double(failed_s.size());
  const double dt = window_s / grid;
  // F[g] = P(a result by g dt) = sum_done w 1[T <= g dt] + sum_failed w F[g - ceil((X + R) / dt)].
  std::vector<long> failed_steps;
  for (const double x : failed_s)
    failed_steps.push_back(std::max(1L, static_cast<long>(std::ceil((x + restart_setup_s) / dt))));
  std::sort(done_s.begin(), done_s.end());
  std::vector<double> f(static_cast<std::size_t>(grid) + 1, 0.0);
  std::size_t done_by = 0;
  for (long g = 0; g <= grid; ++g) {
    const double t = double(g) * dt;
    while (done_by < done_s.size() && done_s[done_by] <= t * (1.0 + 1e-12))
      ++done_by;
    double v = w_done * double(done_by);
    for (const long d : failed_steps)
      if (g - d >= 0) v += w_failed * f[static_cast<std::size_t>(g - d)];
    f[static_cast<std::size_t>(g)] = std::min(1.0, v);
  }
  return f.back();
}

PlanPoint plan_point(const TrialsResult& t, double window_s) {
  PlanPoint pt;
  const RunResult& ff = t.fault_free;
  pt.nodes = ff.nodes;
  pt.active_nodes = ff.nodes;
  pt.ranks = ff.ranks;
  pt.p = ff.p;
  pt.q = ff.q;
  pt.n = ff.n;
  pt.nb = ff.nb;
  pt.simulated = ff.completed && ff.time_s > 0.0;
  pt.fault_free_time_s = ff.time_s;
  pt.fault_free_rmax_flops_per_s = ff.rmax_flops_per_s;
  pt.sampling_error_fraction = ff.rmax_sampling_error_fraction;
  if (!ff.completed) std::snprintf(pt.failure, sizeof pt.failure, "%s", ff.failure.c_str());
  const Outcome o = outcome_of(t.trials, std::nullopt, 0.0);
  pt.trials = o.trials;
  pt.completed = o.completed;
  pt.p_complete = o.p_complete;
  pt.p_complete_low = o.p_complete_95.low;
  pt.p_complete_high = o.p_complete_95.high;
  pt.time_mean_s = o.time_s.mean;
  pt.rmax_mean_flops_per_s = o.rmax_flops_per_s.mean;
  pt.restart_setup_s = o.restart_setup_s;
  double failed_sum_s = 0.0;
  for (const TrialRow& r : t.trials)
    if (!r.completed) failed_sum_s += r.time_s;
  const int failed = o.trials - o.completed;
  const double mean_failed_s = failed > 0 ? failed_sum_s / failed : 0.0;
  const auto ttr = [&](double p) {
    return o.completed > 0 ? expected_time_to_result_at(p, mean_failed_s, o.restart_setup_s, o.time_s.mean)
                           : kInf;
  };
  // Fast mode's own sampling error widens both objectives' intervals: the run
  // time and Rmax are read off a curve through sampled windows, whose
  // jackknife standard error e was within 2 e of the true error in 85-100% of
  // the subsamples tested (docs/fast-mode.md, "Each run's sampling error").
  const double e = std::max(0.0, ff.rmax_sampling_error_fraction);
  const double slower = 1.0 + 2.0 * e, faster = std::max(0.0, 1.0 - 2.0 * e);
  pt.time_to_result_s = ttr(o.p_complete);
  pt.time_to_result_low_s = ttr(o.p_complete_95.high) * faster;
  pt.time_to_result_high_s = ttr(o.p_complete_95.low) * slower;
  const auto in_window = [&](double p) { return p_result_within(t.trials, p, o.restart_setup_s, window_s); };
  pt.p_in_window = in_window(o.p_complete);
  pt.p_in_window_low = in_window(o.p_complete_95.low);
  pt.p_in_window_high = in_window(o.p_complete_95.high);
  pt.rmax_in_window_flops_per_s = o.rmax_flops_per_s.mean * pt.p_in_window;
  pt.rmax_in_window_low = o.rmax_flops_per_s.mean * faster * pt.p_in_window_low;
  pt.rmax_in_window_high = o.rmax_flops_per_s.mean * slower * pt.p_in_window_high;
  return pt;
}

Best best_point(const std::vector<PlanPoint>& points, Objective objective) {
  Best b;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const PlanPoint& p = points[i];
    if (!p.simulated || p.completed == 0) continue;
    const double v = value_of(p, objective).value;
    if (!b.index || better(objective, v, value_of(points[*b.index], objective).value)) b.index = i;
  }
  if (!b.index) return b;
  const Value best = value_of(points[*b.index], objective);
  b.separated = true;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (i == *b.index || !points[i].simulated || points[i].completed == 0) continue;
    const Value other = value_of(points[i], objective);
    // Clear when the best's worse bound still beats the other's better bound.
    const bool clear = objective == Objective::RmaxInWindow ? best.low > other.high : best.high < other.low;
    if (!clear) b.separated = false;
  }
  return b;
}

void write_plan_csv(const std::vector<PlanPoint>& points, const std::string& path) {
  const Best by_rmax = best_point(points, Objective::RmaxInWindow);
  const Best by_time = best_point(points, Objective::TimeToResult);
  write_file_atomically(path, [&](std::ostream& out) {
    out << "nodes,active_nodes,idle_ranks,ranks,p,q,n,n_memory_capped,nb,simulated,fault_free_time_s,fault_"
           "free_rmax_flops_per_s,"
           "rmax_sampling_error_fraction,trials,completed,p_complete,p_complete_low,p_complete_high,"
           "time_mean_s,rmax_mean_flops_per_s,restart_setup_s,expected_time_to_result_s,"
           "expected_time_to_result_low_s,expected_time_to_result_high_s,p_result_in_window,"
           "p_result_in_window_low,p_result_in_window_high,rmax_in_window_flops_per_s,rmax_in_window_low,"
           "rmax_in_window_high,best_rmax_in_window,best_time_to_result,failure\n";
    for (std::size_t i = 0; i < points.size(); ++i) {
      const PlanPoint& p = points[i];
      out << p.nodes << ',' << p.active_nodes << ',' << p.idle_ranks << ',' << p.ranks << ',' << p.p << ','
          << p.q << ',' << p.n << ',' << (p.memory_capped ? "true" : "false") << ',' << p.nb << ','
          << (p.simulated ? "true" : "false") << ',' << number(p.fault_free_time_s) << ','
          << number(p.fault_free_rmax_flops_per_s) << ','
          << (p.sampling_error_fraction >= 0 ? number(p.sampling_error_fraction) : "") << ',' << p.trials
          << ',' << p.completed << ',' << number(p.p_complete) << ',' << number(p.p_complete_low) << ','
          << number(p.p_complete_high) << ',' << number(p.time_mean_s) << ','
          << number(p.rmax_mean_flops_per_s) << ',' << number(p.restart_setup_s) << ','
          << number(p.time_to_result_s) << ',' << number(p.time_to_result_low_s) << ','
          << number(p.time_to_result_high_s) << ',' << number(p.p_in_window) << ','
          << number(p.p_in_window_low) << ',' << number(p.p_in_window_high) << ','
          << number(p.rmax_in_window_flops_per_s) << ',' << number(p.rmax_in_window_low) << ','
          << number(p.rmax_in_window_high) << ',' << (by_rmax.index == i ? "true" : "false") << ','
          << (by_time.index == i ? "true" : "false") << ",\"" << p.failure << "\"\n";
    }
  });
}

void write_plan_svg(const std::vector<PlanPoint>& points, const std::vector<Objective>& objectives,
                    double window_h, const std::string& path) {
  std::vector<IntervalPanel> panels;
  for (const Objective o : objectives) {
    IntervalPanel panel;
    const Best best = best_point(points, o);
    panel.best = best.index;
    // The units the table uses: the largest fault-free rate and run time read with a few digits.
    double top_rate = 0.0, top_time = 0.0;
    for (const PlanPoint& p : points) {
      top_rate = std::max(top_rate, p.fault_free_rmax_flops_per_s);
      top_time = std::max(top_time, p.fault_free_time_s);
    }
    const Unit unit = o == Objective::RmaxInWindow ? rate_unit(top_rate) : time_unit(top_time);
    for (const PlanPoint& p : points) {
      panel.x.push_back(p.nodes);
      const Value v = value_of(p, o);
      const bool ok = p.simulated && p.completed > 0;
      const double scale = 1.0 / unit.scale;
      panel.y.push_back(ok ? v.value * scale : std::nan(""));
      panel.low.push_back(ok ? v.low * scale : std::nan(""));
      panel.high.push_back(ok ? v.high * scale : std::nan(""));
    }
    if (o == Objective::RmaxInWindow) {
      std::ostringstream window;
      window << std::setprecision(3) << window_h; // 24, 8, 0.08
      panel.title = "Expected Rmax of a completed run within " + window.str() + " h (higher is better)";
    } else {
      panel.title = "Expected wall time to one completed run (lower is better)";
    }
    panel.y_label = unit.name;
    panels.push_back(std::move(panel));
  }
  write_interval_plot_svg("nodes", panels, path);
}

void print_plan(const std::vector<PlanPoint>& points, const std::vector<Objective>& objectives,
                double window_h, std::ostream& out) {
  double top_rate = 0.0, top_time = 0.0;
  for (const PlanPoint& p : points) {
    top_rate = std::max(top_rate, p.fault_free_rmax_flops_per_s);
    top_time = std::max(top_time, p.fault_free_time_s);
  }
  // Every row in the units of the largest figures; intervals as [lo, hi].
  const Unit r = rate_unit(top_rate), t = time_unit(top_time);
  const auto rate = [&](double v, int digits) { return format_sig(v / r.scale, digits); };
  const auto rate_interval = [&](double lo, double hi) {
    return format_interval(lo / r.scale, hi / r.scale);
  };
  const auto time = [&](double v) { return format_sig(v / t.scale); };
  const auto time_interval = [&](double lo, double hi) {
    return format_interval(lo / t.scale, hi / t.scale);
  };
  out << std::left << std::setw(7) << "nodes" << std::setw(11) << "P x Q" << std::setw(11) << "N"
      << std::right << std::setw(10) << (std::string("time ") + t.name) << std::setw(9) << r.name
      << std::setw(9) << "err %" << std::setw(24) << "P(complete) [95%]" << std::setw(28)
      << (std::string("E[to result] ") + t.name) << std::setw(30)
      << ("E[Rmax in " + format_short(window_h) + " h] " + r.name) << "\n";
  for (const PlanPoint& p : points) {
    out << std::left << std::setw(7) << p.nodes << std::setw(11)
        << (std::to_string(p.p) + " x " + std::to_string(p.q)) << std::setw(11) << p.n << std::right;
    if (!p.simulated) {
      out << "  not simulated: " << p.failure << "\n";
      continue;
    }
    out << std::setw(10) << time(p.fault_free_time_s) << std::setw(9)
        << rate(p.fault_free_rmax_flops_per_s, 4) << std::setw(9)
        << (p.sampling_error_fraction >= 0 ? format_sig(100 * p.sampling_error_fraction, 3) : "-")
        << std::setw(24)
        << (format_fraction(p.p_complete) + " " + format_interval(p.p_complete_low, p.p_complete_high))
        << std::setw(28)
        << (time(p.time_to_result_s) + " " + time_interval(p.time_to_result_low_s, p.time_to_result_high_s))
        << std::setw(30)
        << (rate(p.rmax_in_window_flops_per_s, 4) + " " +
            rate_interval(p.rmax_in_window_low, p.rmax_in_window_high))
        << "\n";
  }
  for (const Objective o : objectives) {
    const Best b = best_point(points, o);
    out << "Best under " << kObjectiveNames[static_cast<int>(o)] << ": ";
    if (!b.index) {
      out << "none (no node count completed a trial)\n";
      continue;
    }
    out << points[*b.index].nodes << " nodes"
        << (b.separated
                ? " (its 95% interval is clear of every other node count's)"
                : " (its 95% interval overlaps another node count's: not a clear winner at this many trials)")
        << "\n";
  }
}

} // namespace hplsim::sim
