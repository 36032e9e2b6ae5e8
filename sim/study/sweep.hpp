#pragma once
// `hplsim sweep` (docs/studies.md, "Sweeps"): what-if studies over HPL's own
// knobs. The points are the cross product of the --vary values (the last
// --vary fastest), times the P x Q factorizations --grids auto enumerates;
// each point's grid and N follow the stated rule below when the nodes, the
// ranks per node or NB vary and they do not. The points' summaries are ranked
// by Rmax, each difference from the best held against the sampling errors.
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "sim/scenario/scenario_defaults.hpp"
#include "sim/scenario/scenario_loader.hpp"

namespace hplsim::sim {

/// One --vary: an HPL name (N, NB, PxQ, depth, nodes, ppn, bcast, swap, pfact,
/// nbmin, ndiv) or a scenario field path, and its values as given.
struct Vary {
  std::string name; ///< canonical: the HPL name as listed above, or the field path
  std::vector<std::string> values;
};
/// Parses "NAME=v1,v2,..." (InputError naming --vary).
Vary parse_vary(const std::string& text);

/// Applies one HPL name's value (HPL.dat's codes or names for the variants)
/// or a field path's to `o` (InputError naming --vary NAME=VALUE).
void apply_hpl_value(const std::string& name, const std::string& value, ScenarioOverrides& o);

/// --grids auto[:LO-HI]: every P x Q of the point's ranks with P <= Q and LO <= P/Q <= HI.
struct GridRange {
  double lo = 0.25, hi = 1.0;
};
/// Parses "auto" or "auto:LO-HI" (InputError naming --grids).
GridRange parse_grids(const std::string& text);

/// The rule a sweep states (printed with its table).
inline constexpr const char* kSweepRule =
    "P x Q: --grids auto's factorizations, or when nodes or ppn vary, the factorization of nodes x ppn with "
    "P <= Q closest (in log) to the scenario's P:Q (a node or a few idle where those ranks factor more than "
    "2x off it, as run --nodes); N: when nodes, ppn or NB vary and N does not, the largest multiple of NB "
    "with the scenario's matrix memory per rank (N^2 / ranks); --fixed-N holds the scenario's N for every "
    "point";

struct SweepPoint {
  std::vector<std::pair<std::string, std::string>> values; ///< (column, value), the varied ones
  ScenarioOverrides overrides;                             ///< the point's run: base overrides + its values
  bool n_rederived = false; ///< N follows the rule (nodes, ppn or NB vary, N does not)
};

/// The points (InputError naming --vary or --grids when a value is not one
/// the name takes, or when no grid is in the range). With `fixed_n` every
/// point keeps the scenario's N (its own, or as --set gives it).
std::vector<SweepPoint> sweep_points(const ResolvedScenario& base, const ScenarioOverrides& base_overrides,
                                     const std::vector<Vary>& varies, const std::optional<GridRange>& grids,
                                     bool fixed_n = false);

/// A simulated point: its varied values and its summary.json text.
struct SweepResult {
  std::vector<std::pair<std::string, std::string>> values;
  std::string summary_json;
  bool n_rederived = false; ///< the point's N follows the rule (SweepPoint)
};

/// A point's place in the ranking.
struct Ranked {
  std::size_t index = 0;            ///< into the results
  double rmax_flops_per_s = 0.0;    ///< 0 when it did not complete
  double sampling_error = -1.0;     ///< fraction; < 0: none (every step simulated, or not fast mode)
  double below_best_fraction = 0.0; ///< (best - this) / best
  bool beyond_noise = false;        ///< the difference exceeds twice the combined sampling error
};
/// The points best first (Rmax descending; ties: the earlier point). The
/// difference from the best is real when it exceeds 2 sqrt((e_b R_b)^2 +
/// (e_i R_i)^2), e the points' own jackknife estimates (docs/fast-mode.md:
/// the error was within twice its estimate in 85-100% of the subsamples).
std::vector<Ranked> rank_points(const std::vector<SweepResult>& results);

/// sweep.csv: one row per point in point order: the varied values, then every
/// scalar key of summary.json (nested objects flattened as a.b; arrays as
/// their JSON text), then the rank.
void write_sweep_csv(const std::vector<SweepResult>& results, const std::vector<Ranked>& ranking,
                     const std::string& path);
/// sweep.svg (sim/report/sweep_plot_svg.hpp): the best points ranked, with
/// twice their sampling error as whiskers when they have one, and every
/// point's Rmax over each varied parameter.
void write_sweep_svg(const std::vector<SweepResult>& results, const std::vector<Ranked>& ranking,
                     const std::string& path);
/// sweep-heatmap.svg when exactly two names vary (P x Q down the rows when it
/// is one of them): Rmax per cell, the best ringed, the points within twice
/// the sampling error of it dashed. Returns whether it was written.
bool write_sweep_heatmap_svg(const std::vector<SweepResult>& results, const std::vector<Ranked>& ranking,
                             const std::string& path);
/// The ranking on stdout: each point's N (marked "*" when re-derived, with a
/// footnote), its Rmax in the unit of the best, and whether its difference
/// from the best is significant (beyond twice the sampling error).
void print_ranking(const std::vector<SweepResult>& results, const std::vector<Ranked>& ranking,
                   std::ostream& out);

} // namespace hplsim::sim
