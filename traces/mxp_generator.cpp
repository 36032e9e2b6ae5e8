#include "traces/mxp_generator.hpp"

#include "traces/hpl_flops.hpp"
#include <algorithm>
#include <stdexcept>
#include <string>

#include "traces/hpl_bcast.hpp"
#include "traces/mxp_refinement.hpp"
#include "traces/program_builder.hpp"

namespace hplsim::traces {

namespace {

MxpConfig validated(MxpConfig config) {
  validate(config);
  return config;
}

constexpr std::int64_t kDiagElementBytes = 4; // the diagonal block is FP32 (rocHPL-MxP A.piv is fp32_t)

class MxpStepEmitter {
public:
  MxpStepEmitter(const MxpConfig& c, const ProcessGrid& g, std::int64_t k)
      : c_(c), g_(g), j_(k * c.nb), jb_(std::min(c.nb, c.n - k * c.nb)), root_row_(static_cast<int>(k % c.p)),
        root_col_(static_cast<int>(k % c.q)), look_ahead_(c.depth == 1 && k > 0),
        storage_bytes_(precision_bytes(c.storage)) {}

  void emit(ProgramBuilder& b, int row, int col) const {
    const std::int64_t rows = local_count(j_ + jb_, c_.n, c_.nb, row, c_.p); // below the diagonal block
    const std::int64_t cols = local_count(j_ + jb_, c_.n, c_.nb, col, c_.q); // right of it
    const bool col_root = col == root_col_, row_root = row == root_row_, diag = col_root && row_root;
    const Resource panel = c_.panel_resource;
    // Look-ahead: panel k's pieces get panel k-1's update first (GPU 0).
    if (look_ahead_) {
      if (diag) gpu_gemm(b, jb_, jb_, c_.nb, 0);
      if (col_root) gpu_gemm(b, rows, jb_, c_.nb, 0);
      if (row_root) gpu_gemm(b, jb_, cols, c_.nb, 0);
    }
    const std::int64_t diag_bytes = jb_ * jb_ * kDiagElementBytes;
    if (diag) {
      if (panel == CPU) b.copy(Copy::D2H, diag_bytes, COPY);
      b.compute(KERNEL_GETRF_DIAG, panel, jb_, jb_, 0, PFACT, FP32);
      if (panel == CPU) b.copy(Copy::H2D, diag_bytes, COPY);
    }
    std::vector<std::uint32_t> trailing;
    if (panel == CPU) {
      // CPU panels pipelined with the GPUs (Aurora paper, arXiv 2604.09517: "explicit CPU-GPU
      // pipelining"; rocHPL-MxP, src/pgesv/hplmxp_pgetrf.cpp: the diagonal block is broadcast as
      // soon as it is factored). The owner broadcasts the factored block first, the GPUs start
      // panel k-1's trailing update (it needs nothing of step k), and the L and U solves run on
      // the CPU while they compute (docs/at-scale.md, "The MxP schedule's CPU-GPU pipeline").
      if (diag) broadcast_diag(b, row, col);
      if (look_ahead_) trailing_update(b, rows, cols, c_.nb, trailing);
    }
    // The other ranks of the owner column / row get the factored diagonal block.
    if (col_root && !diag) receive_diag(b, Communicator::column(g_, col), row, root_row_);
    if (row_root && !diag) receive_diag(b, Communicator::row(g_, row), col, root_col_);
    const std::uint32_t l_tag = col_root ? panel_solve(b, rows, diag) : 0;
    const std::uint32_t u_tag = row_root ? panel_solve(b, cols, diag) : 0;
    if (panel == GPU) {
      // GPU panels: the solves are queued first (asynchronously on the owner, which broadcasts
      // the diagonal block while they run), then the trailing update.
      if (look_ahead_) trailing_update(b, rows, cols, c_.nb, trailing);
      if (diag) broadcast_diag(b, row, col);
    }
    std::vector<std::uint32_t> to_device;
    // L along the rows, U along the columns, in the storage precision.
    b.wait(l_tag);
    panel_bcast(b, Communicator::row(g_, row), col, root_col_, rows * jb_, to_device);
    b.wait(u_tag);
    panel_bcast(b, Communicator::column(g_, col), row, root_row_, jb_ * cols, to_device);
    if (c_.depth == 0) trailing_update(b, rows, cols, jb_, trailing);
    for (std::uint32_t tag : trailing)
      b.wait(tag);
    for (std::uint32_t tag : to_device)
      b.wait(tag);
  }

private:
  void gpu_gemm(ProgramBuilder& b, std::int64_t m, std::int64_t n, std::int64_t k, int device) const {
    b.compute(KERNEL_GEMM, GPU, m, n, k, GEMM, c_.storage, device);
  }

  std::int64_t chunk() const { return bcast_is_probed(c_.bcast) ? c_.bcast_chunk_bytes : 0; }

  void broadcast(ProgramBuilder& b, const Communicator& comm, int me, int root, std::int64_t count,
                 std::int64_t element_bytes) const {
    if (count <= 0 || comm.size <= 1) return; // HPLMXP_bcast returns for SCOUNT <= 0
    Pattern p;
    bcast_pattern(c_.bcast, me, root, comm.size, count, element_bytes, p);
    emit_bcast(b, comm, p, chunk(), BCAST, c_.bcast_ring_aggregated);
  }

  // HPLMXP_pgetrf: the diagonal block's owner broadcasts it along its row, then its column.
  void broadcast_diag(ProgramBuilder& b, int row, int col) const {
    if (c_.host_staged && c_.panel_resource == GPU) b.copy(Copy::D2H, jb_ * jb_ * kDiagElementBytes, COPY);
    broadcast(b, Communicator::row(g_, row), col, root_col_, jb_ * jb_, kDiagElementBytes);
    broadcast(b, Communicator::column(g_, col), row, root_row_, jb_ * jb_, kDiagElementBytes);
  }

  void receive_diag(ProgramBuilder& b, const Communicator& comm, int me, int root) const {
    broadcast(b, comm, me, root, jb_ * jb_, kDiagElementBytes);
    if (comm.size > 1 && c_.host_staged && c_.panel_resource == GPU)
      b.copy(Copy::H2D, jb_ * jb_ * kDiagElementBytes, COPY);
  }

  // The L (n = local rows) or U (n = local columns) panel's triangular solve.
  // On the diagonal block's owner it runs while the diagonal block is broadcast.
  std::uint32_t panel_solve(ProgramBuilder& b, std::int64_t n, bool async) const {
    if (c_.panel_resource == GPU) {
      if (async) return b.compute_async(KERNEL_TRSM, GPU, jb_, n, 0, TRSM, c_.storage);
      b.compute(KERNEL_TRSM, GPU, jb_, n, 0, TRSM, c_.storage);
      return 0;
    }
    b.copy(Copy::D2H, n * jb_ * 4, COPY); // the FP32 panel
    b.compute(KERNEL_TRSM, CPU, jb_, n, 0, TRSM, c_.storage);
    b.copy(Copy::H2D, n * jb_ * storage_bytes_, COPY); // back for the trailing GEMM
    return 0;
  }

  // Root: the panel leaves from host memory when staged (copied there first if
  // it was solved on the GPU); receivers copy it to the GPU after the broadcast.
  void panel_bcast(ProgramBuilder& b, const Communicator& comm, int me, int root, std::int64_t count,
                   std::vector<std::uint32_t>& to_device) const {
    if (count <= 0 || comm.size <= 1) return;
    const std::int64_t bytes = count * storage_bytes_;
    if (me == root && c_.host_staged && c_.panel_resource == GPU) b.copy(Copy::D2H, bytes, COPY);
    const int first = b.size();
    broadcast(b, comm, me, root, count, storage_bytes_);
    if (c_.device_messages) b.mark_device_buffers(first); // GPU-aware MPI: received into HBM
    if (me != root && c_.host_staged) to_device.push_back(b.copy_async(Copy::H2D, bytes, COPY));
  }

  // The local trailing GEMM split by columns over the rank's GPUs, one async GEMM each.
  void trailing_update(ProgramBuilder& b, std::int64_t rows, std::int64_t cols, std::int64_t k,
                       std::vector<std::uint32_t>& tags) const {
    const int gpus = c_.gpus_per_rank;
    for (int g = 0; g < gpus; ++g) {
      const std::int64_t share = cols / gpus + (g < cols % gpus ? 1 : 0);
      const std::uint32_t tag = b.compute_async(KERNEL_GEMM, GPU, rows, share, k, GEMM, c_.storage, g);
      if (tag != 0) tags.push_back(tag);
    }
  }

  const MxpConfig& c_;
  const ProcessGrid& g_;
  std::int64_t j_, jb_;
  int root_row_, root_col_;
  bool look_ahead_;
  std::int64_t storage_bytes_;
};

} // namespace

MxpScheduleGenerator::MxpScheduleGenerator(MxpConfig config)
    : config_(validated(config)), grid_(config_.p, config_.q, config_.column_major),
      steps_((config_.n + config_.nb - 1) / config_.nb) {}

ScheduleHeader MxpScheduleGenerator::header() const {
  ScheduleHeader h;
  h.set_benchmark(HPL_MXP);
  h.set_n(config_.n);
  h.set_nb(config_.nb);
  h.set_p(config_.p);
  h.set_q(config_.q);
  h.set_depth(config_.depth);
  h.set_pfact("getrf-nopiv");
  h.set_bcast(to_string(config_.bcast));
  h.set_swap("none");
  h.set_swap_threshold(0);
  h.set_steps(steps_);
  h.set_storage(config_.storage);
  h.set_column_major(config_.column_major);
  return h;
}

double MxpScheduleGenerator::step_flops(std::int64_t k) const {
  const double n = static_cast<double>(config_.n);
  if (k == steps_) return n * n;
  const auto f = [](double m) { return 2.0 / 3.0 * m * m * m + 0.5 * m * m; };
  const double n_k = static_cast<double>(config_.n - k * config_.nb);
  const double n_k1 = static_cast<double>(std::max<std::int64_t>(0, config_.n - (k + 1) * config_.nb));
  return f(n_k) - f(n_k1);
}

double MxpScheduleGenerator::total_flops() const {
  return hpl_flops(config_.n);
}

void MxpScheduleGenerator::step(std::int64_t k, StepSchedule& out, const std::vector<bool>* only) const {
  if (k < 0 || k > steps_)
    throw std::out_of_range("MxpScheduleGenerator::step: k must be in [0, " + std::to_string(steps_) +
                            "], got " + std::to_string(k));
  const int ranks = grid_.size();
  if (only != nullptr && only->size() != static_cast<std::size_t>(ranks))
    throw std::invalid_argument("MxpScheduleGenerator::step: only.size() must be P*Q = " +
                                std::to_string(ranks) + ", got " + std::to_string(only->size()));
  OpRecycler recycler;
  recycler.harvest(out);
  const bool final_step = k == steps_;
  out.set_step(k);
  out.set_final_solve(final_step);
  out.set_jb(final_step ? 0 : std::min(config_.nb, config_.n - k * config_.nb));
  out.set_col_offset(final_step ? config_.n : k * config_.nb);
  out.set_flops(step_flops(k));
  const MxpStepEmitter emitter(config_, grid_, k);
  for (int r = 0; r < ranks; ++r) {
    if (only != nullptr && !(*only)[static_cast<std::size_t>(r)]) continue;
    RankProgram* program = out.add_ranks();
    program->set_rank(r);
    ProgramBuilder b(program, &recycler);
    if (final_step)
      emit_refinement(b, grid_, grid_.row_of(r), grid_.col_of(r), config_);
    else
      emitter.emit(b, grid_.row_of(r), grid_.col_of(r));
    if (program->ops_size() == 0) out.mutable_ranks()->RemoveLast();
  }
}

} // namespace hplsim::traces
