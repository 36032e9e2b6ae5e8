#include "sim/engine/replay.hpp"

#include "models/random_draws.hpp"
#include "models/random_streams.hpp"
#include "sim/engine/collective_sync.hpp"
#include "sim/engine/faults_runtime.hpp"
#include "sim/engine/pending_ops.hpp"
#include "sim/engine/phase_accounts.hpp"
#include "sim/engine/pivot_exchange.hpp"
#include "sim/engine/rank_mean.hpp"
#include "sim/engine/rank_peers.hpp"
#include "sim/engine/replay_marks.hpp"
#include "sim/engine/step_window.hpp"
#include "traces/hpl_pfact.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <google/protobuf/arena.h>
#include <limits>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>

namespace hplsim::sim {

namespace {

// Payload of every simulated message: SimGrid needs a pointer, the content is irrelevant.
int g_payload = 0;

} // namespace

struct Replay::State {
  const Platform& platform;
  const models::KernelModels& kernels;
  const models::ProtocolModel* protocol;
  StepSource source;
  ReplayOptions options;
  std::vector<std::int64_t> steps;
  std::unique_ptr<StepWindow> window;
  std::vector<StepRecord> records;
  std::vector<RankMean> step_means;      // parallel to records (StepRecord::mean_phase_s)
  std::vector<RankPhases> rank_phase_s;  // per rank: its phase times summed over its closed steps
  std::vector<RankPhases> rank_kernel_s; // per rank: the seconds of its kernels, by phase
  std::vector<double> rank_swap_bcast_s; // per rank: broadcast work its probes did inside a row swap
  std::vector<int> ranks_done;           // parallel to records: active ranks done with the step
  ReplayMarks marks;
  std::unique_ptr<PivotExchanges> exchanges;
  std::unique_ptr<CollectiveSyncs> syncs;
  std::unique_ptr<models::NoiseModel> noise; // null when the run has no noise
  ReplayStats stats;
  double makespan_s = 0.0;
  int active = 0;
  int finished = 0;

  State(const Platform& p, const models::KernelModels& k, const models::ProtocolModel* pr, StepSource s,
        ReplayOptions o)
      : platform(p), kernels(k), protocol(pr), source(std::move(s)), options(std::move(o)) {}
};

namespace {

// One rank's interpreter. Runs inside its SimGrid actor.
class RankRunner {
public:
  RankRunner(Replay::State& st, int rank)
      : st_(st), rank_(rank), rng_(models::RandomStreams::jitter_seed(st.options.seed, rank)) {}

  void operator()() {
    const std::size_t total = st_.steps.size();
    for (std::size_t pos = 0; pos < total; ++pos) {
      const double t0 = sg4::Engine::get_clock();
      StepRecord& rec = st_.records[pos];
      // Set at the step's start, so a step a fault cuts short is on record.
      rec.start_s = std::min(rec.start_s, t0);
      accounts_.open(pos);
      if (const traces::RankProgram* prog = st_.window->program(pos, rank_))
        for (const auto& op : prog->ops())
          run_op(op, pos);
      const double t1 = sg4::Engine::get_clock();
      rec.end_s = std::max(rec.end_s, t1);
      st_.window->done(pos);
      if (st_.options.faults != nullptr && ++st_.ranks_done[pos] == st_.active)
        st_.options.faults->step_done(rec.step);
      close_steps(pos);
      if (rank_ == first_active_rank() && st_.options.progress) st_.options.progress(double(pos + 1) / total);
    }
    pending_.finish_all();
    close_steps(std::numeric_limits<std::size_t>::max());
    st_.makespan_s = std::max(st_.makespan_s, sg4::Engine::get_clock());
    ++st_.finished;
  }

private:
  int first_active_rank() const {
    if (!st_.options.active_ranks) return 0;
    const auto& a = *st_.options.active_ranks;
    return static_cast<int>(std::find(a.begin(), a.end(), true) - a.begin());
  }

  // A step's accounts are final once no async op launched in it is pending
  // and the rank is two steps further (look-ahead depth <= 1).
  void close_steps(std::size_t current) {
    accounts_.close(
        current, [this](std::size_t pos) { return pending_.busy(pos); },
        [this](std::size_t pos, const RankPhases& phase_s) {
          StepRecord& rec = st_.records[pos];
          RankPhases& total = st_.rank_phase_s[static_cast<std::size_t>(rank_)];
          for (std::size_t p = 0; p < phase_s.size(); ++p) {
            rec.phase_s[p] = std::max(rec.phase_s[p], phase_s[p]);
            total[p] += phase_s[p];
          }
          add_to_mean(pos, phase_s);
        });
  }

  // The step's rank-mean phase times, once its last active rank has closed it.
  void add_to_mean(std::size_t pos, const RankPhases& rank_phase_s) {
    RankMean& m = st_.step_means[pos];
    m.add(rank_phase_s);
    if (m.simulated() == st_.active) st_.records[pos].mean_phase_s = m.mean(st_.platform.ranks());
  }

  void run_op(const traces::Op& op, std::size_t pos) {
    const double t0 = sg4::Engine::get_clock();
    switch (op.kind_case()) {
    case traces::Op::kCompute:
      return compute(op.compute(), pos, t0);
    case traces::Op::kSend:
      return send(op.send(), pos, t0);
    case traces::Op::kRecv:
      return recv(op.recv(), pos, t0);
    case traces::Op::kCopy:
      return copy(op.copy(), pos, t0);
    case traces::Op::kWait:
      return pending_.wait_tag(op.wait().async_tag());
    case traces::Op::kExchange:
      return exchange(op.exchange(), pos, t0);
    case traces::Op::kSync:
      return sync(op.sync(), pos, t0);
    case traces::Op::kPolledUpdate:
      return polled_update(op.polled_update(), pos);
    case traces::Op::kMark:
      return st_.marks.pass(op.mark().id(), t0);
    case traces::Op::KIND_NOT_SET:
      break;
    }
    throw std::runtime_error("schedule: rank " + std::to_string(rank_) + " has an empty op");
  }

  // HPL_pdupdateTT with the next panel still to come (traces::PolledUpdate):
  // probe on entry and after each swap op, then DTRSM + DGEMM chunks with a
  // probe after each until the panel is in, then the columns left in one go.
  void polled_update(const traces::PolledUpdate& u, std::size_t pos) {
    bool arrived = false, in_swap = false;
    const auto probe = [&](bool wait) {
      if (arrived || (!wait && !message_posted(u.peer()))) return;
      const double t0 = sg4::Engine::get_clock();
      for (const traces::Op& op : u.arrival().ops())
        run_op(op, pos);
      arrived = true;
      // HPL times this inside its swap (HPL_TIMING_LASWP spans HPL_pdlaswp*).
      if (in_swap) st_.rank_swap_bcast_s[static_cast<std::size_t>(rank_)] += sg4::Engine::get_clock() - t0;
    };
    probe(false);
    in_swap = true;
    for (const traces::Op& op : u.swap().ops()) {
      run_op(op, pos);
      probe(false);
    }
    in_swap = false;
    std::int64_t done = 0;
    while (!arrived && done < u.n()) {
      const std::int64_t cols = std::min(u.chunk(), u.n() - done);
      update_columns(u, cols, pos);
      done += cols;
      probe(false);
    }
    probe(true); // every column done first: HPL keeps probing until the panel is in
    if (u.n() > done) update_columns(u, u.n() - done, pos);
  }

  void update_columns(const traces::PolledUpdate& u, std::int64_t cols, std::size_t pos) {
    traces::Compute& c = chunk_op_;
    c.set_kernel(traces::KERNEL_TRSM);
    c.set_resource(traces::CPU);
    c.set_m(u.jb());
    c.set_n(cols);
    c.set_k(0);
    c.set_phase(traces::TRSM);
    compute(c, pos, sg4::Engine::get_clock());
    c.set_kernel(traces::KERNEL_GEMM);
    c.set_m(u.m());
    c.set_k(u.jb());
    c.set_phase(traces::GEMM);
    compute(c, pos, sg4::Engine::get_clock());
  }

  // Whether `peer`'s next message to this rank is posted (MPI_Iprobe). A
  // folded-away peer is taken to be ready when this rank is (phantom_transfer).
  bool message_posted(int peer) { return is_phantom(peer) || peers_.mailbox(peer, rank_)->listen(); }

  // Fast mode's collective pivot exchange (traces::Exchange, sim/engine/pivot_exchange.hpp).
  void exchange(const traces::Exchange& x, std::size_t pos, double t0) {
    ++st_.stats.exchanges;
    if (pos != exchange_pos_) {
      exchange_pos_ = pos;
      exchange_seq_ = 0;
    }
    const std::vector<double>* segments = x.has_panel() ? &panel_segments(x) : nullptr;
    PendingOps::hold_until(st_.exchanges->meet(rank_, x, pos, exchange_seq_++, segments));
    // A swap roll priced later may have slowed this one down while it slept.
    if (x.has_roll())
      for (double again_s; (again_s = st_.exchanges->roll_done_s(rank_)) > sg4::Engine::get_clock();)
        PendingOps::hold_until(again_s);
    accounts_.add(pos, phase_index(x.phase()), t0, sg4::Engine::get_clock());
  }

  // The completion of a collective (traces::Sync, sim/engine/collective_sync.hpp):
  // the wait for the communicator's last member counts in the op's phase.
  void sync(const traces::Sync& x, std::size_t pos, double t0) {
    if (pos != sync_pos_) {
      sync_pos_ = pos;
      sync_seq_.clear();
    }
    st_.syncs->meet(rank_, x, pos, sync_seq_[{x.base(), x.stride(), x.size()}]++);
    accounts_.add(pos, phase_index(x.phase()), t0, sg4::Engine::get_clock());
  }

  // Fast mode's collective panel factorization: this rank's CPU time before each of the panel's
  // jb pivot exchanges and after the last one, priced as compute() prices the same kernels
  // (kernel model, panel threading, jitter drawn in the same order, the rank's core speed).
  const std::vector<double>& panel_segments(const traces::Exchange& x) {
    const traces::PanelShape& shape = x.panel();
    const int member = traces::Communicator{x.base(), x.stride(), x.size()}.member_of(rank_);
    const traces::PanelGeometry g{shape.n(), shape.nb(), shape.row_begin(),
                                  x.jb(),    x.size(),   x.root_member()};
    traces::HplConfig config;
    config.nbmin = shape.nbmin();
    config.ndiv = shape.ndiv();
    config.pfact = static_cast<traces::HplConfig::Pfact>(shape.pfact());
    work_.clear();
    traces::panel_factorization_work(member, g, config, work_);
    const double core_s = kWorkUnitsPerSecond / sg4::this_actor::get_host()->get_speed();
    segments_.assign(1, 0.0);
    for (const traces::PanelWork& w : work_) {
      if (w.exchange) {
        segments_.push_back(0.0);
        continue;
      }
      const models::KernelShape k{w.kernel, traces::CPU, traces::FP64, w.m, w.n, w.k};
      double seconds = st_.kernels.seconds(k, st_.options.panel_threading);
      if (seconds <= 0.0) continue;
      seconds *= models::kernel_jitter_factor(rng_, st_.options.kernel_jitter_cv);
      segments_.back() += seconds * core_s;
    }
    return segments_;
  }

  // The node's GPU factor in the step at `pos` (ReplayOptions::node_gpu_step_cv).
  double node_gpu_step_factor(std::size_t pos) {
    if (st_.options.node_gpu_step_cv <= 0.0) return 1.0;
    if (pos != node_factor_pos_) {
      node_factor_pos_ = pos;
      node_factor_ = models::keyed_lognormal_mean1(
          models::RandomStreams::node_step_key(st_.options.seed, st_.platform.node_of(rank_), st_.steps[pos]),
          st_.options.node_gpu_step_cv);
    }
    return node_factor_;
  }

  void compute(const traces::Compute& c, std::size_t pos, double t0) {
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
      sg4::ExecPtr exec = sg4::Exec::init();
      exec->set_flops_amount(amount);
      exec->set_host(st_.platform.gpu(rank_, c.has_device() ? c.device() : 0));
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
  double noise_delay_s(int threads, double work_s) const {
    if (!st_.noise) return 0.0;
    return st_.noise->rank_delay_s(rank_, threads, sg4::Engine::get_clock(), work_s);
  }
  // A message's software overhead on this rank's main core, stretched by the detours there:
  // the time the message waits for it beyond the overhead the protocol model already prices.
  void message_noise(std::int64_t bytes, bool send) const {
    if (!st_.noise) return;
    const double o = st_.protocol == nullptr ? 0.0
                     : send                  ? st_.protocol->send_overhead_s(static_cast<double>(bytes))
                                             : st_.protocol->recv_overhead_s(static_cast<double>(bytes));
    if (const double delay_s = noise_delay_s(1, o); delay_s > 0.0) sg4::this_actor::sleep_for(delay_s);
  }

  bool is_phantom(int peer) const {
    return st_.options.active_ranks != nullptr &&
           !(*st_.options.active_ranks)[static_cast<std::size_t>(peer)];
  }

  // A message with a folded-away (phantom) peer: the phantom is taken to be ready when this rank
  // is (the ranks folded away are symmetric to the active ones), so the transfer starts now and
  // crosses the real route between the two ranks' hosts, loading its links (docs/fast-mode.md, "folding").
  void phantom_transfer(int from, int to, std::int64_t bytes, std::uint32_t tag, std::size_t pos, int phase,
                        double t0, bool device) {
    device_overhead(device);
    st_.platform.announce_flow(from, to, static_cast<double>(bytes), device);
    // GPU-aware MPI's rate cap: SimGrid 3.32 drops the rate of a host-to-host
    // comm (Comm::set_rate binds on mailbox comms only), so a capped phantom
    // message completes no earlier than its route latency plus bytes / cap
    // after it starts (the capped time on an idle path; under sharing the
    // slower of the two).
    const double rate = device ? st_.options.device_message_rate_bytes_per_s : 0.0;
    const double not_before_s = rate > 0.0
                                    ? sg4::Engine::get_clock() +
                                          peers_.message_latency_s(from == rank_ ? to : from,
                                                                   static_cast<double>(bytes), st_.protocol) +
                                          static_cast<double>(bytes) / rate
                                    : 0.0;
    const auto start = [this, from, to, bytes]() {
      return sg4::Comm::sendto_async(st_.platform.cpu(from), st_.platform.cpu(to),
                                     static_cast<std::uint64_t>(bytes));
    };
    sg4::CommPtr comm = start();
    if (tag != 0) {
      pending_.launch(tag, comm, pos, phase, t0, OpKind::Comm);
      pending_.set_last_not_before_s(not_before_s);
      // The phantom peer is not simulated: this rank's retry handler waits.
      if (st_.options.faults) pending_.set_last_retry(start);
      return;
    }
    wait_with_retries(st_.options.faults, comm, start);
    PendingOps::hold_until(not_before_s);
    accounts_.add(pos, phase, t0, sg4::Engine::get_clock());
  }

  // GPU-aware MPI (docs/aurora.md): a device-buffer message's extra
  // software time on its sender, and its rate cap once it starts.
  void device_overhead(bool device) const {
    if (device && st_.options.device_message_overhead_s > 0.0)
      sg4::this_actor::sleep_for(st_.options.device_message_overhead_s);
  }
  void start_comm(const sg4::CommPtr& comm, bool device) const {
    if (device && st_.options.device_message_rate_bytes_per_s > 0.0)
      comm->set_rate(st_.options.device_message_rate_bytes_per_s);
    comm->start();
  }

  void send(const traces::Send& s, std::size_t pos, double t0) {
    ++st_.stats.messages;
    const int phase = phase_index(s.phase());
    message_noise(s.bytes(), true);
    if (is_phantom(s.peer()))
      return phantom_transfer(rank_, s.peer(), s.bytes(), s.has_async_tag() ? s.async_tag() : 0, pos, phase,
                              t0, s.device());
    device_overhead(s.device());
    sg4::Mailbox* mb = peers_.mailbox(rank_, s.peer());
    const int peer = s.peer();
    const auto bytes = static_cast<std::uint64_t>(s.bytes());
    const bool device = s.device();
    const auto start = [this, mb, peer, bytes, device]() {
      st_.platform.announce_flow(rank_, peer, static_cast<double>(bytes), device);
      sg4::CommPtr comm = mb->put_init(&g_payload, bytes);
      start_comm(comm, device);
      return comm;
    };
    sg4::CommPtr comm = start();
    FaultsRuntime* faults = st_.options.faults;
    // Under faults a failed message is sent again host to host (its receive
    // stays posted: FaultsRuntime::await_delivery) and lands as message `seq`
    // of the pair.
    const std::int64_t seq = faults != nullptr ? sent_to_[peer]++ : 0;
    const auto retry = [this, peer, bytes]() {
      st_.platform.announce_flow(rank_, peer, static_cast<double>(bytes));
      return sg4::Comm::sendto_async(st_.platform.cpu(rank_), st_.platform.cpu(peer), bytes);
    };
    const auto landed = [this, faults, peer, seq]() { faults->delivered(rank_, peer, seq); };
    const FaultsRuntime::MessageId id{rank_, peer, seq};
    if (s.has_async_tag()) {
      pending_.launch(s.async_tag(), comm, pos, phase, t0, OpKind::Comm);
      if (faults != nullptr) {
        pending_.set_last_retry(retry, landed);
        // The pair's order binds its receiver (head-of-line blocking); the send
        // completes when its own data has gone.
        pending_.set_last_failed([faults, id]() { faults->mark_failed(id); });
      }
      return;
    }
    if (wait_with_retries(faults, comm, retry, &id)) landed();
    accounts_.add(pos, phase, t0, sg4::Engine::get_clock());
  }

  void recv(const traces::Recv& r, std::size_t pos, double t0) {
    const int phase = phase_index(r.phase());
    message_noise(r.bytes(), false);
    const double extra_s =
        r.repeat() > 1
            ? (r.repeat() - 1) * peers_.message_latency_s(
                                     r.peer(), static_cast<double>(r.bytes() / r.repeat()), st_.protocol)
            : 0.0;
    if (is_phantom(r.peer())) {
      ++st_.stats.messages;
      phantom_transfer(r.peer(), rank_, r.bytes(), r.has_async_tag() ? r.async_tag() : 0, pos, phase, t0,
                       r.device());
    } else {
      sg4::Mailbox* mb = peers_.mailbox(r.peer(), rank_);
      FaultsRuntime* faults = st_.options.faults;
      const int peer = r.peer();
      const std::int64_t seq = faults != nullptr ? received_from_[peer]++ : 0;
      if (r.has_async_tag()) {
        pending_.launch(r.async_tag(), mb->get_async<int>(&recv_slot_), pos, phase, t0, OpKind::Comm);
        if (faults != nullptr) pending_.set_last_receive(peer, seq, r.bytes());
      } else {
        try {
          mb->get<int>();
        } catch (const simgrid::NetworkFailureException&) {
          if (faults == nullptr) throw;
          faults->mark_failed({peer, rank_, seq});
          faults->await_delivery(peer, rank_, seq); // the receive stays posted
        }
        if (faults != nullptr) pending_.deliver_in_order(peer, seq);
        accounts_.add(pos, phase, t0, sg4::Engine::get_clock());
      }
    }
    if (extra_s <= 0.0) return;
    if (r.has_async_tag()) {
      pending_.set_last_extra_s(extra_s);
      return;
    }
    sg4::this_actor::sleep_for(extra_s);
    accounts_.add(pos, phase, sg4::Engine::get_clock() - extra_s, sg4::Engine::get_clock());
  }

  void copy(const traces::Copy& c, std::size_t pos, double t0) {
    if (!st_.platform.has_gpus()) return; // CPU-only machine: data already in host memory
    ++st_.stats.copies;
    if (!st_.options.copy_overlap) pending_.wait_kind(OpKind::Exec);
    // A GPU has `copy_engines` copy queues; a further copy waits for the oldest.
    pending_.wait_for_copy_engine(st_.options.copy_engines);
    sg4::Host* gpu = st_.platform.gpu(rank_, 0);
    sg4::Host* cpu = st_.platform.cpu(rank_);
    const bool d2h = c.direction() == traces::Copy::D2H;
    sg4::CommPtr comm =
        sg4::Comm::sendto_async(d2h ? gpu : cpu, d2h ? cpu : gpu, static_cast<std::uint64_t>(c.bytes()));
    const int phase = phase_index(c.phase());
    if (c.has_async_tag() && st_.options.copy_overlap)
      return pending_.launch(c.async_tag(), comm, pos, phase, t0, OpKind::Copy);
    comm->wait();
    accounts_.add(pos, phase, t0, sg4::Engine::get_clock());
    if (c.has_async_tag()) pending_.mark_done(c.async_tag());
  }

  Replay::State& st_;
  int rank_;
  std::mt19937_64 rng_;
  std::size_t node_factor_pos_ = std::numeric_limits<std::size_t>::max(); // step of node_factor_
  double node_factor_ = 1.0;
  PhaseAccounts accounts_;
  PendingOps pending_{rank_, accounts_, st_.options.faults};
  RankPeers peers_{st_.platform, rank_};
  // Messages sent to and received from each peer, counted under faults only
  // (a retried message is matched to its receive by this number).
  std::unordered_map<int, std::int64_t> sent_to_, received_from_;
  int* recv_slot_ = nullptr;
  std::size_t exchange_pos_ = std::numeric_limits<std::size_t>::max(); // step of the exchanges counted
  int exchange_seq_ = 0;
  std::size_t sync_pos_ = std::numeric_limits<std::size_t>::max(); // step of the syncs counted
  std::map<std::tuple<int, int, int>, int> sync_seq_;              // by communicator
  std::vector<traces::PanelWork> work_;                            // panel_segments' scratch
  std::vector<double> segments_;
  traces::Compute chunk_op_; // PolledUpdate's DTRSM and DGEMM chunks
};

} // namespace

Replay::Replay(const Platform& platform, const models::KernelModels& kernels,
               const models::ProtocolModel* protocol, StepSource source, ReplayOptions options)
    : state_(std::make_unique<State>(platform, kernels, protocol, std::move(source), std::move(options))) {
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
