#include "sim/engine/faults_runtime.hpp"

#include <algorithm>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>

#include <simgrid/Exception.hpp>
#include <simgrid/kernel/resource/Action.hpp>

namespace hplsim::sim {

namespace sg4 = simgrid::s4u;

namespace {

// Waits on `cv`. An actor killed in the wait (a run's abort kills every rank;
// the simulation's end kills the daemons) leaves it without the mutex, so the
// lock lets go of it without unlocking: an unlock is a simcall, and a dying
// actor that makes one in the middle of its unwinding is never resumed; its
// stack is then freed with every object on it alive (LeakSanitizer found the
// ranks' state leaked by an abort that caught three ranks in await_delivery).
void wait_or_die(sg4::ConditionVariable& cv, std::unique_lock<sg4::Mutex>& lock) {
  try {
    cv.wait(lock);
  } catch (const simgrid::ForcefulKillException&) {
    lock.release();
    throw;
  }
}

// Counts the transfers a link failed as it was turned off: SimGrid fails
// every transfer crossing a link inside Link::turn_off, one state change to
// FAILED each (StandardLinkImpl::turn_off); nothing else changes a network
// action's state during that call. One engine per process, one counter.
int* g_failed_transfers = nullptr;

void count_failed_transfers_once() {
  static const bool connected = [] {
    sg4::Link::on_communication_state_change_cb(
        [](simgrid::kernel::resource::NetworkAction&, simgrid::kernel::resource::Action::State previous) {
          using State = simgrid::kernel::resource::Action::State;
          if (g_failed_transfers != nullptr && (previous == State::INITED || previous == State::STARTED))
            ++*g_failed_transfers;
        });
    return true;
  }();
  (void)connected;
}

} // namespace

FaultsRuntime::FaultsRuntime(const Platform& platform, const FaultTimeline& timeline)
    : platform_(platform), timeline_(timeline), step_cv_(sg4::ConditionVariable::create()),
      mutex_(sg4::Mutex::create()), landed_cv_(sg4::ConditionVariable::create()) {
  failures_.assign(static_cast<std::size_t>(platform.ranks()), 0);
  for (int r = 0; r < platform.ranks(); ++r)
    rank_of_host_.emplace(platform.cpu(r), r);
  for (const FlapEvent& f : timeline_.flaps)
    for (const int rank : f.after_ranks) {
      if (rank < 0 || rank >= platform.ranks())
        throw std::logic_error("faults: a flap timed from the step of rank " + std::to_string(rank) +
                               ", which the run does not have");
      watched_.resize(static_cast<std::size_t>(platform.ranks()), 0);
      watched_[static_cast<std::size_t>(rank)] = 1;
    }
}

void FaultsRuntime::step_done(std::int64_t step) {
  const std::unique_lock<sg4::Mutex> lock(*mutex_);
  step_done_s_.emplace(step, sg4::Engine::get_clock());
  step_cv_->notify_all();
}

bool FaultsRuntime::crosses_down_nic(const BackgroundSend& send) const {
  const PlatformSpec& spec = platform_.spec();
  const int nics = std::max(1, spec.sockets * spec.nics_per_socket);
  for (const int id : down_) {
    const auto it = std::find_if(timeline_.flaps.begin(), timeline_.flaps.end(),
                                 [id](const FlapEvent& f) { return f.id == id; });
    if (it == timeline_.flaps.end() || it->link_class != NIC_PORT) continue;
    const auto node = static_cast<int>(it->index / nics), nic = static_cast<int>(it->index % nics);
    for (const auto& [a, b] : {std::pair{send.from, send.to}, std::pair{send.to, send.from}})
      if (spec.node_map[static_cast<std::size_t>(platform_.node_of(a))] == node &&
          platform_.nic_of(a, b) == nic)
        return true;
  }
  return false;
}

void FaultsRuntime::take_over(const std::shared_ptr<BackgroundSend>& send) {
  if (send->actor || send->sender_waits) return;
  // The actor holds the send only while it runs: the send holds the actor.
  const std::weak_ptr<BackgroundSend> watched = send;
  send->actor = sg4::Actor::create("retry" + std::to_string(send->from), send->host, [this, watched]() {
    const std::shared_ptr<BackgroundSend> send = watched.lock();
    if (!send) return; // its sender is gone (the run aborted)
    int tries = 0;
    bool retried = false;
    try {
      retried = resend_until_through(send->activity, tries, send->start_s, send->reissue, send->failed);
    } catch (const RunAborted&) {
      send->aborted = true;
      return;
    }
    if (retried && send->landed) send->landed();
  });
  send->actor->daemonize();
}

bool FaultsRuntime::resend_until_through(sg4::ActivityPtr& activity, int& tries, double launch_s,
                                         const std::function<sg4::ActivityPtr()>& reissue,
                                         const std::function<void()>& failed) {
  bool retried = false;
  while (true) {
    try {
      activity->wait();
      return retried;
    } catch (const simgrid::NetworkFailureException&) {
      if (failed) failed();
      // A mailbox send starts when it is matched, later than its launch:
      // SimGrid keeps the transfer's start time after a failure.
      const double started_s = activity->get_start_time();
      activity = retry_async(true, tries, started_s >= 0.0 ? started_s : launch_s, reissue);
      retried = true;
    }
  }
}

void FaultsRuntime::watch_send(const std::shared_ptr<BackgroundSend>& send) {
  if (!down_.empty() && crosses_down_nic(*send)) {
    take_over(send);
    return;
  }
  if (watched_sends_.size() > 2 * watched_pruned_ + 1024) {
    std::erase_if(watched_sends_, [](const std::weak_ptr<BackgroundSend>& w) {
      const auto s = w.lock();
      return !s || s->sender_waits;
    });
    watched_pruned_ = watched_sends_.size();
  }
  watched_sends_.push_back(send);
}

void FaultsRuntime::rank_step_done(int rank, std::int64_t step) {
  if (rank < 0 || static_cast<std::size_t>(rank) >= watched_.size() ||
      !watched_[static_cast<std::size_t>(rank)])
    return;
  const std::unique_lock<sg4::Mutex> lock(*mutex_);
  rank_step_done_s_.emplace(std::make_pair(rank, step), sg4::Engine::get_clock());
  step_cv_->notify_all();
}

void FaultsRuntime::delivered(int from, int to, std::int64_t seq) {
  const std::unique_lock<sg4::Mutex> lock(*mutex_);
  landed_[{from, to, seq}] = sg4::Engine::get_clock();
  if (const auto it = outstanding_.find({from, to}); it != outstanding_.end()) {
    it->second.erase(seq);
    if (it->second.empty()) outstanding_.erase(it);
  }
  landed_cv_->notify_all();
}

void FaultsRuntime::mark_failed(const MessageId& id) {
  if (landed_.count({id.from, id.to, id.seq}) != 0) return; // its retry has landed already
  outstanding_[{id.from, id.to}].insert(id.seq);
}

double FaultsRuntime::await_in_order(const MessageId& id) {
  const auto blocked = [&]() {
    const auto it = outstanding_.find({id.from, id.to});
    return it != outstanding_.end() && *it->second.begin() < id.seq;
  };
  if (!blocked()) return sg4::Engine::get_clock();
  std::unique_lock<sg4::Mutex> lock(*mutex_);
  while (blocked())
    wait_or_die(*landed_cv_, lock);
  return sg4::Engine::get_clock();
}

const FaultsRuntime::LinkDown* FaultsRuntime::last_down(double t_s) const {
  const auto it = std::upper_bound(downs_.begin(), downs_.end(), t_s,
                                   [](double t, const LinkDown& d) { return t < d.at_s; });
  return it == downs_.begin() ? nullptr : &*std::prev(it);
}

double FaultsRuntime::failure_time_s(double attempt_s) const {
  // The last link that went down at or before now; the transfer failed then if
  // it was already under way, else at its start (its route was down).
  const LinkDown* d = last_down(sg4::Engine::get_clock());
  return d == nullptr ? attempt_s : std::max(attempt_s, d->at_s);
}

double FaultsRuntime::await_delivery(int from, int to, std::int64_t seq) {
  std::unique_lock<sg4::Mutex> lock(*mutex_);
  const MessageKey key{from, to, seq};
  auto it = landed_.find(key);
  while (it == landed_.end()) {
    wait_or_die(*landed_cv_, lock);
    it = landed_.find(key);
  }
  const double at_s = it->second;
  landed_.erase(it);
  return at_s;
}

void FaultsRuntime::watch_cancel(int link, double down_s, int flap) {
  const PlatformSpec& spec = platform_.spec();
  const bool fixed_route =
      spec.routing != topo::Routing::Adaptive ||
      spec.topology->links().at(static_cast<std::size_t>(link)).kind == topo::LinkKind::Nic;
  if (!fixed_route) return; // adaptive routing takes the retries around a fabric link
  sg4::ActorPtr a =
      sg4::Actor::create("cancel" + std::to_string(flap), platform_.cpu(0), [this, link, down_s, flap]() {
        // The resends of sender_retry, timed from the loss: each goes through if
        // the link is up by then.
        double at_s = down_s;
        for (const double wait_s : timeline_.retry_waits_s) {
          at_s += timeline_.retry_timeout_s + wait_s;
          sg4::this_actor::sleep_until(at_s);
          if (holds_[link] == 0) return;
        }
        sg4::this_actor::sleep_until(at_s + timeline_.retry_timeout_s);
        abort("transport: a message still failed after " + std::to_string(timeline_.retry_waits_s.size()) +
                  " retries; its destination was declared undeliverable",
              flap);
      });
  a->daemonize();
}

void FaultsRuntime::start() {
  count_failed_transfers_once();
  const bool may_end_unfelt =
      end_when_unfelt_ && timeline_.flaps.size() == 1 && timeline_.node_failures.empty();
  // Daemon actors: they end with the last rank, so a fault timed after the
  // run's end neither runs nor stretches the simulation.
  for (const FlapEvent& flap : timeline_.flaps) {
    sg4::ActorPtr a = sg4::Actor::create("flap" + std::to_string(flap.id), platform_.cpu(0),
                                         [this, flap, may_end_unfelt]() { run_flap(flap, may_end_unfelt); });
    a->daemonize();
  }
  for (const DegradationEvent& d : timeline_.degradations) {
    if (d.from_s <= 0.0) continue; // from the start: in the platform's speeds
    sg4::ActorPtr a = sg4::Actor::create("degrade" + std::to_string(d.id), platform_.cpu(0), [this, d]() {
      sg4::this_actor::sleep_until(d.from_s);
      platform_.degrade(d.node, d.gpu);
    });
    a->daemonize();
  }
  if (!timeline_.node_failures.empty()) {
    const NodeFailureEvent f = timeline_.node_failures.front();
    sg4::ActorPtr a = sg4::Actor::create("node-failure", platform_.cpu(0), [this, f]() {
      sg4::this_actor::sleep_until(f.time_s);
      std::ostringstream reason;
      reason << "node " << f.node << " failed at " << f.time_s << " s (" << f.cause << ")";
      abort(reason.str(), f.id);
    });
    a->daemonize();
  }
}

void FaultsRuntime::run_flap(const FlapEvent& flap, bool may_end_unfelt) {
  double origin_s = 0.0;
  if (flap.after_step >= 0 && !flap.after_ranks.empty()) {
    std::unique_lock<sg4::Mutex> lock(*mutex_);
    for (const int rank : flap.after_ranks) {
      const auto key = std::make_pair(rank, flap.after_step);
      while (rank_step_done_s_.count(key) == 0)
        wait_or_die(*step_cv_, lock);
      origin_s = std::max(origin_s, rank_step_done_s_.at(key));
    }
  } else if (flap.after_step >= 0) {
    std::unique_lock<sg4::Mutex> lock(*mutex_);
    while (step_done_s_.count(flap.after_step) == 0)
      wait_or_die(*step_cv_, lock);
    origin_s = step_done_s_.at(flap.after_step);
  }
  sg4::this_actor::sleep_until(origin_s + flap.start_s);
  if (before_flap_ && !before_flap_(flap)) return;
  log_.flap_start_s[flap.id] = sg4::Engine::get_clock();
  down_.push_back(flap.id);
  // Repeated flaps of one link compose: it is down while any flap holds it.
  if (holds_[flap.link]++ == 0) {
    int failed = 0;
    g_failed_transfers = &failed;
    platform_.set_link_on(flap.link, false);
    g_failed_transfers = nullptr;
    downs_.push_back({sg4::Engine::get_clock(), flap.id});
    failed_in_flight_ += failed;
    if (failed > 0) watch_cancel(flap.link, sg4::Engine::get_clock(), flap.id);
    // The pending sends it may fail: those it failed in flight, and those
    // whose pair crosses the cable (they fail when their transfer starts).
    std::vector<std::shared_ptr<BackgroundSend>> take;
    for (const auto& w : watched_sends_)
      if (const auto s = w.lock();
          s && !s->actor && !s->sender_waits &&
          (s->activity->get_state() == sg4::Activity::State::FAILED || crosses_down_nic(*s)))
        take.push_back(s);
    for (const auto& s : take)
      take_over(s);
  }
  sg4::this_actor::sleep_until(origin_s + flap.start_s + flap.duration_s);
  down_.erase(std::find(down_.begin(), down_.end(), flap.id));
  if (--holds_[flap.link] == 0) platform_.set_link_on(flap.link, true);
  // Back up with no transfer failed: none can fail any more, and the rest
  // of the replay is of no use to the caller (end_when_unfelt).
  if (may_end_unfelt && nothing_failed()) {
    ended_unfelt_ = true;
    stop_ranks();
  }
}

void FaultsRuntime::abort(const std::string& reason, int event) {
  if (log_.abort_reason) return;
  log_.abort_reason = reason;
  log_.abort_time_s = sg4::Engine::get_clock();
  log_.abort_event = event;
  // HPL and HPL-MxP have no checkpoint and MPI's default error handler ends the
  // job: every rank stops now.
  stop_ranks();
}

bool FaultsRuntime::nothing_failed() const {
  // A transfer fails as its link goes off (counted then) or as it starts on a
  // route that is off. Either way its sender notes it at once (note_failure):
  // a blocking send or one the sender waits for throws in its wait, and a
  // pending send is taken over at the flap (BackgroundSend) when it crosses
  // the downed NIC cable. A pending send started on a downed fabric link
  // (routing that does not avoid it) is noted only when its sender waits for
  // it: its transfer's state says so.
  // note_failure logs every failure noted, the sender's or the receiver's.
  if (failed_in_flight_ > 0 || !log_.by_event.empty()) return false;
  for (const auto& w : watched_sends_)
    if (const auto s = w.lock(); s && s->activity && s->activity->get_state() == sg4::Activity::State::FAILED)
      return false;
  return true;
}

void FaultsRuntime::stop_ranks() {
  if (victims_.empty()) return sg4::Actor::kill_all();
  for (const sg4::ActorPtr& a : victims_)
    if (a != sg4::Actor::self()) a->kill();
}

int FaultsRuntime::active_flap() const {
  return down_.empty() ? -1 : down_.front();
}

int FaultsRuntime::flap_at(double failed_s) const {
  const LinkDown* d = last_down(failed_s);
  return d == nullptr ? active_flap() : d->flap;
}

void FaultsRuntime::note_failure(bool sender, double wait_s, bool first, int event, double failed_s) {
  // Called from the actor of the rank whose transfer failed.
  if (const auto it = rank_of_host_.find(sg4::this_actor::get_host()); it != rank_of_host_.end())
    ++failures_[static_cast<std::size_t>(it->second)];
  FaultLog::Entry& e = log_.by_event[event];
  e.event = event;
  e.first_s = std::min(e.first_s, failed_s);
  if (!sender) return;
  if (first) ++e.messages_failed;
  ++e.retries;
  e.retry_wait_s += wait_s;
}

void FaultsRuntime::sender_retry(std::size_t tries, double failed_s, const MessageId* id) {
  if (id != nullptr) mark_failed(*id);
  // The NIC finds the loss when the packet's timeout expires (Cassini's SPT
  // timeout); the packet sent after the last wait that times out too is
  // cancelled as undeliverable, and MPI's default error handler ends the job.
  const double found_s = failed_s + timeline_.retry_timeout_s;
  const int event = flap_at(failed_s);
  if (tries >= timeline_.retry_waits_s.size()) {
    if (found_s > sg4::Engine::get_clock()) sg4::this_actor::sleep_until(found_s);
    check_aborted();
    abort("transport: a message still failed after " + std::to_string(tries) +
              " retries; its destination was declared undeliverable",
          event);
    throw RunAborted{};
  }
  const double wait_s = timeline_.retry_waits_s[tries];
  const double resend_s = found_s + wait_s;
  note_failure(true, resend_s - failed_s, tries == 0, event, failed_s);
  if (resend_s > sg4::Engine::get_clock()) sg4::this_actor::sleep_until(resend_s);
  check_aborted();
}

void FaultsRuntime::with_retries(bool sender, const std::function<void()>& attempt, const MessageId* id) {
  std::size_t tries = 0;
  while (true) {
    check_aborted();
    try {
      attempt();
      return;
    } catch (const simgrid::NetworkFailureException&) {
      if (!sender) {
        note_failure(false, 0.0, tries == 0, active_flap(), sg4::Engine::get_clock());
        ++tries;
        continue;
      }
      // The rank was waiting on the transfer: it failed now.
      sender_retry(tries, sg4::Engine::get_clock(), id);
      ++tries;
    }
  }
}

sg4::ActivityPtr FaultsRuntime::retry_async(bool sender, int& tries, double attempt_s,
                                            const std::function<sg4::ActivityPtr()>& reissue,
                                            const MessageId* id) {
  check_aborted();
  if (sender)
    sender_retry(static_cast<std::size_t>(tries), failure_time_s(attempt_s), id);
  else {
    const double failed_s = failure_time_s(attempt_s);
    note_failure(false, 0.0, tries == 0, flap_at(failed_s), failed_s);
  }
  ++tries;
  return reissue();
}

} // namespace hplsim::sim
