#pragma once
// Resolution of a loaded scenario: every documented default filled in
// (sim/scenario/scenario_config.hpp has the resolved types).
#include "sim/scenario/loaded_scenario.hpp"
#include "sim/scenario/scenario_config.hpp"

namespace hplsim::sim {

/// Fills every documented default. Precondition: `loaded` was validated by
/// load_scenario / load_scenario_text (it does not re-check ranges).
ResolvedScenario resolve(const LoadedScenario& loaded);

/// Lower-case names used in reports and the CLI ("reference", "hpl-mxp", "1ringM", ...).
const char* to_string(Mode mode);
const char* to_string(Benchmark benchmark);
const char* to_string(PfactAlgo algo);
const char* to_string(BcastAlgo algo);
const char* to_string(SwapAlgo algo);
/// The rule's name as summary.json and stdout give it ("netlib", "rochpl", "hpl_gpu", "async_bcast").
const char* to_string(TimerRule rule);
/// The phase column a wait for a panel goes to under `rule` ("bcast" or "swap").
/// The timer rule the run charges a wait for a panel by: workload.hpl.timer_rule, or when unset the
/// rule of the code the run replays (traces::HplCodeFacts::default_timer_rule; docs/codes/).
TimerRule resolved_timer_rule(const ResolvedScenario& sc);
const char* panel_wait_column(TimerRule rule);
const char* to_string(Refinement refinement);
const char* to_string(NicMapping mapping);
const char* to_string(Affinity affinity);
const char* to_string(TopologyKind kind);

} // namespace hplsim::sim
