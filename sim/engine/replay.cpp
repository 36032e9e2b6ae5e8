#include "sim/engine/replay.hpp"

#include "sim/engine/faults_runtime.hpp"
#include "sim/engine/rank_runner.hpp"
#include "sim/engine/replay_state.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace hplsim::sim {

Replay::Replay(const Platform& platform, const models::KernelModels& kernels,
               const models::ProtocolModel* protocol, StepSource source, ReplayOptions options)
    : state_(
          std::make_unique<ReplayState>(platform, kernels, protocol, std::move(source), std::move(options))) {
  auto& st = *state_;
  if (st.options.step_list.empty())
    for (std::int64_t k = 0; k <= st.options.steps; ++k)
      st.steps.push_back(k);
  else
    st.steps = st.options.step_list;
  const int ranks = platform.ranks();
  st.active = ranks;
  if (st.options.active_ranks)
    st.active =
        static_cast<int>(std::count(st.options.active_ranks->begin(), st.options.active_ranks->end(), true));
  st.records.resize(st.steps.size());
  st.step_means.resize(st.steps.size());
  st.rank_phase_s.assign(static_cast<std::size_t>(ranks), RankPhases{});
  st.rank_kernel_s.assign(static_cast<std::size_t>(ranks), RankPhases{});
  st.rank_swap_bcast_s.assign(static_cast<std::size_t>(ranks), 0.0);
  st.ranks_done.resize(st.steps.size());
  st.private_gpus = st.options.private_resources && platform.has_gpus();
  st.private_copies = st.options.private_resources && platform.copies_are_private();
  if (!st.options.private_resources && platform.spec().copies_priced_privately)
    throw std::logic_error("replay: copies as SimGrid transfers on a platform built without their links");
  st.window = std::make_unique<StepWindow>(st.source, st.steps, ranks, st.active, st.records);
  if (st.options.noise && st.options.noise->active())
    st.noise = std::make_unique<models::NoiseModel>(st.options.noise, st.options.seed);
  st.exchanges = std::make_unique<PivotExchanges>(
      platform, protocol, st.options.active_ranks, st.noise.get(),
      DeviceBuffers{st.options.device_message_overhead_s, st.options.device_message_rate_bytes_per_s});
  st.syncs = std::make_unique<CollectiveSyncs>(st.options.active_ranks);
  for (std::size_t i = 0; i < st.steps.size(); ++i) {
    StepRecord& r = st.records[i];
    r.step = st.steps[i];
    r.final_solve = st.steps[i] == st.options.steps;
    r.matrix_fraction =
        st.options.n > 0 ? double(std::min(st.steps[i] * st.options.nb, st.options.n)) / st.options.n : 0;
    r.start_s = std::numeric_limits<double>::infinity();
    r.end_s = 0.0;
  }
}

Replay::~Replay() = default;

std::vector<sg4::ActorPtr> Replay::start() {
  auto* st = state_.get();
  std::vector<sg4::ActorPtr> actors;
  for (int r = 0; r < st->platform.ranks(); ++r) {
    if (st->options.active_ranks && !(*st->options.active_ranks)[static_cast<std::size_t>(r)]) continue;
    actors.push_back(sg4::Actor::create("rank" + std::to_string(r), st->platform.cpu(r), [st, r]() {
      try {
        RankRunner(*st, r)();
      } catch (const RunAborted&) {
        // the run aborted (a fault): this rank stops here
      }
    }));
  }
  return actors;
}

void Replay::run_to_end() {
  for (auto& actor : start())
    actor->join();
}

const std::vector<StepRecord>& Replay::records() const {
  return state_->records;
}
const std::vector<RankPhases>& Replay::rank_phase_totals_s() const {
  return state_->rank_phase_s;
}
const std::vector<RankPhases>& Replay::rank_kernel_totals_s() const {
  return state_->rank_kernel_s;
}
const std::vector<double>& Replay::rank_swap_bcast_s() const {
  return state_->rank_swap_bcast_s;
}
const ReplayStats& Replay::stats() const {
  return state_->stats;
}
const std::vector<double>& Replay::marks() const {
  return state_->marks.times();
}
double Replay::makespan_s() const {
  return state_->makespan_s;
}
int Replay::finished_ranks() const {
  return state_->finished;
}
int Replay::active_ranks() const {
  return state_->active;
}

} // namespace hplsim::sim
