#include "sim/engine/rank_runner.hpp"

#include "models/random_draws.hpp"
#include "models/random_streams.hpp"
#include "sim/engine/engine_setup.hpp"
#include "sim/engine/faults_runtime.hpp"
#include "traces/comm_pattern.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace hplsim::sim {

// Fast mode's collective panel factorization: this rank's part (PanelPart). A CPU panel's kernels
// run on the rank's panel cores one after the other; a GPU panel's (traces/hpl_pfact_device.cpp) on
// its GPU, each column's leaf kernel beside that column's exchange, the exchange bracketed by the
// flag copies when the code has them.
const PanelPart& RankRunner::panel_part(const traces::Exchange& x, std::size_t pos) {
  const traces::PanelShape& shape = x.panel();
  const int member = traces::Communicator{x.base(), x.stride(), x.size()}.member_of(rank_);
  const traces::PanelGeometry g{shape.n(), shape.nb(), shape.row_begin(), x.jb(), x.size(), x.root_member()};
  traces::HplConfig config;
  config.nbmin = shape.nbmin();
  config.ndiv = shape.ndiv();
  config.pfact = static_cast<traces::HplConfig::Pfact>(shape.pfact());
  traces::panel_local_rows(member, g, rows_);
  const bool device = shape.device();
  const std::vector<PanelKernel>& kernels = st_.panel_kernels.of(rows_, g, config, device);
  part_.before_s.assign(1, 0.0);
  part_.beside_s.clear();
  part_.after_exchange_s = 0.0;
  if (!device) {
    const double core_s = kWorkUnitsPerSecond / sg4::this_actor::get_host()->get_speed();
    for (const PanelKernel& k : kernels) {
      if (k.exchange) {
        part_.before_s.push_back(0.0);
        continue;
      }
      const double seconds = k.seconds * models::kernel_jitter_factor(rng_, st_.options.kernel_jitter_cv);
      part_.before_s.back() += seconds * core_s;
    }
    return part_;
  }
  // The flag copies, each alone on its link.
  const auto copy_s = [this](bool d2h, std::int64_t bytes) {
    return private_copy_link(d2h).alone_s(static_cast<double>(bytes));
  };
  const double d2h_s = shape.host_flag() ? copy_s(true, traces::doubles(4 + x.jb())) : 0.0;
  part_.after_exchange_s = shape.host_flag() ? copy_s(false, traces::doubles(4 + 2 * x.jb())) : 0.0;
  // As compute() runs a GPU kernel: the node's factor of the step, the rank's GPU's own speed.
  const double gpu_factor =
      node_gpu_step_factor(pos) * kWorkUnitsPerSecond / st_.platform.gpu(rank_, 0)->get_speed();
  double busy_s = 0.0;   // the member's time from the segment's start
  double beside_s = 0.0; // when the leaf kernel launched in the segment is done
  for (const PanelKernel& k : kernels) {
    if (k.exchange) {
      busy_s += d2h_s;
      part_.before_s.back() = busy_s;
      part_.beside_s.push_back(beside_s - busy_s);
      part_.before_s.push_back(0.0);
      busy_s = beside_s = 0.0;
      continue;
    }
    const double seconds =
        k.seconds * models::kernel_jitter_factor(rng_, st_.options.kernel_jitter_cv) * gpu_factor;
    if (k.beside) { // on the GPU's one stream: after a leaf kernel still running
      beside_s = std::max(beside_s, busy_s) + seconds;
    } else {
      busy_s = std::max(busy_s, beside_s) + seconds;
    }
  }
  part_.before_s.back() = std::max(busy_s, beside_s);
  return part_;
}

// The node's GPU factor in the step at `pos` (ReplayOptions::node_gpu_step_cv).
double RankRunner::node_gpu_step_factor(std::size_t pos) {
  if (st_.options.node_gpu_step_cv <= 0.0) return 1.0;
  if (pos != node_factor_pos_) {
    node_factor_pos_ = pos;
    node_factor_ = models::keyed_lognormal_mean1(
        models::RandomStreams::node_step_key(st_.options.seed, st_.platform.node_of(rank_), st_.steps[pos]),
        st_.options.node_gpu_step_cv);
  }
  return node_factor_;
}

void RankRunner::compute(const traces::Compute& c, std::size_t pos, double t0) {
  if (st_.options.faults != nullptr) failures_seen_ = st_.options.faults->failures_of(rank_);
  const models::KernelShape shape{c.kernel(), c.resource(), c.precision(), c.m(), c.n(), c.k()};
  double seconds = st_.kernels.seconds(shape, st_.options.threading_for(c.phase()));
  if (seconds <= 0.0) return;
  seconds *= models::kernel_jitter_factor(rng_, st_.options.kernel_jitter_cv);
  if (c.resource() == traces::GPU) seconds *= node_gpu_step_factor(pos);
  const int phase = phase_index(c.phase());
  if (phase >= 0)
    st_.rank_kernel_s[static_cast<std::size_t>(rank_)][static_cast<std::size_t>(phase)] += seconds;
  ++st_.stats.executions;
  const double amount = seconds * kWorkUnitsPerSecond;
  if (c.resource() == traces::GPU) {
    if (!st_.platform.has_gpus())
      throw std::runtime_error("schedule: GPU kernel on a machine without GPUs (rank " +
                               std::to_string(rank_) + ")");
    if (!st_.options.copy_overlap) pending_.wait_kind(OpKind::Copy);
    const int device = c.has_device() ? c.device() : 0;
    if (gpu_is_private(device)) {
      PrivateResource& gpu = private_gpu(device);
      // Accounted from t0, as an exec is: the wait for the copies is the kernel's.
      const std::uint64_t job = gpu.start(now(), amount, 0.0);
      if (c.has_async_tag())
        return pending_.launch_private(c.async_tag(), gpu, job, pos, phase, t0, OpKind::Exec);
      const double end_s = gpu.finish_s(job);
      local_s_ = std::max(local_s_, end_s);
      return accounts_.add(pos, phase, t0, end_s);
    }
    pending_.catch_up();
    sg4::ExecPtr exec = sg4::Exec::init();
    exec->set_flops_amount(amount);
    exec->set_host(st_.platform.gpu(rank_, device));
    exec->start();
    if (c.has_async_tag()) return pending_.launch(c.async_tag(), exec, pos, phase, t0, OpKind::Exec);
    exec->wait();
  } else {
    double noisy = amount;
    if (st_.noise) { // the detours of the kernel's cores, in this host's work units
      const double speed = sg4::this_actor::get_host()->get_speed();
      noisy += noise_delay_s(st_.options.threading_for(c.phase()).threads, amount / speed) * speed;
    }
    if (c.has_async_tag()) {
      sg4::ExecPtr exec = sg4::this_actor::exec_async(noisy);
      return pending_.launch(c.async_tag(), exec, pos, phase, t0, OpKind::Exec);
    }
    sg4::this_actor::execute(noisy);
  }
  accounts_.add(pos, phase, t0, sg4::Engine::get_clock());
}

// How much the detours of this rank's first `threads` cores stretch `work_s`
// seconds of CPU work that start now (0 without noise).
double RankRunner::noise_delay_s(int threads, double work_s) const {
  if (!st_.noise) return 0.0;
  return st_.noise->rank_delay_s(rank_, threads, sg4::Engine::get_clock(), work_s);
}

void RankRunner::copy(const traces::Copy& c, std::size_t pos, double t0) {
  if (!st_.platform.has_gpus()) return; // CPU-only machine: data already in host memory
  ++st_.stats.copies;
  if (!st_.options.copy_overlap) pending_.wait_kind(OpKind::Exec);
  // A GPU has `copy_engines` copy queues; a further copy waits for the oldest.
  pending_.wait_for_copy_engine(st_.options.copy_engines);
  const int phase = phase_index(c.phase());
  const bool d2h = c.direction() == traces::Copy::D2H;
  if (st_.private_copies) {
    PrivateCopyLink& link = private_copy_link(d2h);
    const auto bytes = static_cast<double>(c.bytes());
    const std::uint64_t job =
        link.resource->start(now(), bytes, link.latency_s(bytes), link.bound_bytes_per_s(bytes));
    if (c.has_async_tag() && st_.options.copy_overlap)
      return pending_.launch_private(c.async_tag(), *link.resource, job, pos, phase, t0, OpKind::Copy);
    const double end_s = link.resource->finish_s(job);
    local_s_ = std::max(local_s_, end_s);
    accounts_.add(pos, phase, t0, end_s);
    if (c.has_async_tag()) pending_.mark_done(c.async_tag());
    return;
  }
  pending_.catch_up();
  sg4::Host* gpu = st_.platform.gpu(rank_, 0);
  sg4::Host* cpu = st_.platform.cpu(rank_);
  sg4::CommPtr comm =
      sg4::Comm::sendto_async(d2h ? gpu : cpu, d2h ? cpu : gpu, static_cast<std::uint64_t>(c.bytes()));
  if (c.has_async_tag() && st_.options.copy_overlap)
    return pending_.launch(c.async_tag(), comm, pos, phase, t0, OpKind::Copy);
  comm->wait();
  accounts_.add(pos, phase, t0, sg4::Engine::get_clock());
  if (c.has_async_tag()) pending_.mark_done(c.async_tag());
}

// A GPU whose speed changes in the run (a degradation from a later time: more
// than one pstate) stays a SimGrid host.
bool RankRunner::gpu_is_private(int device) const {
  if (!st_.private_gpus) return false;
  const auto d = static_cast<std::size_t>(device);
  if (d >= gpu_private_.size()) gpu_private_.resize(d + 1, -1);
  signed char& known = gpu_private_[d];
  if (known < 0) known = st_.platform.gpu(rank_, device)->get_pstate_count() == 1 ? 1 : 0;
  return known != 0;
}

// The rank's GPU `device` as a private resource, made on first use.
PrivateResource& RankRunner::private_gpu(int device) {
  if (static_cast<std::size_t>(device) >= gpus_.size()) gpus_.resize(static_cast<std::size_t>(device) + 1);
  auto& g = gpus_[static_cast<std::size_t>(device)];
  if (!g) g = std::make_unique<PrivateResource>(st_.platform.gpu(rank_, device)->get_speed());
  return *g;
}

PrivateCopyLink& RankRunner::private_copy_link(bool d2h) {
  PrivateCopyLink& l = d2h ? d2h_ : h2d_;
  if (!l.resource) l = PrivateCopyLink::of(st_.platform.spec());
  return l;
}

} // namespace hplsim::sim
