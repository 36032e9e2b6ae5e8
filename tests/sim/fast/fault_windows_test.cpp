// Fast mode's flap windows (sim/fast/fault_windows.hpp): where a flap given in
// seconds falls on the run's steps, what its window adds against its
// baseline, and how that shifts the steps after it. Expected values by hand.
#include "sim/fast/fault_windows.hpp"

#include <gtest/gtest.h>

#include <deque>

namespace hplsim::sim {
namespace {

// A pool of `workers` run here, one window at a time: it starts jobs while a
// worker is free, then ends the oldest running one (or the newest), as
// WindowPool::run_as_ready hands them out and takes them back. `each` gives a
// job's outcome; `started` lists the jobs in the order they started.
auto pool(int workers, std::function<WindowOutcome(const WindowJob&)> each, std::vector<WindowJob>* started,
          bool newest_first = false) {
  return [workers, each = std::move(each), started,
          newest_first](const std::function<std::optional<WindowJob>()>& next,
                        const std::function<void(std::size_t, WindowOutcome &&)>& done) {
    std::deque<std::pair<std::size_t, WindowJob>> running;
    std::size_t id = 0;
    while (true) {
      while (static_cast<int>(running.size()) < workers) {
        std::optional<WindowJob> j = next();
        if (!j) break;
        if (started) started->push_back(*j);
        running.emplace_back(id++, *j);
      }
      if (running.empty()) break;
      const auto [i, j] = newest_first ? running.back() : running.front();
      if (newest_first)
        running.pop_back();
      else
        running.pop_front();
      done(i, each(j));
    }
  };
}

// Steps of 1, 2 and 3 s, then a final solve of 0.5 s: [0,1) [1,3) [3,6) [6,6.5).
std::vector<StepRecord> three_steps() {
  std::vector<StepRecord> r;
  double t = 0.0;
  for (const double d : {1.0, 2.0, 3.0, 0.5}) {
    StepRecord s;
    s.step = static_cast<std::int64_t>(r.size());
    s.final_solve = r.size() == 3;
    s.start_s = t;
    t += d;
    s.end_s = t;
    s.phase_s[static_cast<std::size_t>(PhaseId::Gemm)] = d;
    r.push_back(s);
  }
  return r;
}

TEST(FaultPlacement, FindsTheStepAndTheOffsetIntoIt) {
  const auto r = three_steps();
  const FaultPlacement a = place_fault(r, 2.5);
  EXPECT_TRUE(a.reached);
  EXPECT_EQ(a.step, 1);
  EXPECT_DOUBLE_EQ(a.offset_s, 1.5);
  const FaultPlacement b = place_fault(r, 3.0); // a step's start belongs to it
  EXPECT_EQ(b.step, 2);
  EXPECT_DOUBLE_EQ(b.offset_s, 0.0);
  EXPECT_EQ(place_fault(r, 0.0).step, 0);
}

TEST(FaultPlacement, TheFinalSolveGoesToTheLastPanelStepAndTheEndIsNotReached) {
  const auto r = three_steps();
  const FaultPlacement f = place_fault(r, 6.2);
  EXPECT_TRUE(f.reached);
  EXPECT_EQ(f.step, 2);
  EXPECT_DOUBLE_EQ(f.offset_s, 3.2);
  EXPECT_FALSE(place_fault(r, 6.5).reached);
  EXPECT_FALSE(place_fault(r, 100.0).reached);
}

WindowOutcome window(const std::vector<std::pair<std::int64_t, double>>& ends) {
  WindowOutcome o;
  o.completed = true;
  double previous = 0.0;
  for (const auto& [k, end] : ends) {
    Sample s;
    s.end_s = end;
    s.step_s = end - previous;
    s.phase_s[static_cast<std::size_t>(PhaseId::Bcast)] = s.step_s;
    previous = end;
    o.samples.emplace_back(k, s);
  }
  return o;
}

TEST(FaultWindows, DeltasAreTheDifferenceOfTheStepEnds) {
  // Baseline steps 4..7 end at 1, 2, 3, 4; the flap stalls step 6 by 4 s and
  // step 7 catches up 0.5 s of it: ends 1, 2, 7, 7.5.
  const auto deltas =
      step_deltas(window({{4, 1}, {5, 2}, {6, 7}, {7, 7.5}}), window({{4, 1}, {5, 2}, {6, 3}, {7, 4}}));
  ASSERT_EQ(deltas.size(), 4u);
  EXPECT_DOUBLE_EQ(deltas[0].step_s, 0.0);
  EXPECT_DOUBLE_EQ(deltas[1].step_s, 0.0);
  EXPECT_DOUBLE_EQ(deltas[2].step_s, 4.0);
  EXPECT_DOUBLE_EQ(deltas[3].step_s, -0.5);
  EXPECT_DOUBLE_EQ(deltas[2].phase_s[static_cast<std::size_t>(PhaseId::Bcast)], 4.0);
}

TEST(FaultWindows, AddingDeltasShiftsEveryLaterStep) {
  auto r = three_steps();
  StepDelta d;
  d.step = 1;
  d.step_s = 4.0;
  d.phase_s[static_cast<std::size_t>(PhaseId::Gemm)] = 0.25;
  add_step_deltas(r, {d});
  EXPECT_DOUBLE_EQ(r[0].end_s, 1.0);
  EXPECT_DOUBLE_EQ(r[1].start_s, 1.0);
  EXPECT_DOUBLE_EQ(r[1].end_s, 7.0); // 2 s + 4 s
  EXPECT_DOUBLE_EQ(r[2].start_s, 7.0);
  EXPECT_DOUBLE_EQ(r[2].end_s, 10.0);
  EXPECT_DOUBLE_EQ(r[3].end_s, 10.5); // the final solve moves with them
  EXPECT_DOUBLE_EQ(r[1].phase_s[static_cast<std::size_t>(PhaseId::Gemm)], 2.25);
  // The run's time grows by the delay: the placement of a later fault uses it.
  EXPECT_EQ(place_fault(r, 6.5).step, 1);
}

// A 0.1 s flap of a NIC cable at 2.5 s, in step 1 of three_steps().
FaultTimeline nic_flap_in_step_one() {
  FaultTimeline timeline;
  FlapEvent f;
  f.link_class = NIC_PORT;
  f.start_s = 2.5;
  f.duration_s = 0.1;
  timeline.flaps.push_back(f);
  return timeline;
}

// A plan for three_steps(): windows measure one step, and every flap stalls node 0.
FaultWindowPlan one_step_plan() {
  FaultWindowPlan plan;
  plan.steps = 3;
  plan.measured_steps = 1;
  plan.flap_node = [](const FlapEvent&) { return 0; };
  return plan;
}

// One flap of a node's NIC cable at 2.5 s (step 1 of three_steps()), its
// window measuring step 1 alone; the window pair is made up: both windows end
// step 1 at 3 s, the baseline's last rank is done at 6 s and the fault's at
// `fault_end_s`.
std::pair<FaultLog, std::vector<StepRecord>> one_flap(double fault_end_s) {
  FaultWindowPlan plan = one_step_plan();
  std::vector<WindowJob> started;
  // Two workers; the fault window brings no baseline of its own
  // (WindowOutcome::baseline), so the baseline runs after it.
  plan.run = pool(
      2,
      [fault_end_s](const WindowJob& j) {
        WindowOutcome w = window({{1, 3.0}});
        w.end_s = 6.0;
        if (j.flap >= 0) {
          EXPECT_EQ(j.flap_step, 1);
          w.end_s = fault_end_s;
          w.faults.messages_failed = 1; // what makes the baseline count
          w.faults.retries = 1;
        }
        return w;
      },
      &started);
  const FaultTimeline timeline = nic_flap_in_step_one();
  auto records = three_steps();
  FaultLog log = simulate_flaps(plan, timeline, records);
  EXPECT_EQ(started.size(), 2u);
  EXPECT_GE(started.at(0).flap, 0);
  EXPECT_LT(started.at(1).flap, 0);
  return {log, records};
}

TEST(FaultWindows, AStallThatOutlivesTheMeasuredStepsCountsAtTheWindowsEnd) {
  // The flap's failed messages are waited for only after the measured step
  // (their retries end after it): no step end moves, the window's end does by
  // 2.5 s, which goes to the last measured step (step 1: 2 s + 2.5 s).
  const auto [log, records] = one_flap(8.5);
  ASSERT_TRUE(log.by_event.at(0).delay_s.has_value());
  EXPECT_DOUBLE_EQ(*log.by_event.at(0).delay_s, 2.5);
  EXPECT_DOUBLE_EQ(records[1].end_s, 5.5);
  EXPECT_DOUBLE_EQ(records[3].end_s, 9.0); // the final solve moves with them
  // A window's end that moved no more than its steps adds nothing.
  const auto [same, unmoved] = one_flap(6.0);
  EXPECT_DOUBLE_EQ(*same.by_event.at(0).delay_s, 0.0);
  EXPECT_DOUBLE_EQ(unmoved[3].end_s, 6.5);
}

// A fault window that brings its baseline (simulated by a copy of its process
// from the flap on, WindowOutcome::baseline) needs no second window: the
// flap's delay comes from the two, and both are counted.
TEST(FaultWindows, AFaultWindowThatBringsItsBaselineNeedsNoOther) {
  FaultWindowPlan plan = one_step_plan();
  std::vector<WindowJob> started;
  plan.run = pool(
      2,
      [](const WindowJob& j) {
        WindowOutcome fault = window({{1, 3.3}});
        fault.end_s = 6.3;
        fault.faults.messages_failed = 1;
        fault.faults.retries = 1;
        WindowOutcome base = window({{1, 3.0}});
        base.end_s = 6.0;
        fault.baseline = encode(base);
        EXPECT_GE(j.flap, 0) << "no baseline job should start";
        return fault;
      },
      &started);
  int counted = 0;
  plan.account = [&counted](const WindowJob&, const WindowOutcome& o) {
    ++counted;
    EXPECT_TRUE(o.baseline.empty());
  };
  const FaultTimeline timeline = nic_flap_in_step_one();
  auto records = three_steps();
  const FaultLog log = simulate_flaps(plan, timeline, records);
  EXPECT_EQ(started.size(), 1u);
  EXPECT_EQ(counted, 2);
  EXPECT_NEAR(*log.by_event.at(0).delay_s, 0.3, 1e-12); // step 1 ends at 3.3 s against 3 s
  EXPECT_NEAR(records[3].end_s, three_steps()[3].end_s + 0.3, 1e-12);
}

// A flap whose fault window failed no message costs 0 without its baseline:
// one worker runs the fault window alone, and no second job follows.
TEST(FaultWindows, AFlapThatFailedNoMessageNeedsNoBaseline) {
  FaultWindowPlan plan = one_step_plan();
  std::vector<WindowJob> started;
  plan.run = pool(
      1,
      [](const WindowJob&) {
        WindowOutcome w =
            window({{1, 3.7}}); // would be a 0.7 s delay against any baseline ending step 1 at 3 s
        w.end_s = 6.0;
        return w;
      },
      &started);
  const FaultTimeline timeline = nic_flap_in_step_one();
  auto records = three_steps();
  const FaultLog log = simulate_flaps(plan, timeline, records);
  ASSERT_EQ(started.size(), 1u);
  EXPECT_GE(started[0].flap, 0);
  EXPECT_DOUBLE_EQ(*log.by_event.at(0).delay_s, 0.0);
  EXPECT_DOUBLE_EQ(records[3].end_s, three_steps()[3].end_s);
}

// A NIC no traffic of the window's steps crosses (FaultWindowPlan::can_fail)
// costs 0 without any window.
TEST(FaultWindows, AFlapOfALinkNoTrafficCrossesRunsNoWindow) {
  FaultWindowPlan plan = one_step_plan();
  plan.can_fail = [](const FlapEvent&, std::int64_t, std::int64_t) { return false; };
  plan.run = pool(
      1,
      [](const WindowJob&) {
        ADD_FAILURE() << "no window should run";
        return WindowOutcome{};
      },
      nullptr);
  const FaultTimeline timeline = nic_flap_in_step_one();
  auto records = three_steps();
  const FaultLog log = simulate_flaps(plan, timeline, records);
  EXPECT_DOUBLE_EQ(*log.by_event.at(0).delay_s, 0.0);
}

// Two trials' flaps on one worker: both fault windows run first (needed work
// before baselines), then the baseline of the one that failed a message; the
// other costs 0; only the windows used are counted. With two workers and the
// windows ending newest first the delays are the same.
TEST(FaultWindows, TrialsShareTheWorkersAndOnlyTheFlapThatFailedAMessageGetsItsBaseline) {
  const auto each = [](const WindowJob& j) {
    WindowOutcome w = window({{1, 3.0}});
    w.end_s = 6.0;
    if (j.flap >= 0 && j.timeline == 0) { // trial 0's flap fails a message and ends step 1 0.4 s later
      w = window({{1, 3.4}});
      w.end_s = 6.4;
      w.faults.messages_failed = 1;
      w.faults.retries = 1;
    }
    return w;
  };
  for (const auto& [workers, newest_first] : {std::pair{1, false}, std::pair{2, true}}) {
    SCOPED_TRACE(workers);
    FaultWindowPlan plan = one_step_plan();
    std::vector<WindowJob> started;
    plan.run = pool(workers, each, &started, newest_first);
    int counted = 0;
    plan.account = [&counted](const WindowJob&, const WindowOutcome&) { ++counted; };
    const FaultTimeline a = nic_flap_in_step_one(), b = nic_flap_in_step_one();
    auto ra = three_steps(), rb = three_steps();
    const std::vector<FaultLog> logs = simulate_flaps(plan, {&a, &b}, {&ra, &rb});
    if (workers == 1) {
      ASSERT_EQ(started.size(), 3u);
      EXPECT_EQ(std::make_pair(started[0].timeline, started[0].flap >= 0), std::make_pair(0, true));
      EXPECT_EQ(std::make_pair(started[1].timeline, started[1].flap >= 0), std::make_pair(1, true));
      EXPECT_EQ(std::make_pair(started[2].timeline, started[2].flap >= 0), std::make_pair(0, false));
    }
    EXPECT_EQ(counted, 3);
    EXPECT_NEAR(*logs[0].by_event.at(0).delay_s, 0.4, 1e-12);
    EXPECT_DOUBLE_EQ(*logs[1].by_event.at(0).delay_s, 0.0);
    EXPECT_NEAR(ra[3].end_s, three_steps()[3].end_s + 0.4, 1e-12);
    EXPECT_DOUBLE_EQ(rb[3].end_s, three_steps()[3].end_s);
  }
}

} // namespace
} // namespace hplsim::sim
