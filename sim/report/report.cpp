// Summary JSON, per-step CSV, simulator statistics and the human summary.
// Everything but stats.json and the "Simulator:" line is a pure function of the
// RunResult, so same scenario + same seed => byte-identical files.
#include "sim/report/report.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "sim/report/faults_report.hpp"
#include "sim/report/format.hpp"
#include "sim/report/reference_report.hpp"
#include "sim/support/output_files.hpp"

namespace hplsim::sim {
namespace {

constexpr double kTera = 1e12; // flop/s per TF/s
constexpr double kGiga = 1e9;  // flop/s per GF/s

/// Shortest text that reads back as the same double (std::to_chars); locale-free.
std::string csv_number(double value) {
  if (!std::isfinite(value)) return std::isnan(value) ? "nan" : (value > 0 ? "inf" : "-inf");
  std::array<char, 64> buf{};
  const auto result = std::to_chars(buf.data(), buf.data() + buf.size(), value);
  return std::string(buf.data(), result.ptr);
}

/// RFC 4180 quoting when the field holds a comma, quote or line break.
std::string csv_text(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text)
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

bool is_panel_step(const StepRecord& r) {
  return !r.final_solve;
}

} // namespace

double step_rate_tflops(const StepRecord& record) {
  const double step_s = record.end_s - record.start_s;
  return step_s > 0.0 ? record.flops / step_s / kTera : 0.0;
}

namespace {
// Sum over the step records of one of their per-phase arrays.
std::array<double, kPhaseCount> sum_over_steps(const RunResult& result,
                                               std::array<double, kPhaseCount> StepRecord::*phases) {
  std::array<double, kPhaseCount> totals{};
  for (const StepRecord& r : result.step_records)
    for (int p = 0; p < kPhaseCount; ++p)
      totals[p] += (r.*phases)[p];
  return totals;
}
} // namespace

std::array<double, kPhaseCount> phase_totals_s(const RunResult& result) {
  return sum_over_steps(result, &StepRecord::phase_s);
}

std::array<double, kPhaseCount> mean_phase_totals_s(const RunResult& result) {
  return sum_over_steps(result, &StepRecord::mean_phase_s);
}

std::vector<DominantRun> dominant_phases(const RunResult& result) {
  std::vector<const StepRecord*> steps;
  for (const StepRecord& r : result.step_records)
    if (is_panel_step(r)) steps.push_back(&r);
  // Per bin of 1% of the panel steps (a step each in runs under 100 steps),
  // so that two phases trading places step by step near a crossing give one
  // answer per bin instead of a run per step.
  const std::size_t bins = std::min<std::size_t>(kDominanceBins, steps.size());
  std::vector<DominantRun> runs;
  for (std::size_t b = 0; b < bins; ++b) {
    const std::size_t first = b * steps.size() / bins, last = (b + 1) * steps.size() / bins;
    std::array<double, kPhaseCount> sum{};
    for (std::size_t i = first; i < last; ++i)
      for (int p = 0; p < kPhaseCount; ++p)
        sum[p] += steps[i]->mean_phase_s[p];
    // The step phases (the final solve's SOLVE is not one); ties go to the earlier phase.
    int best = -1;
    for (int p = 0; p < static_cast<int>(PhaseId::Solve); ++p)
      if (sum[p] > 0.0 && (best < 0 || sum[p] > sum[best])) best = p;
    if (best < 0) continue;
    const auto phase = static_cast<PhaseId>(best);
    if (!runs.empty() && runs.back().phase == phase)
      runs.back().last_step = steps[last - 1]->step;
    else
      runs.push_back({phase, steps[first]->step, steps[last - 1]->step});
  }
  return runs;
}

std::string summary_json_text(const RunResult& result) {
  nlohmann::ordered_json j;
  j["benchmark"] = result.benchmark;
  j["mode"] = result.mode;
  j["seed"] = result.seed;
  j["n"] = result.n;
  j["nb"] = result.nb;
  j["p"] = result.p;
  j["q"] = result.q;
  j["nodes"] = result.nodes;
  j["ranks"] = result.ranks;
  j["depth"] = result.depth;
  j["steps"] = result.steps;
  j["time_s"] = result.time_s;
  j["rmax_tflops"] = result.rmax_flops_per_s / kTera;
  j["rmax_flops_per_s"] = result.rmax_flops_per_s;
  j["rmax_sampling_error_fraction"] = result.rmax_sampling_error_fraction >= 0.0
                                          ? nlohmann::ordered_json(result.rmax_sampling_error_fraction)
                                          : nlohmann::ordered_json(nullptr);
  nlohmann::ordered_json totals = nlohmann::ordered_json::object();
  const auto sums = phase_totals_s(result);
  for (int p = 0; p < kPhaseCount; ++p)
    totals[kPhaseNames[p]] = sums[p];
  j["phase_totals_s"] = totals;
  nlohmann::ordered_json mean_totals = nlohmann::ordered_json::object();
  const auto mean_sums = mean_phase_totals_s(result);
  for (int p = 0; p < kPhaseCount; ++p)
    mean_totals[kPhaseNames[p]] = mean_sums[p];
  j["phase_mean_totals_s"] = mean_totals;
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  for (const DominantRun& d : dominant_phases(result))
    runs.push_back({{"phase", kPhaseNames[static_cast<std::size_t>(d.phase)]},
                    {"first_step", d.first_step},
                    {"last_step", d.last_step}});
  j["dominant_phases"] = runs;
  const auto put_step = [&](const std::string& name, std::optional<std::int64_t> k) {
    const auto fraction = step_fraction(result, k);
    j[name + "_step"] = k ? nlohmann::ordered_json(*k) : nlohmann::ordered_json(nullptr);
    j[name + "_fraction"] = fraction ? nlohmann::ordered_json(*fraction) : nlohmann::ordered_json(nullptr);
  };
  put_step("crossover", crossover_step(result));
  put_step("rate_drop", rate_drop_step(result));
  put_step("gemm_below_comm", gemm_below_comm_step(result));
  const auto below = gemm_below_phase(result);
  put_step("gemm_below_phase", below ? std::optional<std::int64_t>(below->step) : std::nullopt);
  j["gemm_below_phase"] = below ? nlohmann::ordered_json(kPhaseNames[static_cast<std::size_t>(below->phase)])
                                : nlohmann::ordered_json(nullptr);
  if (!result.timer_rule.empty()) j["timer_rule"] = result.timer_rule;
  j["completed"] = result.completed;
  j["failure"] =
      result.failure.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(result.failure);
  j["fits_in_memory"] = result.fits_in_memory ? nlohmann::ordered_json(*result.fits_in_memory)
                                              : nlohmann::ordered_json(nullptr);
  if (result.has_faults) j["faults"] = faults_summary_json(result);
  if (!result.prescreen.empty()) j["prescreen"] = result.prescreen;
  if (!result.rederived.empty()) j["rederived"] = result.rederived;
  add_reference_json(result, j);
  if (result.benchmark == "hpl-mxp") {
    j["refinement_s"] = result.refinement_s;
    j["refinement_iterations"] = result.refinement_iterations;
    j["refinement_iterations_simulated"] = result.refinement_iterations_simulated > 0
                                               ? result.refinement_iterations_simulated
                                               : result.refinement_iterations;
  }
  // The HPL code (docs/codes/), last: tables built from these keys keep their columns.
  if (!result.code.empty()) {
    j["code"] = result.code;
    j["code_ignores"] = result.code_ignores;
  }
  return j.dump(2) + '\n';
}

void write_summary_json(const RunResult& result, const std::string& path) {
  const std::string text = summary_json_text(result);
  write_file_atomically(path, [&text](std::ostream& out) { out << text; });
}

void write_steps_csv(const RunResult& result, const std::string& path) {
  write_file_atomically(path, [&result](std::ostream& out) {
    out << "step,matrix_fraction,start_s,end_s,step_s";
    for (const char* name : kPhaseNames)
      out << ',' << name << "_s";
    for (const char* name : kPhaseNames)
      out << ',' << name << "_mean_s";
    out << ",flops,rate_tflops,how\n";
    for (const StepRecord& r : result.step_records) {
      const double step_s = r.end_s - r.start_s;
      out << r.step << ',' << csv_number(r.matrix_fraction) << ',' << csv_number(r.start_s) << ','
          << csv_number(r.end_s) << ',' << csv_number(step_s);
      for (double s : r.phase_s)
        out << ',' << csv_number(s);
      for (double s : r.mean_phase_s)
        out << ',' << csv_number(s);
      out << ',' << csv_number(r.flops) << ',' << csv_number(step_rate_tflops(r)) << ',' << csv_text(r.how)
          << '\n';
    }
  });
}

double peak_rss_bound_bytes(const RunResult& result) {
  // At any moment the run holds (docs/fast-mode.md, "What a run costs"): the
  // pages the main process held since it forked its first window, at most its
  // peak plus the pages it faulted in since (fresh ones, and the copies it made
  // of pages a window kept), and, of each window running then, what no other
  // process holds, at most its private peak. At most window_processes windows
  // run at once: the largest that many private peaks. When the windows were
  // not recorded, the largest window's whole peak times the count.
  std::vector<double> peaks;
  for (const WindowStat& w : result.windows)
    peaks.push_back(w.private_peak_bytes());
  const auto n = static_cast<std::size_t>(std::max(result.window_processes, 0));
  if (peaks.empty()) return result.peak_rss_bytes + static_cast<double>(n) * result.window_peak_rss_bytes;
  std::sort(peaks.begin(), peaks.end(), std::greater<>());
  double bound = result.peak_rss_bytes + result.main_fault_bytes_while_windows_ran;
  for (std::size_t i = 0; i < std::min(n, peaks.size()); ++i)
    bound += peaks[i];
  return bound;
}

namespace {

// The largest private peak of the windows (0 when none was recorded).
double window_private_peak_bytes(const RunResult& result) {
  double peak = 0.0;
  for (const WindowStat& w : result.windows)
    peak = std::max(peak, w.private_peak_bytes());
  return peak;
}

// Whether every window measured its shared pages (none unmeasured).
bool window_shared_measured(const RunResult& result) {
  return std::all_of(result.windows.begin(), result.windows.end(),
                     [](const WindowStat& w) { return w.shared_measured; });
}

} // namespace

void write_stats_json(const RunResult& result, const std::string& path) {
  nlohmann::ordered_json j;
  j["wall_s"] = result.wall_s;
  j["activities"] = result.activities;
  j["activities_per_s"] = result.wall_s > 0.0
                              ? nlohmann::ordered_json(static_cast<double>(result.activities) / result.wall_s)
                              : nlohmann::ordered_json(nullptr);
  j["peak_rss_bytes"] = result.peak_rss_bytes;
  if (result.window_processes > 0) {
    j["window_processes"] = result.window_processes;
    j["window_peak_rss_bytes"] = result.window_peak_rss_bytes;
    if (!result.windows.empty()) {
      j["window_private_peak_bytes"] = window_private_peak_bytes(result);
      // false: some window could not read /proc/self/smaps_rollup, its private
      // peak is its whole RSS peak (the bound is looser, still a bound).
      j["window_shared_measured"] = window_shared_measured(result);
      j["main_fault_bytes_while_windows_ran"] = result.main_fault_bytes_while_windows_ran;
    }
    j["peak_rss_bound_bytes"] = peak_rss_bound_bytes(result);
  }
  if (!result.windows.empty()) {
    nlohmann::ordered_json windows = nlohmann::ordered_json::array();
    for (const WindowStat& w : result.windows)
      windows.push_back({{"first_step", w.first},
                         {"last_step", w.last},
                         {"activities", w.activities},
                         {"wall_s", w.wall_s},
                         {"peak_rss_bytes", w.peak_rss_bytes},
                         {"shared_end_bytes", w.shared_end_bytes},
                         {"shared_anonymous_end_bytes", w.shared_anonymous_end_bytes},
                         {"private_peak_bytes", w.private_peak_bytes()}});
    j["windows"] = windows;
  }
  write_file_atomically(path, [&j](std::ostream& out) { out << j.dump(2) << '\n'; });
}

namespace {

std::string printf_string(const char* format, double value) {
  std::array<char, 128> buf{};
  std::snprintf(buf.data(), buf.size(), format, value);
  return buf.data();
}

/// "1.012 EF/s": the largest of TF/s, PF/s, EF/s that keeps the value >= 1.
std::string mode_label(const std::string& mode) {
  if (mode == "reference") return "hplsim-ref";
  if (mode == "analytic") return "hplsim-ana";
  return "hplsim-" + mode;
}

/// What the timer rule of a run's phase columns is (docs/replay.md, "The timer rule").
std::string timer_rule_words(const std::string& rule) {
  if (rule == "async_bcast")
    return "timer rule async_bcast, a HYPOTHESIS [I] about Intel's HPL: a wait for a panel is charged to "
           "SWAP, the first call that blocks on it";
  const char* code = rule == "rochpl"    ? "rocHPL's LBCAST"
                     : rule == "hpl_gpu" ? "HPL-GPU's BCAST"
                                         : "netlib's HPL_bcast";
  return "timer rule " + rule +
         ": a wait for a panel is charged to BCAST, the broadcast call that blocks on it (" + code + ")";
}

} // namespace

void print_summary(const RunResult& result, std::ostream& out) {
  const std::string rule(80, '=');
  const std::string thin(80, '-');
  std::array<char, 256> line{};
  out << rule << '\n'
      << "T/V                N    NB     P     Q               Time                 Gflops\n"
      << thin << '\n';
  // Column widths of HPL 2.3's result line (HPL_pdtest.c), so tools that read
  // HPL output can read this one.
  std::snprintf(line.data(), line.size(), "%-10s%10lld %5lld %5d %5d %18.2f %22.4e",
                mode_label(result.mode).c_str(), static_cast<long long>(result.n),
                static_cast<long long>(result.nb), result.p, result.q, result.time_s,
                result.rmax_flops_per_s / kGiga);
  out << line.data() << '\n' << thin << '\n';

  out << "Benchmark " << result.benchmark << ", mode " << result.mode << ", seed " << result.seed << ", "
      << result.nodes << " nodes, " << result.ranks << " ranks, depth " << result.depth << ", "
      << result.steps << " panel steps\n";
  out << "Rmax " << format_rate(result.rmax_flops_per_s) << ", simulated time "
      << format_duration(result.time_s, 4) << "\n";
  if (!result.code.empty()) {
    out << "Code " << result.code_title << " (" << result.code << ", docs/codes/" << result.code << ".md)";
    if (!result.code_ignores.empty()) {
      out << "; it does not read HPL.dat's";
      for (const std::string& line : result.code_ignores)
        out << ' ' << line;
      out << " (set in the scenario, not applied)";
    }
    out << '\n';
  }
  print_reference(result, out);
  if (result.rmax_sampling_error_fraction >= 0.0)
    out << "Sampling error of Rmax: " << printf_string("%.1f", 100.0 * result.rmax_sampling_error_fraction)
        << " % (jackknife over the " << result.sampling_windows
        << " interior windows; the fold and the models are not in it)\n";

  const auto totals = phase_totals_s(result);
  const auto means = mean_phase_totals_s(result);
  double sum = 0.0, mean_sum = 0.0;
  for (int p = 0; p < kPhaseCount; ++p) {
    sum += totals[p];
    mean_sum += means[p];
  }
  out << "Phase totals (sum over steps; phases overlap):  slowest rank          rank mean\n";
  for (int p = 0; p < kPhaseCount; ++p) {
    std::snprintf(line.data(), line.size(), "  %-6s %36s s %5.1f %% %12s s %5.1f %%", kPhaseNames[p],
                  format_sig(totals[p]).c_str(), sum > 0.0 ? 100.0 * totals[p] / sum : 0.0,
                  format_sig(means[p]).c_str(), mean_sum > 0.0 ? 100.0 * means[p] / mean_sum : 0.0);
    out << line.data() << '\n';
  }
  const auto runs = dominant_phases(result);
  if (!runs.empty()) {
    out << "Largest phase per step (rank mean):";
    const std::size_t shown = std::min<std::size_t>(runs.size(), 8);
    for (std::size_t i = 0; i < shown; ++i)
      out << (i ? ", " : " ") << kPhaseNames[static_cast<std::size_t>(runs[i].phase)] << " "
          << runs[i].first_step << "-" << runs[i].last_step;
    if (runs.size() > shown) out << ", ... (" << runs.size() << " runs, summary.json)";
    out << '\n';
  }
  const auto at = [&](std::optional<std::int64_t> k) {
    if (!k) return std::string("none");
    std::string where = "step " + std::to_string(*k) + " of " + std::to_string(result.steps);
    if (const auto f = step_fraction(result, k)) where += printf_string(", %.3f of N", *f);
    return where;
  };
  out << "Crossover (the update's share of the step time 2% below its early level to the end): "
      << at(crossover_step(result)) << "; sustained rate 2% below its plateau: " << at(rate_drop_step(result))
      << "; GEMM < max(SWAP, PFACT+BCAST): " << at(gemm_below_comm_step(result)) << "\n";
  if (const auto below = gemm_below_phase(result)) {
    std::string name = kPhaseNames[static_cast<std::size_t>(below->phase)];
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::toupper(c); });
    out << "Phase crossover: GEMM below " << name << " (the largest other phase) from " << at(below->step);
  } else {
    out << "Phase crossover: GEMM stays the largest phase to the end";
  }
  if (!result.timer_rule.empty()) out << "; " << timer_rule_words(result.timer_rule);
  out << "\n";
  if (result.benchmark == "hpl-mxp") {
    out << "Refinement " << format_duration(result.refinement_s, 4) << ", " << result.refinement_iterations
        << " iterations";
    if (result.refinement_iterations_simulated > 0)
      out << " (" << result.refinement_iterations_simulated
          << " simulated, the others extrapolated from the last)";
    out << "\n";
  }
  if (result.completed)
    out << "Outcome: completed\n";
  else
    out << "Outcome: FAILED: "
        << (result.failure.empty() ? std::string("(no reason recorded)") : result.failure) << '\n';
  if (!result.prescreen.empty()) out << result.prescreen << "\n";
  if (!result.rederived.empty()) out << result.rederived << "\n";
  if (result.has_faults) print_faults(result, out);
  if (result.fits_in_memory == false)
    out << "Memory: the matrix does NOT fit in the declared memory (simulated anyway, as asked)\n";
  out << "Simulator: wall " << printf_string("%.3f", result.wall_s) << " s, " << result.activities
      << " activities";
  if (result.wall_s > 0.0)
    out << " (" << printf_string("%.3g", static_cast<double>(result.activities) / result.wall_s)
        << " activities/s)";
  if (result.peak_rss_bytes > 0.0)
    out << ", peak RSS " << printf_string("%.1f", result.peak_rss_bytes / 1048576.0) << " MiB";
  if (result.window_processes > 0 && result.window_peak_rss_bytes > 0.0) {
    out << " + " << result.window_processes << " window process" << (result.window_processes > 1 ? "es" : "")
        << " at once, " << printf_string("%.1f", result.window_peak_rss_bytes / 1048576.0)
        << " MiB at most each";
    if (!result.windows.empty())
      out << ", " << printf_string("%.1f", window_private_peak_bytes(result) / 1048576.0) << " MiB of it "
          << (window_shared_measured(result) ? "their own"
                                             : "their own (shared pages not measured: no /proc)");
    out << " (" << printf_string("%.1f", peak_rss_bound_bytes(result) / 1048576.0)
        << " MiB at most together)";
  }
  out << '\n' << rule << '\n';
}

} // namespace hplsim::sim
