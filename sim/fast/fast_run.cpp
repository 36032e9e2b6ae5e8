// Fast mode (docs/fast-mode.md): the per-step curve of an HPL run is smooth
// in the step index except at its two ends, so fast mode simulates short
// windows of consecutive steps in full detail (same replay, same platform,
// same schedule as reference mode) and integrates the curve between them:
//   - the first steps (a true cold start) and the last steps with the final
//     solve are always simulated;
//   - in between, windows start uniformly and are refined by bisection where
//     the curve through the other windows misses the midpoint by more than a
//     tolerance (the crossover and the fast decline near the end); every
//     step between windows is read off that curve (sim/fast/step_curve.hpp: one
//     node per window, a monotone cubic through them by default);
//   - a window simulates `warmup` steps whose times are discarded (they fill
//     the look-ahead pipeline and the broadcast skew), then `measured` steps
//     whose durations d(k) = end(k) - end(k-1) and phase times are kept, then
//     kCooldownSteps more steps, discarded as well: in a full run the ranks
//     that finish step k early already start step k+1 (factor and broadcast
//     the next panel, exchange its rows) and load the NICs and links that the
//     slower ranks still use for step k. A window that stops at its last
//     measured step leaves that traffic out and its last step comes out short;
//   - a run too short for the smallest window plan to be cheaper than the run
//     itself is simulated whole, in one window (exact).
// A controller actor builds the platform once; every window then runs in a
// process forked from that state (ChildProcess), up to options.fast.workers
// at a time, and sends its samples back through a pipe. Every window starts
// from the same idle machine at the same time, so the outputs do not depend
// on how many run at once.
#include "sim/fast/fast_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <utility>
#include <vector>

#include "models/random_streams.hpp"
#include "sim/engine/faults_runtime.hpp"
#include "sim/engine/replay.hpp"
#include "sim/engine/replay_setup.hpp"
#include "sim/fast/fast_cost.hpp"
#include "sim/fast/fast_plan.hpp"
#include "sim/fast/fault_windows.hpp"
#include "sim/fast/flap_reach.hpp"
#include "sim/fast/fold.hpp"
#include "sim/fast/integration.hpp"
#include "sim/fast/window_pool.hpp"
#include "sim/support/branch_process.hpp"
#include "sim/workload/schedule_source.hpp"

namespace hplsim::sim {

namespace {

using models::RandomStreams;

// Steps simulated after a window's measured steps and discarded (see the
// header). Measured on bench-1020 (1,020 ranks, 250 steps, depth 1) against
// reference mode, 50 windows of 2 measured steps: without them the last
// measured step of a window is 3.2% short on average (rms 5.0%; the first
// one +0.3%) and fast mode's Rmax is +2.0% off; with one step they are -0.1%
// (rms 1.5%) and Rmax is +0.1% off (scripts/validate-fast.sh, docs/fast-mode.md). One step suffices because
// the schedule's look-ahead depth is at most 1 and its async tags never cross a step boundary: a rank's step
// k+1 traffic is what overlaps step k, not step k+2's.
constexpr int kCooldownSteps = 1;

// A NIC flap's window sends its node's process columns' swap rolls as
// messages where the other columns' are priced (docs/fast-mode.md, point 12):
// in groups of this many ring steps (point 8), which at full scale took 0.46
// of the step-by-step roll's wall time for +0.84% of Rmax. A fault window and
// its baseline group alike, so the flap's delay, their difference, keeps
// little of that bias against a stall of a second or more.
constexpr int kFaultRollGroup = 16;

// The controller: plans the windows, runs them, refines by bisection and
// assembles the run from the integration.
class FastRun {
public:
  /// `trials` (may be null): timelines whose faults are simulated on the
  /// fault-free run, each on its own (run_fast_trials); null: the machine's.
  FastRun(const ResolvedScenario& sc, BuiltMachine& machine, const std::function<void(double)>& progress,
          RunResult& result, TrialDraws draw_trials = {})
      : sc_(sc), machine_(machine), progress_(progress), result_(result), plan_(settle_fast_plan(sc)),
        integration_(0, plan_.config.interpolation), draw_trials_(std::move(draw_trials)) {}

  void run() {
    source_ = make_schedule_source(sc_, plan_.shortcuts);
    check_kernel_coverage(sc_, *source_, *machine_.kernels);
    steps_ = source_->steps();
    const int slowest =
        plan_.fold || plan_.final_window ? slowest_node(machine_.platform->spec(), sc_.workload.nodes) : -1;
    fold_set_ = std::make_unique<FoldSet>(sc_.workload, plan_.config, steps_, slowest);
    refinement_simulated_ = simulated_refinement_iterations();
    // GMRES's first residual and solves repeat an iteration's communication:
    // where iterations are extrapolated, they are too (docs/fast-mode.md, point 13).
    refinement_first_pass_left_out_ =
        refinement_simulated_ > 0 && sc_.workload.mxp.refinement == Refinement::Gmres;
    integration_ = StepIntegration(steps_, plan_.config.interpolation);
    run_controller(machine_, "fast-controller", [this]() {
      control();
      if (failed_) return;
      if (draw_trials_) {
        const double fault_free_s =
            integration_
                .step_records(sc_.workload.n, sc_.workload.nb,
                              [this](std::int64_t k) { return source_->step_flops(k); })
                .back()
                .end_s;
        trials_ = draw_trials_(fault_free_s);
        std::vector<const FaultTimeline*> timelines;
        for (const FaultTimeline& t : trials_)
          timelines.push_back(&t);
        trial_out_ = faults_of(timelines);
      } else if (!machine_.faults.flaps.empty()) {
        FastTrial own = std::move(faults_of({&machine_.faults}).front());
        records_ = std::move(own.step_records);
        flap_log_ = std::move(own.flaps);
      }
    });
    assemble();
  }

  /// What the flaps did, when the run has any.
  const std::optional<FaultLog>& flap_log() const { return flap_log_; }
  /// Each trial's steps and flaps, and its timeline (with `draw_trials`).
  std::vector<FastTrial>& trial_outcomes() { return trial_out_; }
  const std::vector<FaultTimeline>& trial_timelines() const { return trials_; }

private:
  const FastConfig& cfg() const { return plan_.config; }

  // HPL-MxP's refinement iterations the final solve's window simulates, the
  // others extrapolated (docs/fast-mode.md, point 13); 0: all of them. By
  // default only where the final solve has a window of its own (large runs).
  int simulated_refinement_iterations() const {
    if (sc_.workload.benchmark != Benchmark::HplMxp) return 0;
    const int total = source_->refinement_iterations();
    const int gmres_or_classical = sc_.workload.mxp.refinement == Refinement::Gmres ? 1 : 2;
    const int k = cfg().refinement_iterations.value_or(plan_.final_window ? gmres_or_classical : 0);
    return k > 0 && k < total ? k : 0;
  }

  // The final solve's sample with the refinement iterations the window did not
  // simulate, and GMRES's first residual and solves: each takes as long as the
  // last iteration simulated, the time between the replay's marks around it
  // (the latest rank to pass each).
  void extrapolate_refinement(Sample& s, const std::vector<double>& marks) const {
    const auto k = static_cast<std::size_t>(refinement_simulated_);
    if (marks.size() <= k || !std::isfinite(marks[k]) || !std::isfinite(marks[k - 1]))
      throw std::logic_error("fast mode: the refinement's window lacks its iteration marks");
    const double iteration_s = marks[k] - marks[k - 1];
    const int first_pass = refinement_first_pass_left_out_ ? 1 : 0;
    const double extra_s =
        (source_->refinement_iterations() - refinement_simulated_ + first_pass) * iteration_s;
    const double scale = s.step_s > 0.0 ? (s.step_s + extra_s) / s.step_s : 1.0;
    s.step_s += extra_s;
    s.end_s += extra_s;
    for (std::size_t p = 0; p < kPhaseCount; ++p) {
      s.phase_s[p] *= scale;
      s.mean_phase_s[p] *= scale;
    }
    s.refinement_iterations_simulated = refinement_simulated_;
  }

  // Simulates one window from the engine's present state.
  WindowOutcome simulate(const WindowJob& job) const {
    const std::int64_t first = job.first, last = job.last;
    const bool fold = plan_.fold || (plan_.final_window && first == steps_);
    const std::vector<bool> active = fold_set_->active(first, last, fold, job.fault_nodes);
    ReplayOptions ro = replay_options(sc_);
    ro.seed = RandomStreams(sc_.options.seed).window_seed(first);
    for (std::int64_t k = first; k <= last; ++k)
      ro.step_list.push_back(k);
    if (fold) ro.active_ranks = &active;
    // A fault window and its baseline both run with the retry handler (the
    // same code paths: identical up to the flap); only the first has the flap.
    FaultTimeline timeline;
    std::unique_ptr<Branch> branch; // before faults: the flap's hook holds a reference to it
    std::unique_ptr<FaultsRuntime> faults;
    if (job.message_pivots) {
      timeline = window_timeline(job, *timelines_.at(static_cast<std::size_t>(job.timeline)),
                                 sc_.workload.ranks_per_node);
      faults = std::make_unique<FaultsRuntime>(*machine_.platform, timeline);
      // A flap that fails nothing costs nothing (simulate_flaps): its window
      // can stop as the link comes back up.
      faults->end_when_unfelt(job.flap >= 0);
      // Up to the flap the window is its baseline: a copy of this process
      // forked as the flap is due goes on without it and gives the baseline,
      // at once on a worker token nobody uses, else once the flap has failed
      // a message (below).
      if (job.flap >= 0)
        faults->before_flap([&branch](const FlapEvent&) {
          branch = std::make_unique<Branch>(JobTokens::of_parent_pool());
          return !branch->copy();
        });
      ro.faults = faults.get();
    }
    // A NIC flap can fail only its node's messages: the exchanges of its
    // ranks' process columns go as messages, the others stay priced; their
    // swap rolls go in groups of kFaultRollGroup ring steps where the others'
    // are priced (docs/faults.md, "Flaps in fast mode"). A fabric flap's
    // window prices the exchanges as the fault-free windows do.
    std::unique_ptr<ScheduleSource> own;
    const bool refinement = refinement_simulated_ > 0 && last == steps_;
    if (refinement) {
      ScheduleShortcuts shortcuts = plan_.shortcuts;
      shortcuts.refinement_iterations = refinement_simulated_;
      shortcuts.refinement_first_pass_left_out = refinement_first_pass_left_out_;
      own = make_schedule_source(sc_, shortcuts);
    } else if (job.message_pivots && !job.fault_nodes.empty()) {
      ScheduleShortcuts shortcuts = plan_.shortcuts;
      const auto& w = sc_.workload;
      for (const int node : job.fault_nodes)
        for (int l = 0; l < w.ranks_per_node; ++l) {
          const int rank = node * w.ranks_per_node + l;
          shortcuts.message_pivot_columns.push_back(w.column_major ? rank / w.p : rank % w.q);
        }
      if (shortcuts.roll_collective) shortcuts.swap_roll_group = kFaultRollGroup;
      own = make_schedule_source(sc_, shortcuts);
    }
    const ScheduleSource& source = own ? *own : *source_;
    Replay replay(*machine_.platform, *machine_.kernels, machine_.protocol.get(),
                  source.step_function(fold ? &active : nullptr), ro);
    const double origin = simulated_clock_s();
    const std::vector<sg4::ActorPtr> ranks = replay.start();
    if (faults) {
      faults->kill_on_abort(ranks);
      faults->start();
    }
    for (const sg4::ActorPtr& a : ranks)
      a->join();
    WindowOutcome out;
    out.activities = replay.stats().activities();
    out.end_s = replay.makespan_s() - origin;
    if (faults) out.faults = window_faults(faults->log(), job.flap, origin);
    if (faults && faults->ended_unfelt()) {
      out.completed = true; // with no samples: all its caller uses is that nothing failed
      out.faults.ended_unfelt = true;
      return out;
    }
    if (replay.finished_ranks() != replay.active_ranks()) return out;
    out.completed = true;
    const auto& recs = replay.records();
    double prev_end = origin;
    for (std::size_t i = 0; i < recs.size(); ++i) {
      const std::int64_t k = first + static_cast<std::int64_t>(i);
      if (k >= job.keep_from && k < job.keep_until) {
        Sample s;
        s.step_s = recs[i].end_s - prev_end;
        s.end_s = recs[i].end_s - origin;
        // Resource bound (docs/fast-mode.md, "the slowest GPU's pace"): over
        // many steps a run cannot go faster than its busiest GPU, whose GEMMs
        // of consecutive steps queue on it; the step's gemm phase time is the
        // largest over ranks of a rank's GEMM time. A window starts every rank
        // together, so a slow GPU (variability) lags a little more each step
        // and needs a whole cycle of Q owner columns to pace the run: in a few
        // steps d(k) misses that pace, and under folding the phantom peers
        // never wait for it at all. The run's first step and the final solve
        // keep d(k).
        if (k > 0 && !recs[i].final_solve)
          s.step_s = std::max(s.step_s, recs[i].phase_s[static_cast<std::size_t>(PhaseId::Gemm)]);
        s.phase_s = recs[i].phase_s;
        s.mean_phase_s = recs[i].mean_phase_s;
        s.flops = recs[i].flops;
        if (refinement && recs[i].final_solve) extrapolate_refinement(s, replay.marks());
        out.samples.emplace_back(k, s);
      }
      prev_end = recs[i].end_s;
    }
    // The baseline is needed when the flap failed a message (simulate_flaps).
    if (branch && !branch->copy() && branch->forked() && !out.faults.aborted &&
        (out.faults.messages_failed > 0 || out.faults.retries > 0))
      out.baseline = branch->resume_and_wait();
    return out;
  }

  // Runs the jobs (sim/fast/window_pool.hpp) and adds what they measured.
  // False if a window did not complete.
  bool run_jobs(const std::vector<WindowJob>& jobs) {
    const std::vector<WindowOutcome> outcomes = pool_->run(jobs);
    bool completed = true;
    for (std::size_t i = 0; i < jobs.size(); ++i)
      completed = take(jobs[i], outcomes[i], true) && completed;
    return completed;
  }

  // Adds a window's outcome (counted: a window not yet in windows_). False if
  // the window did not complete.
  bool take(const WindowJob& job, const WindowOutcome& o, bool count) {
    activities_ += o.activities;
    result_.windows.push_back(window_stat(job, o));
    if (!o.completed) return false;
    integration_.add_window(o);
    if (count) ++windows_;
    if (progress_) progress_(std::min(1.0, double(windows_) / cfg().max_windows));
    return true;
  }

  // The final solve alone (folded apart, plan_.final_window), in the
  // background: no bisection pass waits for it (its sample is not on the
  // step curve), and HPL-MxP's refinement window is the run's longest
  // (docs/fast-mode.md, point 6). Counted among the windows from its start, as
  // when it ran in the first batch.
  void start_final_in_background() {
    background_ = window_job(steps_, steps_, steps_);
    pool_->start_background(*background_);
    ++windows_;
  }

  // A window measuring steps [k, k + measured) after `warmup` steps.
  WindowJob sample_job(std::int64_t k) const {
    const std::int64_t first = std::max<std::int64_t>(0, k - cfg().warmup_steps);
    const std::int64_t last = std::min(steps_ - 1, k + cfg().measured_steps - 1 + kCooldownSteps);
    return window_job(first, last, first == 0 ? 0 : k, k + cfg().measured_steps);
  }

  // Steps [first, steps_), keeping those from `keep_from` on, then the final
  // solve: in the same window, or folded apart in the background.
  void add_through_final(std::vector<WindowJob>& jobs, std::int64_t first, std::int64_t keep_from) {
    if (plan_.final_window) start_final_in_background();
    jobs.push_back(window_job(first, plan_.final_window ? steps_ - 1 : steps_, keep_from));
  }

  // Steps simulated by the smallest window plan (head, tail, the uniform
  // windows; no bisection), counting warm-up and cool-down steps.
  std::int64_t min_plan_steps() const {
    const std::int64_t window_steps = cfg().warmup_steps + cfg().measured_steps + kCooldownSteps;
    const std::int64_t tail_steps = cfg().warmup_steps + cfg().measured_steps + 1; // + the final solve
    return window_steps + tail_steps + std::int64_t{cfg().initial_windows} * window_steps;
  }

  void control() {
    pool_ =
        std::make_unique<WindowPool>(plan_.workers, [this](const WindowJob& job) { return simulate(job); });
    sample_windows();
    if (!background_) return;
    const WindowOutcome o = pool_->finish_background();
    if (!take(*background_, o, false)) fail();
  }

  void sample_windows() {
    // Windows cannot be cheaper than the run: simulate it whole (all ranks
    // only: a folded window of every step would activate every owner column).
    std::vector<WindowJob> jobs;
    if (!plan_.fold && min_plan_steps() >= steps_ + 1) {
      add_through_final(jobs, 0, 0);
      if (!run_jobs(jobs)) fail();
      return;
    }
    // The run's two ends are simulated as they are: a cold start and the tail
    // with the final solve; uniform windows in between.
    const std::int64_t head = std::min<std::int64_t>(steps_, cfg().warmup_steps + cfg().measured_steps);
    jobs.push_back(window_job(0, std::min(steps_ - 1, head - 1 + kCooldownSteps), 0, head));
    if (steps_ > head) {
      const std::int64_t tail_first = std::max(head, steps_ - cfg().measured_steps);
      add_through_final(jobs, std::max<std::int64_t>(0, tail_first - cfg().warmup_steps), tail_first);
    } else {
      jobs.push_back(window_job(steps_, steps_, steps_));
    }
    const std::int64_t span_first = head, span_last = steps_ - cfg().measured_steps - 1;
    std::set<std::int64_t> uniform;
    if (span_last > span_first)
      for (int i = 1; i <= cfg().initial_windows; ++i) {
        const double at = double(span_last - span_first) * i / (cfg().initial_windows + 1);
        const std::int64_t k = span_first + static_cast<std::int64_t>(std::llround(at));
        if (uniform.insert(k).second) jobs.push_back(sample_job(k));
      }
    if (!run_jobs(jobs)) return fail();
    if (span_last <= span_first) return;
    // Bisection where the curve bends, a pass at a time: a pass's midpoints
    // lie in different intervals, so each one's interpolated guess is the same
    // before the pass as after its other windows.
    bool refined = true;
    while (refined && windows_ < cfg().max_windows && !within_target()) {
      refined = false;
      std::vector<std::int64_t> keys;
      for (const auto& [k, s] : integration_.samples())
        keys.push_back(k);
      jobs.clear();
      std::vector<std::pair<std::int64_t, double>> guesses;
      for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
        if (windows_ + static_cast<int>(jobs.size()) >= cfg().max_windows) break;
        const std::int64_t a = keys[i], b = keys[i + 1];
        if (b - a < 2 * (cfg().measured_steps + 1) || a >= steps_ || b >= steps_) continue;
        const std::int64_t mid = (a + b) / 2;
        guesses.emplace_back(mid, integration_.interpolate_step_s(mid));
        jobs.push_back(sample_job(mid));
      }
      if (jobs.empty()) break;
      if (!run_jobs(jobs)) return fail();
      for (const auto& [mid, guess] : guesses) {
        const double got = integration_.samples().at(mid).step_s;
        if (std::abs(got - guess) > cfg().tolerance * std::max(got, 1e-30)) refined = true;
      }
    }
  }

  void fail() { failed_ = true; }

  // The run's sampling error is at most options.fast.target_sampling_error
  // (none set: never).
  bool within_target() const {
    if (cfg().target_sampling_error <= 0.0) return false;
    const auto records =
        integration_.step_records(sc_.workload.n, sc_.workload.nb, [](std::int64_t) { return 0.0; });
    const double error = integration_.sampling_error_fraction(records.back().end_s);
    return error >= 0.0 && error <= cfg().target_sampling_error;
  }

  // Link flaps (sim/fast/fault_windows.hpp): on the fault-free steps, each
  // reached flap of each timeline in a window (and, when it failed a message,
  // against its baseline), the timelines' windows two at a time.
  std::vector<FastTrial> faults_of(const std::vector<const FaultTimeline*>& timelines) {
    std::vector<FastTrial> out(timelines.size());
    const std::vector<StepRecord> fault_free = integration_.step_records(
        sc_.workload.n, sc_.workload.nb, [this](std::int64_t k) { return source_->step_flops(k); });
    std::vector<const FaultTimeline*> with_flaps;
    std::vector<std::vector<StepRecord>*> records;
    for (std::size_t i = 0; i < timelines.size(); ++i) {
      out[i].step_records = fault_free;
      if (timelines[i]->flaps.empty()) continue;
      with_flaps.push_back(timelines[i]);
      records.push_back(&out[i].step_records);
    }
    if (with_flaps.empty()) return out;
    result_.fault_free_time_s = fault_free.back().end_s;
    timelines_ = with_flaps;
    FaultWindowPlan plan;
    plan.steps = steps_;
    plan.warmup_steps = cfg().warmup_steps;
    plan.measured_steps = cfg().measured_steps;
    plan.cooldown_steps = kCooldownSteps;
    const Platform& platform = *machine_.platform;
    const PlatformSpec& spec = platform.spec();
    const int nics = std::max(1, spec.sockets * spec.nics_per_socket);
    plan.flap_node = [&spec, nics](const FlapEvent& f) {
      if (f.link_class != NIC_PORT) return -1;
      const auto it = std::find(spec.node_map.begin(), spec.node_map.end(), static_cast<int>(f.index / nics));
      return it == spec.node_map.end() ? -1 : static_cast<int>(it - spec.node_map.begin());
    };
    // A NIC cable none of its node's traffic in the window's steps crosses
    // (sim/fast/flap_reach.hpp); fabric links are routed by load, so any may.
    plan.can_fail = [this, &platform, nics, node_of = plan.flap_node](const FlapEvent& f, std::int64_t first,
                                                                      std::int64_t last) {
      const int node = node_of(f);
      if (node < 0) return true;
      return nics_used(*source_, platform, node, first, last).count(static_cast<int>(f.index % nics)) > 0;
    };
    plan.run = [this](const std::function<std::optional<WindowJob>()>& next,
                      const std::function<void(std::size_t, WindowOutcome &&)>& done) {
      WindowPool(std::max(1, std::min(plan_.workers, 2)), [this](const WindowJob& j) {
        return simulate(j);
      }).run_as_ready(next, done);
    };
    plan.account = [this](const WindowJob& job, const WindowOutcome& o) {
      activities_ += o.activities;
      result_.windows.push_back(window_stat(job, o));
    };
    std::vector<FaultLog> logs = simulate_flaps(plan, with_flaps, records);
    for (std::size_t i = 0, j = 0; i < timelines.size(); ++i)
      if (!timelines[i]->flaps.empty()) out[i].flaps = std::move(logs[j++]);
    return out;
  }

  void assemble() {
    result_.activities = activities_;
    result_.window_processes = plan_.workers;
    result_.refinement_iterations = source_->refinement_iterations();
    if (failed_) {
      result_.completed = false;
      result_.failure = "deadlock in a fast-mode window";
    }
    result_.step_records =
        records_ ? std::move(*records_)
                 : integration_.step_records(sc_.workload.n, sc_.workload.nb,
                                             [this](std::int64_t k) { return source_->step_flops(k); });
    if (!failed_) {
      result_.rmax_sampling_error_fraction =
          integration_.sampling_error_fraction(result_.step_records.back().end_s);
      result_.sampling_windows = static_cast<int>(integration_.interior_windows().size());
    }
  }

  const ResolvedScenario& sc_;
  BuiltMachine& machine_;
  const std::function<void(double)>& progress_;
  RunResult& result_;
  FastPlan plan_;
  std::unique_ptr<ScheduleSource> source_;
  std::optional<std::vector<StepRecord>> records_; // the steps with the flaps' delays
  std::optional<FaultLog> flap_log_;               // what the flaps did (when the run has any)
  std::unique_ptr<FoldSet> fold_set_;
  std::int64_t steps_ = 0;
  StepIntegration integration_;
  std::uint64_t activities_ = 0;
  int windows_ = 0;
  int refinement_simulated_ = 0; // simulated_refinement_iterations()
  bool refinement_first_pass_left_out_ = false;
  bool failed_ = false;
  std::unique_ptr<WindowPool> pool_;
  std::optional<WindowJob> background_; // the final solve's window, when it runs in the background
  TrialDraws draw_trials_;
  std::vector<FaultTimeline> trials_;
  std::vector<FastTrial> trial_out_;
  std::vector<const FaultTimeline*> timelines_; // the timelines whose flaps the windows simulate
};

} // namespace

std::vector<FastTrial> run_fast_trials(const ResolvedScenario& scenario, BuiltMachine& machine,
                                       const TrialDraws& draw, const std::function<void(double)>& progress,
                                       RunResult& fault_free, std::vector<FaultTimeline>& timelines) {
  FastRun run(scenario, machine, progress, fault_free, draw);
  run.run();
  timelines = run.trial_timelines();
  return std::move(run.trial_outcomes());
}

std::optional<FaultLog> run_fast(const ResolvedScenario& scenario, BuiltMachine& machine,
                                 const std::function<void(double)>& progress, RunResult& result) {
  FastRun run(scenario, machine, progress, result);
  run.run();
  return run.flap_log();
}

} // namespace hplsim::sim
