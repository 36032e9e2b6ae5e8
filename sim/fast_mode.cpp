// Fast mode (README, "Fast mode"): the per-step curve of an HPL run is smooth
// in the step index except at its two ends, so fast mode simulates short
// windows of consecutive steps in full detail (same replay, same platform,
// same schedule as reference mode) and integrates the curve between them:
//   - the first steps (a true cold start) and the last steps with the final
//     solve are always simulated;
//   - in between, windows start uniformly and are refined by bisection where
//     the curve through the other windows misses the midpoint by more than a
//     tolerance (the crossover and the fast decline near the end); every
//     step between windows is read off that curve (sim/step_curve.hpp: one
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
// process forked from that state (WindowProcess), up to options.fast.workers
// at a time, and sends its samples back through a pipe. Every window starts
// from the same idle machine at the same time, so the outputs do not depend
// on how many run at once.
#include "sim/fast_mode.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <poll.h>
#include <set>
#include <simgrid/s4u.hpp>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
#include <type_traits>
#include <utility>

#include "models/kernel_model.hpp"
#include "models/protocol_model.hpp"
#include "models/variability.hpp"
#include "sim/platform.hpp"
#include "sim/replay.hpp"
#include "sim/schedule_source.hpp"
#include "sim/step_curve.hpp"
#include "sim/window_process.hpp"

namespace hplsim::sim {

namespace {

// Steps simulated after a window's measured steps and discarded (see the
// header). Measured on bench-1020 (1,020 ranks, 250 steps, depth 1) against
// reference mode, 50 windows of 2 measured steps: without them the last
// measured step of a window is 3.2% short on average (rms 5.0%; the first
// one +0.3%) and fast mode's Rmax is +2.0% off; with one step they are -0.1%
// (rms 1.5%) and Rmax is +0.1% off (scripts/validate-fast.sh, README "Fast
// mode"). One step suffices because the schedule's look-ahead depth is at
// most 1 and its async tags never cross a step boundary: a rank's step k+1
// traffic is what overlaps step k, not step k+2's.
constexpr int kCooldownSteps = 1;

struct Sample {
  double step_s = 0.0; // d(k)
  std::array<double, kPhaseCount> phase_s{};
  std::array<double, kPhaseCount> mean_phase_s{};
  double flops = 0.0;
};

class FastRun {
public:
  FastRun(const ResolvedScenario& sc, const SimulateOptions& options, RunResult& result)
      : sc_(sc), options_(options), result_(result), plan_(sc.options.fast),
        workers_(window_workers(sc.options.fast.workers)) {
    const int ranks = sc.workload.ranks();
    // Folding starts above plan_.fold_above_ranks (README, "Fast mode": below
    // it, windows of all ranks are fast enough).
    fold_ = plan_.fold == Fold::On || (plan_.fold == Fold::Auto && ranks > plan_.fold_above_ranks);
    // The final solve (HPL_pdtrsv, or HPL-MxP's refinement) is folded above the
    // same size even when the steps are not, in a window of its own: its schedule is thousands of
    // operations per rank (~4,000 per GMRES iteration at Aurora's MxP grid:
    // 19,000 ranks would need ~6 GB of it) for under 1% of the run time
    // (README, "Fast mode: the final solve"). HPL's solve gets a folded window
    // of its own in folded runs too: in the tail window it costs more than the
    // window's steps (1.8 M of a full-scale tail window's 2.0 M activities) for
    // ~1e-5 of the run time (README, "Fast mode", point 6). HPL-MxP's
    // refinement stays in the tail window there (a sixth of its run time).
    final_window_ = fold_ ? sc.workload.benchmark == Benchmark::Hpl : ranks > plan_.fold_above_ranks;
  }

  void run() {
    auto engine = create_engine();
    allow_flow_rate_caps(replay_options(sc_));
    topology_ = make_topology(sc_.machine);
    kernels_ = std::make_unique<models::KernelModels>(sc_.machine.kernels);
    const auto& node = sc_.machine.node;
    variability_ = std::make_unique<models::Variability>(sc_.machine.variability, topology_->node_count(),
                                                         std::max(1, node.gpus_per_node()), sc_.options.seed,
                                                         sc_.base_dir);
    platform_ = std::make_unique<Platform>(make_platform_spec(sc_, *topology_, *variability_));
    if (sc_.machine.protocol.ByteSizeLong() > 0) {
      protocol_ = std::make_unique<models::ProtocolModel>(sc_.machine.protocol);
      install_protocol(*protocol_);
    }
    ScheduleShortcuts shortcuts;
    shortcuts.pivot_group = plan_.pivot_group;
    const auto when_folded = [this](Fold f) { return f == Fold::On || (f == Fold::Auto && fold_); };
    shortcuts.pivot_collective = when_folded(plan_.pivot_collective);
    // Auto: with the collective pivot exchange, where the panel's core is free
    // (the updates run on the GPUs).
    shortcuts.panel_collective = plan_.panel_collective == Fold::On ||
                                 (plan_.panel_collective == Fold::Auto && shortcuts.pivot_collective &&
                                  sc_.machine.node.gpus_per_node() > 0);
    shortcuts.swap_roll_group = plan_.swap_roll_group;
    shortcuts.ring_aggregated = plan_.ring_aggregate;
    source_ = make_schedule_source(sc_, shortcuts);
    check_kernel_coverage(sc_, *source_, *kernels_);
    if (fold_ || final_window_) slowest_node_ = slowest_node();
    steps_ = source_->steps();
    sg4::Actor::create("fast-controller", platform_->cpu(0), [this]() { control(); });
    engine->run();
    assemble();
  }

private:
  // The ranks a window simulates when folding: every rank of `fold_nodes`
  // whole nodes (so that node-mates share their NICs as in the full run):
  // the nodes holding process row r0's owners of the window's panels, then
  // the next nodes along the row (the broadcast ring's next hops).
  std::vector<bool> active_set(std::int64_t first, std::int64_t last, bool fold) const {
    const auto& w = sc_.workload;
    const int ranks = w.ranks();
    std::vector<bool> active(static_cast<std::size_t>(ranks), !fold);
    if (!fold) return active;
    // Process row 0 (README, "Fast mode": which row is active changes the
    // folded prediction by tens of percent on latency-bound problems; no single
    // row reproduces the column-wide waits, which is why folding is optimistic).
    const int r0 = 0;
    auto rank_at = [&](int row, int col) { return w.column_major ? col * w.p + row : row * w.q + col; };
    std::vector<int> nodes;
    auto add_node = [&](int node) {
      if (std::find(nodes.begin(), nodes.end(), node) == nodes.end()) nodes.push_back(node);
    };
    auto add_rank = [&](int row, int col) { add_node(rank_at(row, col) / w.ranks_per_node); };
    auto add_node_of = [&](int col) { add_rank(r0, ((col % w.q) + w.q) % w.q); };
    const std::int64_t last_panel = std::min(last, steps_ - 1);
    for (std::int64_t k = first; k <= last_panel + 1 && k < steps_; ++k)
      add_node_of(static_cast<int>(k % w.q));
    for (int j = 1; static_cast<int>(nodes.size()) < plan_.fold_nodes && j < w.q; ++j)
      add_node_of(static_cast<int>((last_panel + j) % w.q));
    // The bands. COLUMN_BAND: every node holding a rank of the window's owner
    // columns, whose pivot exchanges and swaps then run with all P ranks, so the
    // round-by-round wait for the slowest rank of the column is simulated, not
    // assumed away. CROSS_BAND: the owner rows as well, whose chains (diagonal
    // block along the row, the U panel solves, the column broadcasts' roots;
    // HPL-MxP's refinement passes its partial sums along every row) then run
    // with all Q ranks; a window of the final solve alone keeps the last
    // panel's owner row and column (README, "Fast mode").
    const bool cross = plan_.band == FoldBand::CrossBand;
    const bool columns = cross || plan_.band == FoldBand::ColumnBand;
    for (std::int64_t k = cross ? std::min(first, steps_ - 1) : first; k <= last_panel + 1 && k < steps_;
         ++k) {
      const int owner_row = static_cast<int>(k % w.p), owner_col = static_cast<int>(k % w.q);
      for (int c = 0; cross && c < w.q; ++c)
        add_rank(owner_row, c);
      for (int r = 0; columns && r < w.p; ++r)
        add_rank(r, owner_col);
    }
    // The slowest node of the run (spatial variability): HPL runs at the pace
    // of its slowest rank, so a fold that left it out would drop the largest
    // scale loss variability causes (README, "Fast mode: folding").
    if (slowest_node_ >= 0) add_node(slowest_node_);
    for (int node : nodes)
      for (int l = 0; l < w.ranks_per_node; ++l)
        active[static_cast<std::size_t>(node * w.ranks_per_node + l)] = true;
    return active;
  }

  // The run node with the lowest rate factor over its CPUs and GPUs; -1 when
  // every factor is 1 (no variability).
  int slowest_node() const {
    const PlatformSpec& spec = platform_->spec();
    const int nodes = sc_.workload.nodes;
    int slowest = -1;
    double lowest = 1.0;
    for (int node = 0; node < nodes; ++node) {
      double f = spec.cpu_rate_factor ? spec.cpu_rate_factor(node) : 1.0;
      for (int l = 0; l < spec.ranks_per_node && spec.gpu_rate_factor; ++l)
        for (int g = 0; g < spec.gpus_per_rank; ++g)
          f = std::min(f, spec.gpu_rate_factor(node * spec.ranks_per_node + l, g));
      if (f < lowest) {
        lowest = f;
        slowest = node;
      }
    }
    return slowest;
  }

  // Steps [first, last] (inclusive) simulated as one window, keeping the steps
  // in [keep_from, keep_until).
  struct WindowJob {
    std::int64_t first = 0, last = 0, keep_from = 0;
    std::int64_t keep_until = std::numeric_limits<std::int64_t>::max();
  };
  struct WindowOutcome {
    bool completed = false;
    std::uint64_t activities = 0;
    double wall_s = 0.0, peak_rss_bytes = 0.0; // of the window's process
    std::vector<std::pair<std::int64_t, Sample>> samples;
  };

  // Simulates one window from the engine's present state.
  WindowOutcome simulate(const WindowJob& job) const {
    const std::int64_t first = job.first, last = job.last;
    const bool fold = fold_ || (final_window_ && first == steps_);
    const std::vector<bool> active = active_set(first, last, fold);
    ReplayOptions ro = replay_options(sc_);
    ro.seed = sc_.options.seed + static_cast<std::uint64_t>(first) * 0x9e3779b97f4a7c15ULL;
    for (std::int64_t k = first; k <= last; ++k)
      ro.step_list.push_back(k);
    if (fold) ro.active_ranks = &active;
    Replay replay(*platform_, *kernels_, protocol_.get(), source_->step_function(fold ? &active : nullptr),
                  ro);
    const double origin = sg4::Engine::get_clock();
    for (auto& actor : replay.start())
      actor->join();
    WindowOutcome out;
    out.activities = replay.stats().activities();
    if (replay.finished_ranks() != replay.active_ranks()) return out;
    out.completed = true;
    const auto& recs = replay.records();
    double prev_end = origin;
    for (std::size_t i = 0; i < recs.size(); ++i) {
      const std::int64_t k = first + static_cast<std::int64_t>(i);
      if (k >= job.keep_from && k < job.keep_until) {
        Sample s;
        s.step_s = recs[i].end_s - prev_end;
        // Resource bound (README, "Fast mode: the slowest GPU's pace"): over
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
        out.samples.emplace_back(k, s);
      }
      prev_end = recs[i].end_s;
    }
    return out;
  }

  // Simulates the jobs, each in a process of its own forked from the engine's
  // state after the platform is built (README, "Fast mode: windows in
  // parallel"): every window starts from that same state whatever ran before
  // it, so the outcome does not depend on how many run at once. Up to
  // workers_ at a time; outcomes are taken in job order. False if a window
  // did not complete.
  bool run_jobs(const std::vector<WindowJob>& jobs) {
    std::vector<WindowOutcome> outcomes(jobs.size());
    std::vector<std::pair<std::size_t, WindowProcess>> running;
    std::vector<pollfd> fds;
    std::size_t next = 0;
    while (next < jobs.size() || !running.empty()) {
      while (next < jobs.size() && static_cast<int>(running.size()) < workers_) {
        const WindowJob job = jobs[next];
        running.emplace_back(
            next++, WindowProcess([this, job]() {
              const auto t0 = std::chrono::steady_clock::now();
              WindowOutcome o = simulate(job);
              o.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
              o.peak_rss_bytes = peak_rss_bytes(RUSAGE_SELF);
              return encode(o);
            }));
      }
      // Whichever window is done first frees its worker.
      fds.clear();
      for (const auto& [job, process] : running)
        fds.push_back({process.fd(), POLLIN, 0});
      if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR)
        throw std::runtime_error(std::string("fast mode: poll: ") + std::strerror(errno));
      for (std::size_t i = fds.size(); i-- > 0;) {
        if (fds[i].revents == 0 || !running[i].second.read_some()) continue;
        outcomes[running[i].first] = decode(running[i].second.answer());
        running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
      }
    }
    bool completed = true;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      const WindowOutcome& o = outcomes[i];
      activities_ += o.activities;
      result_.windows.push_back({jobs[i].first, jobs[i].last, o.activities, o.wall_s, o.peak_rss_bytes});
      if (!o.completed) {
        completed = false;
        continue;
      }
      for (const auto& [k, s] : o.samples)
        samples_[k] = s;
      if (!o.samples.empty()) kept_.emplace(o.samples.front().first, o.samples.back().first);
      curves_.reset();
      ++windows_;
      simulated_steps_ += jobs[i].last - jobs[i].first + 1;
      if (options_.progress) options_.progress(std::min(1.0, double(windows_) / plan_.max_windows));
    }
    return completed;
  }

  // A window's outcome as bytes through the pipe (same binary on both ends).
  static_assert(std::is_trivially_copyable_v<Sample>, "samples travel as raw bytes");
  static std::string encode(const WindowOutcome& o) {
    std::string bytes;
    const auto put = [&](const auto& x) { bytes.append(reinterpret_cast<const char*>(&x), sizeof x); };
    put(o.completed);
    put(o.activities);
    put(o.wall_s);
    put(o.peak_rss_bytes);
    put(static_cast<std::uint64_t>(o.samples.size()));
    for (const auto& [k, s] : o.samples) {
      put(k);
      put(s);
    }
    return bytes;
  }
  static WindowOutcome decode(const std::string& bytes) {
    WindowOutcome o;
    std::size_t at = 0;
    const auto get = [&](auto& x) {
      if (at + sizeof x > bytes.size())
        throw std::runtime_error("fast mode: a window process's answer is cut short");
      std::memcpy(&x, bytes.data() + at, sizeof x);
      at += sizeof x;
    };
    std::uint64_t n = 0;
    get(o.completed);
    get(o.activities);
    get(o.wall_s);
    get(o.peak_rss_bytes);
    get(n);
    o.samples.resize(n);
    for (auto& [k, s] : o.samples) {
      get(k);
      get(s);
    }
    return o;
  }

  // A window measuring steps [k, k + measured) after `warmup` steps.
  WindowJob sample_job(std::int64_t k) const {
    const std::int64_t first = std::max<std::int64_t>(0, k - plan_.warmup_steps);
    const std::int64_t last = std::min(steps_ - 1, k + plan_.measured_steps - 1 + kCooldownSteps);
    return {first, last, first == 0 ? 0 : k, k + plan_.measured_steps};
  }

  // Steps [first, steps_), keeping those from `keep_from` on, then the final
  // solve: one window, or two when the final solve is folded apart.
  void add_through_final(std::vector<WindowJob>& jobs, std::int64_t first, std::int64_t keep_from) const {
    if (!final_window_) return jobs.push_back({first, steps_, keep_from});
    jobs.push_back({first, steps_ - 1, keep_from});
    jobs.push_back({steps_, steps_, steps_});
  }

  // Steps simulated by the smallest window plan (head, tail, the uniform
  // windows; no bisection), counting warm-up and cool-down steps.
  std::int64_t min_plan_steps() const {
    const std::int64_t window_steps = plan_.warmup_steps + plan_.measured_steps + kCooldownSteps;
    const std::int64_t tail_steps = plan_.warmup_steps + plan_.measured_steps + 1; // + the final solve
    return window_steps + tail_steps + std::int64_t{plan_.initial_windows} * window_steps;
  }

  // The curve through the windows (README, "Fast mode: integrating the
  // curve"): one node per window, the mean of its kept steps at their mean
  // step; the head window's node is its last step (its first is a cold
  // start), the tail window's its first (the last panel's step and the final
  // solve are not on the curve). One curve for d(k) and one per phase.
  struct Curves {
    std::unique_ptr<StepCurve> step;
    std::array<std::unique_ptr<StepCurve>, kPhaseCount> phase, mean_phase;
  };
  // A window is interior unless it is the head (its kept steps start at 0),
  // the tail (they reach the last panel step) or the final solve alone.
  bool interior(const std::pair<std::int64_t, std::int64_t>& kept) const {
    return kept.first > 0 && kept.second < steps_ - 1;
  }
  std::vector<std::pair<std::int64_t, std::int64_t>> interior_windows() const {
    std::vector<std::pair<std::int64_t, std::int64_t>> windows;
    std::copy_if(kept_.begin(), kept_.end(), std::back_inserter(windows),
                 [this](const auto& kept) { return interior(kept); });
    return windows;
  }

  // The curve's nodes, one per window, leaving out the window `skip` keeps
  // (none when null).
  std::vector<std::pair<double, Sample>>
  curve_nodes(const std::pair<std::int64_t, std::int64_t>* skip) const {
    std::vector<std::pair<double, Sample>> nodes;
    for (const auto& kept : kept_) {
      if (skip != nullptr && kept == *skip) continue;
      const auto [a, b_kept] = kept;
      const std::int64_t b = std::min(b_kept, steps_ - 1);
      if (a > b) continue; // the final solve alone
      std::pair<double, Sample> node{0.0, Sample{}};
      if (!interior(kept)) {
        node.first = static_cast<double>(a == 0 ? b : a);
        node.second = samples_.at(a == 0 ? b : a);
      } else {
        const double n = static_cast<double>(b - a + 1);
        node.first = static_cast<double>(a + b) / 2.0;
        for (std::int64_t k = a; k <= b; ++k) {
          const Sample& x = samples_.at(k);
          node.second.step_s += x.step_s / n;
          for (std::size_t p = 0; p < kPhaseCount; ++p) {
            node.second.phase_s[p] += x.phase_s[p] / n;
            node.second.mean_phase_s[p] += x.mean_phase_s[p] / n;
          }
        }
      }
      if (nodes.empty() || node.first > nodes.back().first) nodes.push_back(node);
    }
    return nodes;
  }

  const Curves& curves() const {
    if (curves_) return *curves_;
    std::vector<std::pair<double, Sample>> nodes = curve_nodes(nullptr);
    // A run cut short by a failed window may have fewer than two windows:
    // every sample is a node then (a constant from a single one).
    if (nodes.size() < 2) {
      nodes.clear();
      for (const auto& [k, x] : samples_)
        nodes.emplace_back(static_cast<double>(k), x);
      if (nodes.size() == 1) nodes.emplace_back(nodes.front().first + 1.0, nodes.front().second);
      if (nodes.empty()) nodes = {{0.0, Sample{}}, {1.0, Sample{}}};
    }
    const CurveRule rule = plan_.interpolation;
    const auto curve = [&](const auto& value) {
      std::vector<CurveNode> c;
      for (const auto& [step, sample] : nodes)
        c.push_back({step, value(sample)});
      return std::make_unique<StepCurve>(std::move(c), rule);
    };
    curves_ = std::make_unique<Curves>();
    curves_->step = curve([](const Sample& x) { return x.step_s; });
    for (std::size_t p = 0; p < kPhaseCount; ++p) {
      curves_->phase[p] = curve([p](const Sample& x) { return x.phase_s[p]; });
      curves_->mean_phase[p] = curve([p](const Sample& x) { return x.mean_phase_s[p]; });
    }
    return *curves_;
  }

  // A step between windows, read off the curve (never below zero: the
  // parabolic rule can overshoot a node where the curve turns sharply).
  static double read_off(const StepCurve& curve, std::int64_t k) {
    return std::max(0.0, curve.at(static_cast<double>(k)));
  }

  // The run's sampling error (README, "Fast mode: integrating the curve"):
  // the jackknife over the interior windows. Leaving window i out (its steps
  // read off the curve through the others) gives a run time T_i; the
  // standard error of the run time is sqrt((n-1)/n sum (T_i - mean T)^2),
  // returned relative to `time_s`. Negative when fewer than two interior
  // windows (nothing to leave out).
  double sampling_error_fraction(double time_s) const {
    const auto windows = interior_windows();
    if (windows.size() < 2 || time_s <= 0.0) return -1.0;
    std::vector<double> totals;
    for (const auto& skip : windows) {
      std::vector<CurveNode> nodes;
      for (const auto& [step, sample] : curve_nodes(&skip))
        nodes.push_back({step, sample.step_s});
      const StepCurve curve(std::move(nodes), plan_.interpolation);
      double total_s = 0.0;
      for (std::int64_t k = 0; k <= steps_; ++k) {
        const auto it = samples_.find(k);
        const bool left_out = k >= skip.first && k <= skip.second;
        total_s += it != samples_.end() && !left_out ? it->second.step_s : read_off(curve, k);
      }
      totals.push_back(total_s);
    }
    const double n = static_cast<double>(totals.size());
    double mean = 0.0, squares = 0.0;
    for (double t : totals)
      mean += t / n;
    for (double t : totals)
      squares += (t - mean) * (t - mean);
    return std::sqrt((n - 1.0) / n * squares) / time_s;
  }

  double interpolate_step_s(std::int64_t k) const {
    auto it = samples_.find(k);
    if (it != samples_.end()) return it->second.step_s;
    return read_off(*curves().step, k);
  }

  void control() {
    // Windows cannot be cheaper than the run: simulate it whole (all ranks
    // only: a folded window of every step would activate every owner column).
    std::vector<WindowJob> jobs;
    if (!fold_ && min_plan_steps() >= steps_ + 1) {
      add_through_final(jobs, 0, 0);
      if (!run_jobs(jobs)) fail();
      return;
    }
    // The run's two ends are simulated as they are: a cold start and the tail
    // with the final solve; uniform windows in between.
    const std::int64_t head = std::min<std::int64_t>(steps_, plan_.warmup_steps + plan_.measured_steps);
    jobs.push_back({0, std::min(steps_ - 1, head - 1 + kCooldownSteps), 0, head});
    if (steps_ > head) {
      const std::int64_t tail_first = std::max(head, steps_ - plan_.measured_steps);
      add_through_final(jobs, std::max<std::int64_t>(0, tail_first - plan_.warmup_steps), tail_first);
    } else {
      jobs.push_back({steps_, steps_, steps_});
    }
    const std::int64_t span_first = head, span_last = steps_ - plan_.measured_steps - 1;
    std::set<std::int64_t> uniform;
    if (span_last > span_first)
      for (int i = 1; i <= plan_.initial_windows; ++i) {
        const double at = double(span_last - span_first) * i / (plan_.initial_windows + 1);
        const std::int64_t k = span_first + static_cast<std::int64_t>(std::llround(at));
        if (uniform.insert(k).second) jobs.push_back(sample_job(k));
      }
    if (!run_jobs(jobs)) return fail();
    if (span_last <= span_first) return;
    // Bisection where the curve bends, a pass at a time: a pass's midpoints
    // lie in different intervals, so each one's interpolated guess is the same
    // before the pass as after its other windows.
    bool refined = true;
    while (refined && windows_ < plan_.max_windows) {
      refined = false;
      std::vector<std::int64_t> keys;
      for (const auto& [k, s] : samples_)
        keys.push_back(k);
      jobs.clear();
      std::vector<std::pair<std::int64_t, double>> guesses;
      for (std::size_t i = 0; i + 1 < keys.size(); ++i) {
        if (windows_ + static_cast<int>(jobs.size()) >= plan_.max_windows) break;
        const std::int64_t a = keys[i], b = keys[i + 1];
        if (b - a < 2 * (plan_.measured_steps + 1) || a >= steps_ || b >= steps_) continue;
        const std::int64_t mid = (a + b) / 2;
        guesses.emplace_back(mid, interpolate_step_s(mid));
        jobs.push_back(sample_job(mid));
      }
      if (jobs.empty()) break;
      if (!run_jobs(jobs)) return fail();
      for (const auto& [mid, guess] : guesses) {
        const double got = samples_.at(mid).step_s;
        if (std::abs(got - guess) > plan_.tolerance * std::max(got, 1e-30)) refined = true;
      }
    }
  }

  void fail() { failed_ = true; }

  void assemble() {
    result_.activities = activities_;
    result_.window_processes = workers_;
    result_.refinement_iterations = source_->refinement_iterations();
    if (failed_) {
      result_.completed = false;
      result_.failure = "deadlock in a fast-mode window";
    }
    const auto& w = sc_.workload;
    result_.step_records.clear();
    double clock = 0.0;
    for (std::int64_t k = 0; k <= steps_; ++k) {
      StepRecord r;
      r.step = k;
      r.final_solve = k == steps_;
      r.matrix_fraction = double(std::min(k * w.nb, w.n)) / double(w.n);
      auto it = samples_.find(k);
      if (it != samples_.end()) {
        r.phase_s = it->second.phase_s;
        r.mean_phase_s = it->second.mean_phase_s;
        r.start_s = clock;
        clock += it->second.step_s;
        r.how = "simulated";
      } else {
        const auto hi = samples_.lower_bound(k);
        const std::int64_t lo_step = hi == samples_.begin() ? 0 : std::prev(hi)->first;
        const std::int64_t hi_step = hi == samples_.end() ? steps_ : hi->first;
        const Curves& c = curves();
        for (std::size_t p = 0; p < kPhaseCount; ++p) {
          r.phase_s[p] = read_off(*c.phase[p], k);
          r.mean_phase_s[p] = read_off(*c.mean_phase[p], k);
        }
        r.start_s = clock;
        clock += read_off(*c.step, k);
        r.how = "interpolated:" + std::to_string(lo_step) + "-" + std::to_string(hi_step);
      }
      r.end_s = clock;
      r.flops = step_flops(k);
      result_.step_records.push_back(r);
    }
    if (!failed_) {
      result_.rmax_sampling_error_fraction = sampling_error_fraction(clock);
      result_.sampling_windows = static_cast<int>(interior_windows().size());
    }
  }

  double step_flops(std::int64_t k) const { return source_->step_flops(k); }

  const ResolvedScenario& sc_;
  const SimulateOptions& options_;
  RunResult& result_;
  FastConfig plan_;
  bool fold_ = false;
  bool final_window_ = false; // the final solve folded in a window of its own
  int slowest_node_ = -1;
  std::unique_ptr<topo::Topology> topology_;
  std::unique_ptr<models::KernelModels> kernels_;
  std::unique_ptr<models::Variability> variability_;
  std::unique_ptr<Platform> platform_;
  std::unique_ptr<models::ProtocolModel> protocol_;
  std::unique_ptr<ScheduleSource> source_;
  std::int64_t steps_ = 0;
  std::map<std::int64_t, Sample> samples_;
  std::set<std::pair<std::int64_t, std::int64_t>> kept_; // each window's kept steps, first and last
  mutable std::unique_ptr<Curves> curves_;               // through kept_, built when first read
  std::uint64_t activities_ = 0;
  int windows_ = 0;
  std::int64_t simulated_steps_ = 0;
  bool failed_ = false;
  int workers_ = 1;
};

} // namespace

void run_fast(const ResolvedScenario& scenario, const SimulateOptions& options, RunResult& result) {
  FastRun(scenario, options, result).run();
}

} // namespace hplsim::sim
