#include "sim/report/crossover.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <vector>

namespace hplsim::sim {

namespace {

double phase(const StepRecord& r, PhaseId id) {
  return r.phase_s[static_cast<std::size_t>(id)];
}

double step_s(const StepRecord& r) {
  return r.end_s - r.start_s;
}

// The panel steps with a positive time, in order.
std::vector<const StepRecord*> timed_panel_steps(const RunResult& result) {
  std::vector<const StepRecord*> steps;
  for (const StepRecord& r : result.step_records)
    if (!r.final_solve && step_s(r) > 0.0) steps.push_back(&r);
  return steps;
}

// The first step from which `holds` is true to the end, a step counting
// when `holds` is true for most of the steps within h of it.
std::optional<std::int64_t> sustained(const std::vector<const StepRecord*>& steps,
                                      const std::function<bool(std::size_t)>& holds) {
  const std::size_t n = steps.size();
  // below[i] = 1 when step i holds; prefix sums count them over any span.
  std::vector<std::size_t> below_before(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i)
    below_before[i + 1] = below_before[i] + (holds(i) ? 1 : 0);
  const std::size_t h = std::max<std::size_t>(2, static_cast<std::size_t>(std::ceil(0.005 * double(n))));
  std::optional<std::int64_t> first;
  for (std::size_t i = n; i-- > 0;) {
    const std::size_t lo = i >= h ? i - h : 0, hi = std::min(n, i + h + 1);
    const std::size_t below = below_before[hi] - below_before[lo];
    if (2 * below <= hi - lo) break; // not a majority: the suffix ends here
    first = steps[i]->step;
  }
  return first;
}

// The first step from which `value` stays more than kCrossoverFall below its
// early level (the median over the first quarter of the steps) to the end.
std::optional<std::int64_t> sustained_fall(const std::vector<const StepRecord*>& steps,
                                           const std::function<double(const StepRecord&)>& value) {
  const std::size_t n = steps.size();
  if (n == 0) return std::nullopt;
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i)
    x[i] = value(*steps[i]);
  std::vector<double> early(x.begin(),
                            x.begin() + static_cast<std::ptrdiff_t>(std::max<std::size_t>(1, n / 4)));
  const auto mid = early.begin() + static_cast<std::ptrdiff_t>(early.size() / 2);
  std::nth_element(early.begin(), mid, early.end());
  const double threshold = (1.0 - kCrossoverFall) * *mid;
  return sustained(steps, [&](std::size_t i) { return x[i] < threshold; });
}

// The largest phase of a step other than GEMM (and SOLVE, which panel steps do not have).
PhaseId largest_other(const StepRecord& r) {
  PhaseId best = PhaseId::Pfact;
  for (const PhaseId id : {PhaseId::Bcast, PhaseId::Swap, PhaseId::Trsm})
    if (phase(r, id) > phase(r, best)) best = id;
  return best;
}

} // namespace

std::optional<GemmBelowPhase> gemm_below_phase(const RunResult& result) {
  const auto steps = timed_panel_steps(result);
  const auto first = sustained(steps, [&](std::size_t i) {
    return phase(*steps[i], PhaseId::Gemm) < phase(*steps[i], largest_other(*steps[i]));
  });
  if (!first) return std::nullopt;
  // The phase GEMM falls below: the largest other phase summed over the suffix.
  std::array<double, kPhaseCount> sums{};
  for (const StepRecord* r : steps)
    if (r->step >= *first)
      for (const PhaseId id : {PhaseId::Pfact, PhaseId::Bcast, PhaseId::Swap, PhaseId::Trsm})
        sums[static_cast<std::size_t>(id)] += phase(*r, id);
  const auto top = std::max_element(sums.begin(), sums.end());
  return GemmBelowPhase{*first, static_cast<PhaseId>(top - sums.begin())};
}

std::optional<std::int64_t> crossover_step(const RunResult& result) {
  return sustained_fall(timed_panel_steps(result), [](const StepRecord& r) {
    return (phase(r, PhaseId::Trsm) + phase(r, PhaseId::Gemm)) / step_s(r);
  });
}

std::optional<std::int64_t> rate_drop_step(const RunResult& result) {
  return sustained_fall(timed_panel_steps(result), [](const StepRecord& r) { return r.flops / step_s(r); });
}

std::optional<std::int64_t> gemm_below_comm_step(const RunResult& result) {
  // Walk back from the last panel step while GEMM stays below the
  // communication path; the earliest step of that suffix is the answer.
  std::optional<std::int64_t> first;
  for (auto it = result.step_records.rbegin(); it != result.step_records.rend(); ++it) {
    if (it->final_solve) continue;
    const bool below =
        phase(*it, PhaseId::Gemm) <
        std::max(phase(*it, PhaseId::Swap), phase(*it, PhaseId::Pfact) + phase(*it, PhaseId::Bcast));
    if (!below) break;
    first = it->step;
  }
  return first;
}

std::optional<double> step_fraction(const RunResult& result, std::optional<std::int64_t> step) {
  if (!step || result.n <= 0) return std::nullopt;
  return static_cast<double>(*step) * static_cast<double>(result.nb) / static_cast<double>(result.n);
}

} // namespace hplsim::sim
