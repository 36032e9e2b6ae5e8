#include "sim/engine/rank_runner.hpp"

#include "models/random_draws.hpp"
#include "models/random_streams.hpp"
#include "sim/engine/faults_runtime.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace hplsim::sim {

namespace {

// Payload of every simulated message: SimGrid needs a pointer, the content is irrelevant.
int g_payload = 0;

} // namespace

RankRunner::RankRunner(ReplayState& st, int rank)
    : st_(st), rank_(rank), rng_(models::RandomStreams::jitter_seed(st.options.seed, rank)) {}

void RankRunner::operator()() {
  const std::size_t total = st_.steps.size();
  for (std::size_t pos = 0; pos < total; ++pos) {
    const double t0 = now();
    StepRecord& rec = st_.records[pos];
    // Set at the step's start, so a step a fault cuts short is on record.
    rec.start_s = std::min(rec.start_s, t0);
    accounts_.open(pos);
    if (const traces::RankProgram* prog = st_.window->program(pos, rank_))
      for (const auto& op : prog->ops())
        run_op(op, pos);
    // A step ends in SimGrid's time: an abort (a node failure) that comes while
    // the rank works on its own resources cuts the step short, and a run with
    // faults orders its events as the same run without them.
    pending_.catch_up();
    const double t1 = now();
    rec.end_s = std::max(rec.end_s, t1);
    st_.window->done(pos);
    if (st_.options.faults != nullptr) {
      st_.options.faults->rank_step_done(rank_, rec.step);
      if (++st_.ranks_done[pos] == st_.active) st_.options.faults->step_done(rec.step);
    }
    close_steps(pos);
    if (rank_ == first_active_rank() && st_.options.progress) st_.options.progress(double(pos + 1) / total);
  }
  pending_.finish_all();
  pending_.catch_up();
  close_steps(std::numeric_limits<std::size_t>::max());
  st_.makespan_s = std::max(st_.makespan_s, sg4::Engine::get_clock());
  ++st_.finished;
}

int RankRunner::first_active_rank() const {
  if (!st_.options.active_ranks) return 0;
  const auto& a = *st_.options.active_ranks;
  return static_cast<int>(std::find(a.begin(), a.end(), true) - a.begin());
}

// A step's accounts are final once no async op launched in it is pending
// and the rank is two steps further (look-ahead depth <= 1).
void RankRunner::close_steps(std::size_t current) {
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
void RankRunner::add_to_mean(std::size_t pos, const RankPhases& rank_phase_s) {
  RankMean& m = st_.step_means[pos];
  m.add(rank_phase_s);
  if (m.simulated() == st_.active) st_.records[pos].mean_phase_s = m.mean(st_.platform.ranks());
}

// The rank's time: SimGrid's clock, or later while the rank's own clock runs
// ahead on its private resources (local_s_).
double RankRunner::now() const {
  return std::max(sg4::Engine::get_clock(), local_s_);
}

void RankRunner::run_op(const traces::Op& op, std::size_t pos) {
  // Every op but the rank's private kernels, copies and waits meets the rest of
  // the simulation: SimGrid's clock first catches up with the rank's.
  const bool priv = (op.kind_case() == traces::Op::kCompute && op.compute().resource() == traces::GPU &&
                     gpu_is_private(op.compute().has_device() ? op.compute().device() : 0)) ||
                    (op.kind_case() == traces::Op::kCopy && st_.private_copies) ||
                    op.kind_case() == traces::Op::kWait;
  if (!priv) pending_.catch_up();
  const double t0 = now();
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
void RankRunner::polled_update(const traces::PolledUpdate& u, std::size_t pos) {
  bool arrived = false, in_swap = false;
  const auto probe = [&](bool wait) {
    pending_.catch_up();
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

void RankRunner::update_columns(const traces::PolledUpdate& u, std::int64_t cols, std::size_t pos) {
  traces::Compute& c = chunk_op_;
  c.set_kernel(traces::KERNEL_TRSM);
  c.set_resource(traces::CPU);
  c.set_m(u.jb());
  c.set_n(cols);
  c.set_k(0);
  c.set_phase(traces::TRSM);
  pending_.catch_up();
  compute(c, pos, sg4::Engine::get_clock());
  c.set_kernel(traces::KERNEL_GEMM);
  c.set_m(u.m());
  c.set_k(u.jb());
  c.set_phase(traces::GEMM);
  pending_.catch_up();
  compute(c, pos, sg4::Engine::get_clock());
}

// Whether `peer`'s next message to this rank is posted (MPI_Iprobe). A
// folded-away peer is taken to be ready when this rank is (phantom_transfer).
bool RankRunner::message_posted(int peer) {
  return is_phantom(peer) || peers_.mailbox(peer, rank_)->listen();
}

// Fast mode's collective pivot exchange (traces::Exchange, sim/engine/pivot_exchange.hpp).
void RankRunner::exchange(const traces::Exchange& x, std::size_t pos, double t0) {
  ++st_.stats.exchanges;
  if (pos != exchange_pos_) {
    exchange_pos_ = pos;
    exchange_seq_ = 0;
  }
  const PanelPart* part = x.has_panel() ? &panel_part(x, pos) : nullptr;
  PendingOps::hold_until(st_.exchanges->meet(rank_, x, pos, exchange_seq_++, part));
  // A swap roll priced later may have slowed this one down while it slept.
  if (x.has_roll())
    for (double again_s; (again_s = st_.exchanges->roll_done_s(rank_)) > sg4::Engine::get_clock();)
      PendingOps::hold_until(again_s);
  accounts_.add(pos, phase_index(x.phase()), t0, sg4::Engine::get_clock());
}

// The completion of a collective (traces::Sync, sim/engine/collective_sync.hpp):
// the wait for the communicator's last member counts in the op's phase.
void RankRunner::sync(const traces::Sync& x, std::size_t pos, double t0) {
  if (pos != sync_pos_) {
    sync_pos_ = pos;
    sync_seq_.clear();
  }
  // A member is stalled when a transfer of its failed since its last computation or collective: in the
  // collective's own messages (faults.retry.collective_recovery_s).
  FaultsRuntime* faults = st_.options.faults;
  const bool stalled = faults != nullptr && faults->failures_of(rank_) > failures_seen_;
  if (faults != nullptr) failures_seen_ = faults->failures_of(rank_);
  st_.syncs->meet(rank_, x, pos, sync_seq_[{x.base(), x.stride(), x.size()}]++, stalled,
                  faults != nullptr ? faults->collective_recovery_s() : 0.0);
  accounts_.add(pos, phase_index(x.phase()), t0, sg4::Engine::get_clock());
}

// A message's software overhead on this rank's main core, stretched by the detours there:
// the time the message waits for it beyond the overhead the protocol model already prices.
void RankRunner::message_noise(std::int64_t bytes, bool send) const {
  if (!st_.noise) return;
  const double o = st_.protocol == nullptr ? 0.0
                   : send                  ? st_.protocol->send_overhead_s(static_cast<double>(bytes))
                                           : st_.protocol->recv_overhead_s(static_cast<double>(bytes));
  if (const double delay_s = noise_delay_s(1, o); delay_s > 0.0) sg4::this_actor::sleep_for(delay_s);
}

bool RankRunner::is_phantom(int peer) const {
  return st_.options.active_ranks != nullptr && !(*st_.options.active_ranks)[static_cast<std::size_t>(peer)];
}

// A message with a folded-away (phantom) peer: the phantom is taken to be ready when this rank
// is (the ranks folded away are symmetric to the active ones), so the transfer starts now and
// crosses the real route between the two ranks' hosts, loading its links (docs/fast-mode.md, "folding").
void RankRunner::phantom_transfer(int from, int to, std::int64_t bytes, std::uint32_t tag, std::size_t pos,
                                  int phase, double t0, bool device) {
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
    // The phantom peer is not simulated: this rank's retry handler resends it.
    if (st_.options.faults) {
      pending_.set_last_retry(start);
      pending_.watch_last_send(from, to);
    }
    return;
  }
  wait_with_retries(st_.options.faults, comm, start);
  PendingOps::hold_until(not_before_s);
  accounts_.add(pos, phase, t0, sg4::Engine::get_clock());
}

// GPU-aware MPI (docs/aurora.md): a device-buffer message's extra
// software time on its sender, and its rate cap once it starts.
void RankRunner::device_overhead(bool device) const {
  if (device && st_.options.device_message_overhead_s > 0.0)
    sg4::this_actor::sleep_for(st_.options.device_message_overhead_s);
}

void RankRunner::start_comm(const sg4::CommPtr& comm, bool device) const {
  if (device && st_.options.device_message_rate_bytes_per_s > 0.0)
    comm->set_rate(st_.options.device_message_rate_bytes_per_s);
  comm->start();
}

void RankRunner::send(const traces::Send& s, std::size_t pos, double t0) {
  ++st_.stats.messages;
  const int phase = phase_index(s.phase());
  message_noise(s.bytes(), true);
  if (is_phantom(s.peer()))
    return phantom_transfer(rank_, s.peer(), s.bytes(), s.has_async_tag() ? s.async_tag() : 0, pos, phase, t0,
                            s.device());
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
      pending_.watch_last_send(rank_, peer);
    }
    return;
  }
  if (wait_with_retries(faults, comm, retry, &id)) landed();
  accounts_.add(pos, phase, t0, sg4::Engine::get_clock());
}

void RankRunner::recv(const traces::Recv& r, std::size_t pos, double t0) {
  // Recv.timer: the column the schedule's timer rule charges the receive to.
  const int charged = phase_index(r.has_timer() ? r.timer() : r.phase());
  const int phase = r.has_timer() && r.timer_outside_gemm() ? PhaseAccounts::outside_gemm(charged) : charged;
  message_noise(r.bytes(), false);
  const double extra_s =
      r.repeat() > 1
          ? (r.repeat() - 1) *
                peers_.message_latency_s(r.peer(), static_cast<double>(r.bytes() / r.repeat()), st_.protocol)
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

} // namespace hplsim::sim
