#include "sim/fast/fast_cost.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <memory>
#include <sstream>

#include "sim/fast/fold.hpp"
#include "sim/support/child_process.hpp"

namespace hplsim::sim {

namespace {

// What each kind of op costs, fitted (least squares on the log of the
// ratio) to the wall times of the runs in docs/bench/fast-cost.csv, measured
// on a quiet 2-core machine with two window processes: seconds of one CPU per
// op. Kernels and copies (priced on the ranks' own resources), a collective
// roll's ring steps and forking a window came out at no measurable cost of
// their own beside these; the main process (building the machine,
// integrating, writing) as a fixed time.
constexpr double kMessageS = 6.5e-6; // one end of a SimGrid message (Send or Recv)
constexpr double kExchangeS = 29e-6; // a member of a collective (pivot exchange, panel, swap roll)
constexpr double kPanelS = 0.29e-6;  // a member's panel column in a collective panel factorization
constexpr double kMainS = 4.0;       // the main process
// Memory (stats.json's peak_rss_bound_bytes, docs/fast-mode.md "What a run
// costs"): the main process holds the platform of the run's nodes; a window
// process shares the main process's pages, its own being the pages of them it
// writes (SimGrid's state of the platform it runs on) and the schedules and
// activities of the steps it holds. Fitted to the runs of
// docs/bench/fast-cost.csv with a bound: their stats.json's main process peak
// (peak_rss_bytes) and largest window private peak (window_private_peak_bytes),
// least squares on each (the main process's with its faults while windows
// ran, main_fault_bytes_while_windows_ran, a few MiB). The rows: flagship,
// mxp, one-node, el-capitan, el-capitan-1000-folded-rolls, aurora-1k-every-rank,
// aurora-4k-folded, aurora-16k-folded-rolls, each `hplsim run <scenario>
// <args>` as the file gives it.
constexpr double kMainFixedBytes = 278.0 * 1024 * 1024;
constexpr double kMainPerNodeBytes = 17.8e3;
constexpr double kWindowFixedBytes = 50.0 * 1024 * 1024;
constexpr double kWindowPerNodeBytes = 10.3e3;
constexpr double kWindowPerOpBytes = 120.0; // per op of the window's largest step, its steps held at once
// Steps of a window whose schedules the replay holds at once (look-ahead depth <= 1, a step being built).
constexpr double kStepsHeld = 3.0;

// The window the run simulates after its measured steps (sim/fast/fast_run.cpp).
constexpr std::int64_t kCooldownSteps = 1;

// Each rank's ops of one step, or (sampling) a subset scaled up.
StepOps count(const traces::RankProgram& program) {
  StepOps o;
  for (const traces::Op& op : program.ops()) {
    switch (op.kind_case()) {
    case traces::Op::kSend:
    case traces::Op::kRecv:
      o.messages += 1.0;
      break;
    case traces::Op::kCompute:
    case traces::Op::kCopy:
      o.kernels += 1.0;
      break;
    case traces::Op::kExchange: {
      const traces::Exchange& e = op.exchange();
      o.exchanges += 1.0;
      if (e.has_roll())
        o.roll_work += std::max(1, e.size() - 1);
      else if (e.has_panel())
        o.panel_work += static_cast<double>(std::max<std::int64_t>(1, e.jb()));
      break;
    }
    case traces::Op::kPolledUpdate: {
      const traces::PolledUpdate& p = op.polled_update();
      o += count(p.arrival());
      o += count(p.swap());
      o.kernels += 2.0;
      break;
    }
    default:
      break;
    }
  }
  return o;
}

double seconds(const StepOps& o) {
  return o.messages * kMessageS + o.exchanges * kExchangeS + o.panel_work * kPanelS;
}

// Activities as stats.json counts them: a message once, a kernel or copy,
// a member of a collective.
double ops(const StepOps& o) {
  return o.messages / 2.0 + o.kernels + o.exchanges;
}

// Step k's ops over `active` (all ranks when null), from a sample: up to
// kSampleRanks ranks of each class `near` tells apart (the owner columns, the
// others), each class's ops scaled to all its ranks. A rank's program depends
// on its column's place relative to the panel's owner, and on its row only
// through the owner row's few extra ops.
template <class Near>
StepOps sampled_step_ops(const ScheduleSource& source, int ranks, std::int64_t k,
                         const std::vector<bool>* active, const Near& near) {
  constexpr std::array<int, 2> kSampleRanks{48, 24}; // others, owner columns (alike but for one row)
  std::array<int, 2> members{0, 0}, sampled{0, 0}, seen{0, 0};
  for (int r = 0; r < ranks; ++r)
    if (!active || (*active)[static_cast<std::size_t>(r)]) ++members[near(r) ? 1 : 0];
  const std::array<int, 2> stride{std::max(1, members[0] / kSampleRanks[0]),
                                  std::max(1, members[1] / kSampleRanks[1])};
  std::vector<bool> only(static_cast<std::size_t>(ranks), false);
  for (int r = 0; r < ranks; ++r) {
    if (active && !(*active)[static_cast<std::size_t>(r)]) continue;
    const int c = near(r) ? 1 : 0;
    if (seen[c]++ % stride[c] == 0) {
      only[static_cast<std::size_t>(r)] = true;
      ++sampled[c];
    }
  }
  traces::StepSchedule s;
  source.step(k, s, &only);
  std::array<StepOps, 2> by_class;
  for (const traces::RankProgram& p : s.ranks())
    by_class[near(p.rank()) ? 1 : 0] += count(p);
  StepOps o;
  for (int c = 0; c < 2; ++c)
    if (sampled[c] > 0) o += by_class[c].scaled(double(members[c]) / sampled[c]);
  return o;
}

// A panel step: the owner columns of steps k-1..k+1 exactly.
StepOps panel_step_ops(const ScheduleSource& source, const WorkloadConfig& w, std::int64_t k,
                       const std::vector<bool>* active) {
  return sampled_step_ops(source, w.ranks(), k, active, [&w, k](int r) {
    const int col = w.column_major ? r / w.p : r % w.q;
    const int d = static_cast<int>(((col - k) % w.q + w.q) % w.q);
    return d <= 1 || d == w.q - 1;
  });
}

} // namespace

StepOps& StepOps::operator+=(const StepOps& o) {
  messages += o.messages;
  kernels += o.kernels;
  exchanges += o.exchanges;
  panel_work += o.panel_work;
  roll_work += o.roll_work;
  return *this;
}

StepOps StepOps::scaled(double f) const {
  StepOps o = *this;
  o.messages *= f;
  o.kernels *= f;
  o.exchanges *= f;
  o.panel_work *= f;
  o.roll_work *= f;
  return o;
}

StepOps step_ops(const ScheduleSource& source, std::int64_t k, const std::vector<bool>* only) {
  traces::StepSchedule s;
  source.step(k, s, only);
  StepOps o;
  for (const traces::RankProgram& p : s.ranks())
    o += count(p);
  return o;
}

FastCost estimate_fast_cost(const ResolvedScenario& sc, bool fold, bool roll_collective, int workers) {
  const FastPlan plan = fast_plan_with(sc, fold, roll_collective);
  const FastConfig& c = plan.config;
  const WorkloadConfig& w = sc.workload;
  const std::unique_ptr<ScheduleSource> source = make_schedule_source(sc, plan.shortcuts);
  const std::int64_t steps = source->steps();
  const FoldSet folds(w, c, steps, -1);
  FastCost cost;
  double largest_step_ops = 0.0;
  // One window of steps [first, last]: its ops read off its middle step.
  auto window = [&](std::int64_t first, std::int64_t last, bool folded) {
    const std::vector<bool> active = folds.active(first, last, folded);
    const std::int64_t mid = std::min(steps - 1, (first + last) / 2);
    const StepOps o = panel_step_ops(*source, w, mid, folded ? &active : nullptr);
    const double n = double(std::min(last, steps - 1) - first + 1);
    cost.windows += 1.0;
    cost.window_steps += n;
    cost.activities += n * ops(o);
    cost.ops += o.scaled(n);
    cost.window_s += n * seconds(o);
    largest_step_ops = std::max(largest_step_ops, ops(o));
  };
  // The final solve's step, in the tail window or its own (folded) window.
  auto final_solve = [&](bool own_window) {
    ScheduleShortcuts shortcuts = plan.shortcuts;
    const bool mxp = w.benchmark == Benchmark::HplMxp;
    if (mxp && plan.final_window) {
      const int total = source->refinement_iterations();
      const int k = c.refinement_iterations.value_or(w.mxp.refinement == Refinement::Gmres ? 1 : 2);
      if (k > 0 && k < total) {
        shortcuts.refinement_iterations = k;
        shortcuts.refinement_first_pass_left_out = w.mxp.refinement == Refinement::Gmres;
      }
    }
    const std::unique_ptr<ScheduleSource> own = make_schedule_source(sc, shortcuts);
    const bool folded = plan.fold || own_window;
    const std::vector<bool> active = folds.active(steps, steps, folded);
    const StepOps o =
        sampled_step_ops(*own, w.ranks(), steps, folded ? &active : nullptr, [](int) { return false; });
    cost.activities += ops(o);
    cost.ops += o;
    cost.window_s += seconds(o);
    if (own_window) cost.windows += 1.0;
    largest_step_ops = std::max(largest_step_ops, ops(o) / kStepsHeld);
  };
  const std::int64_t window_len = c.warmup_steps + c.measured_steps + kCooldownSteps;
  const std::int64_t min_plan =
      window_len + (c.warmup_steps + c.measured_steps + 1) + c.initial_windows * window_len;
  if (!plan.fold && min_plan >= steps + 1) {
    // The run whole, in one window.
    const std::int64_t stride = std::max<std::int64_t>(1, steps / 8);
    StepOps sum;
    double n = 0.0;
    for (std::int64_t k = 0; k < steps; k += stride, n += 1.0)
      sum += panel_step_ops(*source, w, k, nullptr);
    const StepOps mean = sum.scaled(1.0 / n);
    cost.windows = 1.0;
    cost.window_steps = double(steps);
    cost.activities = double(steps) * ops(mean);
    cost.ops = mean.scaled(double(steps));
    cost.window_s = double(steps) * seconds(mean);
    largest_step_ops = ops(mean);
    final_solve(plan.final_window);
  } else {
    const std::int64_t head = std::min<std::int64_t>(steps, c.warmup_steps + c.measured_steps);
    window(0, std::min(steps - 1, head - 1 + kCooldownSteps), plan.fold);
    const std::int64_t tail_first = std::max(head, steps - c.measured_steps);
    window(std::max<std::int64_t>(0, tail_first - c.warmup_steps), steps - 1, plan.fold);
    final_solve(plan.final_window);
    // The uniform windows, then the bisection's up to max_windows (an upper
    // bound: the bisection stops earlier where the curve is smooth).
    const std::int64_t span_first = head, span_last = steps - c.measured_steps - 1;
    if (span_last > span_first) {
      const int interior = std::max(c.initial_windows, c.max_windows - static_cast<int>(cost.windows));
      // Priced at up to 3 of the uniform windows' places, the others alike.
      const int priced = std::min(c.initial_windows, 3);
      const double before = cost.windows, steps_before = cost.window_steps, ops_before = cost.activities,
                   s_before = cost.window_s;
      const StepOps kinds_before = cost.ops;
      for (int i = 1; i <= priced; ++i) {
        const double at = double(span_last - span_first) * i / (priced + 1);
        const std::int64_t k = span_first + static_cast<std::int64_t>(std::llround(at));
        window(std::max<std::int64_t>(0, k - c.warmup_steps),
               std::min(steps - 1, k + c.measured_steps - 1 + kCooldownSteps), plan.fold);
      }
      StepOps interior_ops = cost.ops;
      interior_ops += kinds_before.scaled(-1.0);
      const double scale = double(interior) / priced;
      cost.windows = before + (cost.windows - before) * scale;
      cost.window_steps = steps_before + (cost.window_steps - steps_before) * scale;
      cost.activities = ops_before + (cost.activities - ops_before) * scale;
      cost.window_s = s_before + (cost.window_s - s_before) * scale;
      cost.ops = kinds_before;
      cost.ops += interior_ops.scaled(scale);
    }
  }
  cost.build_s = kMainS;
  cost.wall_s = cost.build_s + cost.window_s / std::clamp(cost.windows, 1.0, double(std::max(1, workers)));
  cost.main_bytes = kMainFixedBytes + kMainPerNodeBytes * sc.workload.nodes;
  cost.window_private_bytes = kWindowFixedBytes + kWindowPerNodeBytes * sc.workload.nodes +
                              kWindowPerOpBytes * kStepsHeld * largest_step_ops;
  cost.memory_bound_bytes = cost.main_bytes + std::max(1, workers) * cost.window_private_bytes;
  return cost;
}

} // namespace hplsim::sim

namespace hplsim::sim {

FastPlan settle_fast_plan(const ResolvedScenario& sc, std::array<double, 3>* estimates) {
  const FastConfig& c = sc.options.fast;
  const int workers = window_workers(c.workers);
  std::array<double, 3> wall_s{-1.0, -1.0, -1.0};
  auto estimate = [&](int which) {
    if (wall_s[which] < 0.0) wall_s[which] = estimate_fast_cost(sc, which > 0, which == 2, workers).wall_s;
    return wall_s[which];
  };
  // Auto folding and the Auto collective roll (folded runs only) are each
  // taken where the estimate says they save at least min_saving_s of wall
  // time: a run that is cheap as it is keeps every rank and every roll
  // message (the fidelity of both is measured in docs/fast-mode.md, "What
  // a run costs"); one that is not gets cheaper smoothly with its size rather
  // than past a rank count. Folding is weighed with the roll as messages
  // unless the roll is forced on.
  bool fold = c.fold == Fold::On;
  if (c.fold == Fold::Auto) {
    const bool rolled = c.roll_collective == Fold::On;
    const double unfolded_s = rolled ? estimate_fast_cost(sc, false, true, workers).wall_s : estimate(0);
    fold = unfolded_s - estimate(rolled ? 2 : 1) >= c.min_saving_s;
  }
  bool roll = c.roll_collective == Fold::On;
  if (c.roll_collective == Fold::Auto && fold) roll = estimate(1) - estimate(2) >= c.min_saving_s;
  if (estimates) *estimates = wall_s;
  return fast_plan_with(sc, fold, roll);
}

std::string fast_cost_report(const ResolvedScenario& sc) {
  std::array<double, 3> wall_s{};
  const FastPlan plan = settle_fast_plan(sc, &wall_s);
  const int workers = plan.workers;
  const FastCost cost = estimate_fast_cost(sc, plan.fold, plan.shortcuts.roll_collective, workers);
  std::ostringstream out;
  auto fixed = [&out](double v, int digits) {
    out << std::fixed << std::setprecision(digits) << v;
    out.unsetf(std::ios::floatfield);
  };
  out << "fast plan: fold " << (plan.fold ? "on" : "off") << ", collective swap roll "
      << (plan.shortcuts.roll_collective ? "on" : "off");
  const FastConfig& c = plan.config;
  if (wall_s[0] >= 0.0 || wall_s[1] >= 0.0) {
    const char* names[] = {"every rank", "folded", "folded with the collective roll"};
    out << " (AUTO takes each where the estimate says it saves at least ";
    fixed(c.min_saving_s, 1);
    out << " s of wall:";
    for (int i = 0; i < 3; ++i) {
      if (wall_s[i] < 0.0) continue;
      out << " " << names[i] << " ";
      fixed(wall_s[i], 1);
      out << " s" << (i < 2 && wall_s[i + 1] >= 0.0 ? "," : "");
    }
    out << ")";
  }
  out << "\nestimate: " << std::llround(cost.windows) << " windows of " << std::llround(cost.window_steps)
      << " steps in all, ";
  fixed(cost.activities / 1e6, 2);
  out << " M ops; wall ~";
  fixed(cost.wall_s, 1);
  out << " s on " << workers << " window process" << (workers == 1 ? "" : "es") << " (the main process ";
  fixed(cost.build_s, 1);
  out << " s); memory bound ~";
  fixed(cost.memory_bound_bytes / (1024.0 * 1024.0 * 1024.0), 2);
  out << " GiB (main process ";
  fixed(cost.main_bytes / (1024.0 * 1024.0), 0);
  out << " MiB, a window's own ";
  fixed(cost.window_private_bytes / (1024.0 * 1024.0), 0);
  out << " MiB). The model and its check: docs/fast-mode.md, \"What a run costs\"";
  return out.str();
}

} // namespace hplsim::sim
