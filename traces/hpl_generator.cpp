#include "traces/hpl_generator.hpp"

#include "traces/hpl_flops.hpp"
#include <algorithm>
#include <stdexcept>
#include <string>

#include "traces/hpl_solve.hpp"
#include "traces/hpl_step.hpp"
#include "traces/program_builder.hpp"

namespace hplsim::traces {

namespace {

HplConfig validated(HplConfig config) {
  validate(config);
  return config;
}

} // namespace

HplScheduleGenerator::HplScheduleGenerator(HplConfig config)
    : config_(validated(config)), grid_(config_.p, config_.q, config_.column_major),
      steps_((config_.n + config_.nb - 1) / config_.nb) {}

ScheduleHeader HplScheduleGenerator::header() const {
  ScheduleHeader h;
  h.set_benchmark(HPL);
  h.set_n(config_.n);
  h.set_nb(config_.nb);
  h.set_p(config_.p);
  h.set_q(config_.q);
  h.set_depth(config_.depth);
  h.set_pfact(to_string(config_.pfact));
  h.set_bcast(to_string(config_.bcast));
  h.set_swap(to_string(config_.swap));
  h.set_swap_threshold(config_.swap_threshold);
  h.set_steps(steps_);
  h.set_storage(FP64);
  h.set_column_major(config_.column_major);
  return h;
}

// Flops split: HPL counts 2/3 N^3 + 3/2 N^2 for the whole run. LU of the N x N
// matrix costs 2/3 N^3 - 1/2 N^2 + O(N) and carrying the right-hand side
// through the eliminations N^2, together 2/3 N^3 + 1/2 N^2; the back
// substitution costs N^2. Step k gets F(n_k) - F(n_k+1) with
// F(n) = 2/3 n^3 + 1/2 n^2 and n_k = N - k NB the order of the trailing matrix
// when step k starts (HPL's progress line uses the same 2/3 (N^3 - n^3)
// leading term); the final solve gets N^2. The sum telescopes to the total.
double HplScheduleGenerator::step_flops(std::int64_t k) const {
  const double n = static_cast<double>(config_.n);
  if (k == steps_) return n * n;
  const auto f = [](double m) { return 2.0 / 3.0 * m * m * m + 0.5 * m * m; };
  const double n_k = static_cast<double>(config_.n - k * config_.nb);
  const double n_k1 = static_cast<double>(std::max<std::int64_t>(0, config_.n - (k + 1) * config_.nb));
  return f(n_k) - f(n_k1);
}

double HplScheduleGenerator::total_flops() const {
  return hpl_flops(config_.n);
}

void HplScheduleGenerator::step(std::int64_t k, StepSchedule& out, const std::vector<bool>* only) const {
  if (k < 0 || k > steps_)
    throw std::out_of_range("HplScheduleGenerator::step: k must be in [0, " + std::to_string(steps_) +
                            "], got " + std::to_string(k));
  const int ranks = grid_.size();
  if (only != nullptr && only->size() != static_cast<std::size_t>(ranks))
    throw std::invalid_argument("HplScheduleGenerator::step: only.size() must be P*Q = " +
                                std::to_string(ranks) + ", got " + std::to_string(only->size()));
  OpRecycler recycler; // reuses the payloads of the step `out` held before
  recycler.harvest(out);
  out.set_step(k);
  out.set_flops(step_flops(k));
  const bool final_solve = k == steps_;
  out.set_final_solve(final_solve);
  out.set_jb(final_solve ? 0 : std::min(config_.nb, config_.n - k * config_.nb));
  out.set_col_offset(final_solve ? config_.n : k * config_.nb);

  const HplPanel current = final_solve ? HplPanel{} : make_hpl_panel(config_, k);
  const HplPanel next = final_solve ? HplPanel{} : make_hpl_panel(config_, k + 1);
  const HplStepEmitter emitter(config_, grid_, current, next);
  const SolveOptions solve{config_.gpu ? GPU : CPU, config_.host_staged};
  for (int r = 0; r < ranks; ++r) {
    if (only != nullptr && !(*only)[static_cast<std::size_t>(r)]) continue;
    RankProgram* program = out.add_ranks();
    program->set_rank(r);
    ProgramBuilder b(program, &recycler);
    const int row = grid_.row_of(r), col = grid_.col_of(r);
    if (final_solve)
      emit_triangular_solve(b, grid_, row, col, config_.n, config_.nb, solve);
    else
      emitter.emit(b, row, col);
    if (program->ops_size() == 0) out.mutable_ranks()->RemoveLast();
  }
}

} // namespace hplsim::traces
