#pragma once
// Does a scenario's matrix fit in the memory its machine declares? The one
// rule run, sweep and plan share (models/memory_model.hpp does the counting:
// netlib HPL 2.3's and rocHPL(-MxP)'s allocations, a stated headroom).
// A run that does not fit is refused before any simulation (ScenarioError,
// exit 1) unless options.allow_memory_oversubscription; N "filling a memory
// fraction" is the inverse (largest_fitting_n).
#include <cstdint>
#include <optional>
#include <string>

#include "models/memory_model.hpp"
#include "sim/scenario/scenario_config.hpp"

namespace hplsim::sim {

/// The memory model's inputs for a scenario (its worst rank, process (0, 0)).
models::MemoryInputs memory_inputs(const ResolvedScenario& scenario);

/// The memory use of the scenario's worst rank, or nullopt when the machine
/// declares no memory the run would be held against (gpu_memory_bytes for a
/// GPU run, host_memory_bytes for a CPU-only one).
std::optional<models::MemoryFootprint> memory_footprint(const ResolvedScenario& scenario);

/// true / false when checked, nullopt when not modelled (summary.json's fits_in_memory).
std::optional<bool> fits_in_memory(const ResolvedScenario& scenario);

/// Why the run is refused, when it does not fit and the scenario does not
/// allow it (options.allow_memory_oversubscription, --allow-oversubscription):
/// N, NB, P x Q, the bytes needed per rank and per device, what is available,
/// and the largest N that fits (largest_fitting_n). nullopt otherwise.
std::optional<std::string> memory_refusal(const ResolvedScenario& scenario);

/// Throws ScenarioError "<scenario>: <memory_refusal>" when there is one.
void check_memory_fits(const ResolvedScenario& scenario);

/// Human-readable memory use of the configuration (run --dry-run).
std::string memory_report(const ResolvedScenario& scenario);

/// The largest N (a multiple of NB) whose worst rank fits, in `fraction` of the
/// declared memory when given (else in all of it less the headroom), the rest
/// of the scenario unchanged; nullopt when no memory is declared.
std::optional<std::int64_t> largest_fitting_n(const ResolvedScenario& scenario,
                                              std::optional<double> fraction = std::nullopt);

/// The N a re-derived run (sim/scenario/grid_rule.hpp) takes: the scenario's
/// own when it fits (or the scenario allows oversubscription, or declares no
/// memory), else the largest multiple of NB that fits when one of at least NB
/// does (returned), else the scenario's own (refused later, with its reason).
/// nullopt: N stays.
std::optional<std::int64_t> fit_n_to_memory(const ResolvedScenario& scenario);

} // namespace hplsim::sim
