#include "sim/cli/run_trials.hpp"

#include <iostream>
#include <stdexcept>

#include "sim/distributed/world.hpp"
#include "sim/run/simulate.hpp"
#include "sim/run/trials.hpp"
#include "sim/study/strategies.hpp"
#include "sim/study/trials_study.hpp"
#include "sim/support/bytes.hpp"
#include "sim/support/child_process.hpp"
#include "sim/support/errors.hpp"

namespace hplsim::sim {

namespace {

TrialsOptions options_of(const TrialsArgs& a, const World& world) {
  TrialsOptions o;
  o.trials = a.trials;
  o.jobs = a.jobs > 0 ? a.jobs : window_workers(0);
  o.share = world.rank();
  o.share_count = world.size();
  return o;
}

// Every rank's rows of one study, on rank 0 in trial order (`base`: the
// first item number of this study among several gathered at once).
std::vector<std::vector<TrialRow>> gather_rows(const World& world,
                                               const std::vector<std::vector<TrialRow>>& mine, int trials) {
  if (world.size() == 1) return mine;
  std::vector<std::pair<std::size_t, std::string>> items;
  for (std::size_t s = 0; s < mine.size(); ++s)
    for (const TrialRow& r : mine[s])
      items.emplace_back(s * static_cast<std::size_t>(trials) + static_cast<std::size_t>(r.trial), encode(r));
  const std::vector<std::string> gathered = world.gather(pack_items(items));
  if (!world.is_root()) return {};
  std::vector<std::vector<TrialRow>> all(mine.size(),
                                         std::vector<TrialRow>(static_cast<std::size_t>(trials)));
  std::size_t received = 0;
  for (const std::string& packed : gathered)
    for (const auto& [index, bytes] : unpack_items(packed)) {
      const std::size_t s = index / static_cast<std::size_t>(trials),
                        i = index % static_cast<std::size_t>(trials);
      if (s >= all.size()) throw std::runtime_error("trials: a rank's answer is malformed");
      all[s][i] = decode_trial_row(bytes);
      ++received;
    }
  if (received != all.size() * static_cast<std::size_t>(trials))
    throw std::runtime_error("trials: a rank's answers are missing");
  return all;
}

int one_study(const TrialsArgs& a, const ResolvedScenario& sc) {
  const World& world = World::current();
  TrialsOptions o = options_of(a, world);
  o.progress = a.progress;
  TrialsResult t = simulate_trials(sc, o);
  auto rows = gather_rows(world, {t.trials}, a.trials);
  if (!world.is_root()) return kExitOk;
  t.trials = std::move(rows.front());
  const Outcome outcome = outcome_of(t.trials, closed_form_rate_per_hour(sc), t.fault_free.time_s);
  write_trials_csv(sc, t, a.out_dir + "/trials.csv");
  write_trial_faults_csv(sc, {&t}, a.out_dir + "/trial-faults.csv");
  write_outcome_json(sc, t, outcome, a.out_dir + "/outcome.json");
  print_outcome(t, outcome, std::cout);
  std::cout << "outputs: " << a.out_dir << "/{trials.csv,trial-faults.csv,outcome.json}\n";
  return kExitOk;
}

// What a strategy's process sends back: its fault-free run's figures, then its rows.
struct FaultFreeFigures {
  double time_s = 0.0, rmax_flops_per_s = 0.0, sampling_error_fraction = -1.0;
  bool completed = false;
};

int strategies_study(const TrialsArgs& a, const ResolvedScenario& sc) {
  if (sc.workload.benchmark != Benchmark::Hpl)
    throw InputError("--strategies: only HPL has panel exchange strategies (workload.hpl.panel_exchange)");
  const World& world = World::current();
  std::vector<ResolvedScenario> scenarios;
  for (const std::string& s : a.strategies) {
    ScenarioOverrides o = a.overrides;
    o.set.push_back("workload.hpl.panel_exchange=" + s);
    scenarios.push_back(resolve(load_scenario(a.path, o)));
  }
  // One SimGrid engine per process: each strategy's trials in a process of its
  // own, the strategies side by side, their windows together at most `jobs`
  // at a time (each strategy's tail fills the cores another leaves idle).
  std::vector<FaultFreeFigures> fault_free(scenarios.size());
  std::vector<std::vector<TrialRow>> mine(scenarios.size());
  const TrialsOptions options = options_of(a, world);
  run_studies_side_by_side(
      scenarios.size(), options.jobs,
      [&](std::size_t s) {
        const TrialsResult t = simulate_trials(scenarios[s], options);
        ByteWriter w;
        w.put(FaultFreeFigures{t.fault_free.time_s, t.fault_free.rmax_flops_per_s,
                               t.fault_free.rmax_sampling_error_fraction, t.fault_free.completed});
        w.put(static_cast<std::uint64_t>(t.trials.size()));
        for (const TrialRow& r : t.trials)
          w.put_string(encode(r));
        return w.take();
      },
      [&](std::size_t s, const std::string& bytes) {
        ByteReader r(bytes, "trials: a strategy's answer");
        r.get(fault_free[s]);
        mine[s].resize(r.get<std::uint64_t>());
        for (TrialRow& row : mine[s])
          row = decode_trial_row(r.get_string());
        r.expect_done();
      });
  auto rows = gather_rows(world, mine, a.trials);
  if (!world.is_root()) return kExitOk;
  std::vector<StrategyTrials> studies;
  for (std::size_t s = 0; s < scenarios.size(); ++s) {
    StrategyTrials st;
    st.trials.fault_free = initial_result(scenarios[s], to_string(effective_mode(scenarios[s])));
    st.trials.fault_free.time_s = fault_free[s].time_s;
    st.trials.fault_free.rmax_flops_per_s = fault_free[s].rmax_flops_per_s;
    st.trials.fault_free.completed = fault_free[s].completed;
    st.trials.trials = std::move(rows[s]);
    st.name = st.trials.fault_free.panel_exchange;
    st.outcome = outcome_of(st.trials.trials, closed_form_rate_per_hour(scenarios[s]), fault_free[s].time_s);
    studies.push_back(std::move(st));
  }
  std::vector<StrategyComparison> differences;
  for (std::size_t i = 0; i < studies.size(); ++i)
    for (std::size_t j = i + 1; j < studies.size(); ++j)
      differences.push_back(compare_paired(studies[i].name, studies[i].trials.trials, studies[j].name,
                                           studies[j].trials.trials));
  write_strategies_trials_csv(sc, studies, a.out_dir + "/trials.csv");
  std::vector<const TrialsResult*> trials;
  for (const StrategyTrials& st : studies)
    trials.push_back(&st.trials);
  write_trial_faults_csv(sc, trials, a.out_dir + "/trial-faults.csv");
  write_strategies_outcome_json(sc, studies, differences, a.out_dir + "/outcome.json");
  for (const StrategyTrials& st : studies)
    print_outcome(st.trials, st.outcome, std::cout);
  print_differences(differences, std::cout);
  std::cout << "outputs: " << a.out_dir << "/{trials.csv,trial-faults.csv,outcome.json}\n";
  return kExitOk;
}

} // namespace

int run_trials(const TrialsArgs& a, const ResolvedScenario& sc) {
  return a.strategies.empty() ? one_study(a, sc) : strategies_study(a, sc);
}

} // namespace hplsim::sim
