#include "sim/workload/schedule_source.hpp"

#include "sim/scenario/scenario_defaults.hpp"

#include <algorithm>
#include <type_traits>

#include "models/refinement_model.hpp"
#include "traces/hpl_generator.hpp"
#include "traces/mxp_generator.hpp"

namespace hplsim::sim {

namespace {

static_assert(static_cast<int>(HplCode::Netlib23) == static_cast<int>(traces::HplCode::Netlib23) &&
              static_cast<int>(HplCode::IntelGpu) == static_cast<int>(traces::HplCode::IntelGpu) &&
              static_cast<int>(HplCode::Rochpl6) == static_cast<int>(traces::HplCode::Rochpl6) &&
              static_cast<int>(HplCode::Rochpl7) == static_cast<int>(traces::HplCode::Rochpl7) &&
              static_cast<int>(HplCode::Nvidia) == static_cast<int>(traces::HplCode::Nvidia));

traces::HplConfig hpl_config(const ResolvedScenario& sc) {
  const auto& w = sc.workload;
  traces::HplConfig c;
  c.n = w.n;
  c.nb = w.nb;
  c.p = w.p;
  c.q = w.q;
  c.depth = w.depth;
  c.column_major = w.column_major;
  using P = traces::HplConfig::Pfact;
  using B = traces::HplConfig::Bcast;
  using S = traces::HplConfig::Swap;
  switch (w.hpl.pfact) {
  case PfactAlgo::Right:
    c.pfact = P::Right;
    break;
  case PfactAlgo::Left:
    c.pfact = P::Left;
    break;
  case PfactAlgo::Crout:
    c.pfact = P::Crout;
    break;
  }
  c.nbmin = w.hpl.nbmin;
  c.ndiv = w.hpl.ndiv;
  switch (w.hpl.bcast) {
  case BcastAlgo::OneRing:
    c.bcast = B::OneRing;
    break;
  case BcastAlgo::OneRingM:
    c.bcast = B::OneRingM;
    break;
  case BcastAlgo::TwoRing:
    c.bcast = B::TwoRing;
    break;
  case BcastAlgo::TwoRingM:
    c.bcast = B::TwoRingM;
    break;
  case BcastAlgo::Blong:
    c.bcast = B::Blong;
    break;
  case BcastAlgo::BlongM:
    c.bcast = B::BlongM;
    break;
  }
  switch (w.hpl.swap) {
  case SwapAlgo::BinaryExchange:
    c.swap = S::BinaryExchange;
    break;
  case SwapAlgo::SpreadRoll:
    c.swap = S::SpreadRoll;
    break;
  case SwapAlgo::Mix:
    c.swap = S::Mix;
    break;
  }
  c.swap_threshold = w.hpl.swap_threshold_columns;
  using X = traces::HplConfig::PanelExchange;
  switch (w.hpl.panel_exchange) {
  case PanelExchange::P2P:
    c.panel_exchange = X::P2P;
    break;
  case PanelExchange::Hybrid:
    c.panel_exchange = X::Hybrid;
    break;
  case PanelExchange::Collective:
    c.panel_exchange = X::Collective;
    break;
  }
  c.code = static_cast<traces::HplCode>(resolved_code(sc));
  c.gpu = updates_on_gpus(sc);
  using T = traces::HplConfig::TimerRule;
  switch (resolved_timer_rule(sc)) {
  case TimerRule::Netlib:
    c.timer_rule = T::Netlib;
    break;
  case TimerRule::RocHpl:
    c.timer_rule = T::RocHpl;
    break;
  case TimerRule::HplGpu:
    c.timer_rule = T::HplGpu;
    break;
  case TimerRule::AsyncBcast:
    c.timer_rule = T::AsyncBcast;
    break;
  }
  c.host_staged = c.gpu && !sc.machine.placement.gpu_aware_mpi;
  const traces::HplCodeFacts& facts = traces::code_facts(c.code);
  // A code that does not read an HPL.dat line runs its own choice (reported
  // with the run, docs/codes/nvidia.md): NVIDIA HPL broadcasts the panel with
  // ncclBcast (HPL_P2P_AS_BCAST 0), a pipelined ring [I] -> 1ring; it always
  // looks one panel ahead [I]; its panel kernel is not published [U]: the
  // recursion of netlib's sample (Right, NBMIN 2, NDIV 2) stands for it.
  if (!facts.honours_bcast) c.bcast = B::OneRing;
  if (!facts.honours_depth) c.depth = 1;
  if (!facts.honours_pfact) {
    c.pfact = P::Right;
    c.nbmin = 2;
    c.ndiv = 2;
  }
  return c;
}

// One generator (traces::HplScheduleGenerator or traces::MxpScheduleGenerator)
// behind the ScheduleSource interface.
template <class Generator> class GeneratorSource final : public ScheduleSource {
public:
  template <class Config> explicit GeneratorSource(const Config& config) : gen_(config) {}
  traces::ScheduleHeader header() const override { return gen_.header(); }
  std::int64_t steps() const override { return gen_.steps(); }
  void step(std::int64_t k, traces::StepSchedule& out, const std::vector<bool>* only) const override {
    gen_.step(k, out, only);
  }
  double step_flops(std::int64_t k) const override { return gen_.step_flops(k); }
  int refinement_iterations() const override {
    if constexpr (std::is_same_v<Generator, traces::MxpScheduleGenerator>)
      return gen_.config().refinement_iterations;
    return 0;
  }

private:
  Generator gen_;
};

traces::MxpConfig mxp_config(const ResolvedScenario& sc) {
  const auto& w = sc.workload;
  traces::MxpConfig c;
  c.mpi = sc.machine.mpi;
  c.n = w.n;
  c.nb = w.nb;
  c.p = w.p;
  c.q = w.q;
  c.column_major = w.column_major;
  c.depth = w.depth;
  const bool gpu = sc.machine.node.gpus_per_node() > 0;
  c.gpus_per_rank = gpu ? w.mxp.gpus_per_rank : 1;
  c.storage = traces::BF16; // Aurora HPL-MxP: BF16 storage (Aurora paper, arXiv 2604.09517)
  // The low-precision panel work (diagonal LU, panel TRSMs) runs on the CPUs,
  // with AMX where the node has it (Aurora paper, arXiv 2604.09517: "AMX on the CPUs accelerates
  // ... the low-precision panel factorization"); the refinement is FP64 on the CPUs.
  c.panel_resource = traces::CPU;
  c.refinement_resource = traces::CPU;
  c.host_staged = gpu && !sc.machine.placement.gpu_aware_mpi;
  c.device_messages = gpu && sc.machine.placement.gpu_aware_mpi;
  const bool gmres = w.mxp.refinement == Refinement::Gmres;
  c.refinement = gmres ? traces::MxpConfig::Refinement::Gmres : traces::MxpConfig::Refinement::Classical;
  c.refinement_iterations =
      w.mxp.refinement_iterations
          ? *w.mxp.refinement_iterations
          : models::refinement_iterations(
                w.n, c.storage, gmres ? models::RefinementKind::Gmres : models::RefinementKind::Classical);
  return c;
}

} // namespace

std::unique_ptr<ScheduleSource> make_schedule_source(const ResolvedScenario& sc,
                                                     const ScheduleShortcuts& shortcuts) {
  if (sc.workload.benchmark == Benchmark::HplMxp) {
    traces::MxpConfig config = mxp_config(sc);
    config.bcast_ring_aggregated = shortcuts.ring_aggregated;
    if (shortcuts.refinement_iterations > 0) {
      config.refinement_iterations = std::min(config.refinement_iterations, shortcuts.refinement_iterations);
      config.refinement_marks = true;
      config.refinement_first_pass_extrapolated = shortcuts.refinement_first_pass_left_out;
    }
    return std::make_unique<GeneratorSource<traces::MxpScheduleGenerator>>(config);
  }
  traces::HplConfig config = hpl_config(sc);
  config.pivot_group = shortcuts.pivot_group;
  config.pivot_collective = shortcuts.pivot_collective;
  config.panel_collective = shortcuts.panel_collective;
  config.roll_collective = shortcuts.roll_collective;
  config.swap_roll_group = shortcuts.swap_roll_group;
  config.message_pivot_columns = shortcuts.message_pivot_columns;
  return std::make_unique<GeneratorSource<traces::HplScheduleGenerator>>(config);
}
} // namespace hplsim::sim
