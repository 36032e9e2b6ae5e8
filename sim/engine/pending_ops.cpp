#include "sim/engine/pending_ops.hpp"

#include "sim/engine/faults_runtime.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace hplsim::sim {

namespace sg4 = simgrid::s4u;

void PendingOps::hold_until(double time_s) {
  if (time_s > sg4::Engine::get_clock()) sg4::this_actor::sleep_until(time_s);
}

void PendingOps::finish(std::size_t i) {
  Pending p = std::move(pending_[i]);
  pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(i));
  if (p.resource != nullptr) { // priced on the rank's own resource: the rank's clock moves on
    const double end_s = p.resource->finish_s(p.job);
    local_s_ = std::max(local_s_, end_s);
    accounts_.add(p.pos, p.phase, p.start_s, end_s);
    return;
  }
  catch_up();
  bool retried = false;
  if (p.background && p.background->actor) { // the retry handler resends it on its own
    p.background->actor->join();
    if (p.background->aborted) faults_->check_aborted();
    p.activity = p.background->activity;
  } else if (faults_ != nullptr && p.peer < 0 && p.reissue) { // a send the rank resends itself
    if (p.background) p.background->sender_waits = true;
    retried = faults_->resend_until_through(p.activity, p.tries, p.start_s, p.reissue, p.failed);
  } else {
    try {
      p.activity->wait();
    } catch (const simgrid::NetworkFailureException&) {
      if (faults_ == nullptr) throw;
      if (p.peer < 0) { // a send nobody resends
        if (p.failed) p.failed();
        throw;
      }
      // A receive: it lands with the sender's retry.
      faults_->mark_failed({p.peer, rank_, p.seq});
      p.not_before_s = std::max(p.not_before_s, faults_->await_delivery(p.peer, rank_, p.seq));
    }
  }
  if (retried && p.landed) p.landed();
  if (p.peer >= 0) p.not_before_s = std::max(p.not_before_s, deliver_in_order(p.peer, p.seq));
  hold_until(p.not_before_s);
  if (p.extra_s > 0.0) {
    sg4::this_actor::sleep_for(p.extra_s);
    accounts_.add(p.pos, p.phase, sg4::Engine::get_clock() - p.extra_s, sg4::Engine::get_clock());
  }
  // The op's own duration: from its launch to the activity's end (or its
  // capped completion), which may be earlier than now when the program waits
  // for it late.
  const double finish_s =
      p.activity->get_finish_time() >= 0 ? p.activity->get_finish_time() : sg4::Engine::get_clock();
  const double end_s = std::min(sg4::Engine::get_clock(), std::max(finish_s, p.not_before_s));
  accounts_.add(p.pos, p.phase, p.start_s, end_s);
}

void PendingOps::watch_last_send(int from, int to) {
  Pending& p = pending_.back();
  if (faults_ == nullptr || !p.reissue) return;
  auto send = std::make_shared<FaultsRuntime::BackgroundSend>();
  send->from = from;
  send->to = to;
  send->host = sg4::this_actor::get_host();
  send->activity = p.activity;
  send->reissue = p.reissue;
  send->failed = p.failed;
  send->landed = p.landed;
  send->start_s = p.start_s;
  p.background = send;
  faults_->watch_send(send);
}

double PendingOps::deliver_in_order(int peer, std::int64_t seq) {
  for (const Pending& q : pending_) {
    // A receive of 0 bytes has nothing left to send while in its latency: not a failure.
    if (q.peer != peer || q.seq >= seq || q.empty) continue;
    // Read without waiting (a wait or a test would complete it): SimGrid 3.32
    // gives a transfer a start time when it starts and a finish time only when
    // it completes; a link failure ends it with neither its finish time nor
    // anything left to send.
    const simgrid::s4u::Activity& a = *q.activity;
    if (a.get_start_time() >= 0.0 && a.get_finish_time() < 0.0 && a.get_remaining() <= 0.0)
      faults_->mark_failed({peer, rank_, q.seq});
  }
  return faults_->await_in_order({peer, rank_, seq});
}

void PendingOps::wait_kind(OpKind kind) {
  for (std::size_t i = pending_.size(); i-- > 0;)
    if (pending_[i].kind == kind) {
      done_tags_.push_back(pending_[i].tag);
      finish(i);
    }
}

void PendingOps::wait_for_copy_engine(int engines) {
  int in_flight = 0;
  for (const auto& p : pending_)
    in_flight += p.kind == OpKind::Copy;
  if (in_flight < engines) return;
  for (std::size_t i = 0; i < pending_.size(); ++i)
    if (pending_[i].kind == OpKind::Copy) {
      done_tags_.push_back(pending_[i].tag);
      finish(i);
      return;
    }
}

void PendingOps::wait_tag(std::uint32_t tag) {
  if (auto it = std::find(done_tags_.begin(), done_tags_.end(), tag); it != done_tags_.end()) {
    done_tags_.erase(it);
    return;
  }
  for (std::size_t i = 0; i < pending_.size(); ++i)
    if (pending_[i].tag == tag) return finish(i);
  throw std::runtime_error("schedule: rank " + std::to_string(rank_) + " waits for unknown tag " +
                           std::to_string(tag));
}

void PendingOps::finish_all() {
  while (!pending_.empty())
    finish(pending_.size() - 1);
}

bool PendingOps::busy(std::size_t pos) const {
  return std::any_of(pending_.begin(), pending_.end(), [pos](const Pending& p) { return p.pos == pos; });
}

} // namespace hplsim::sim
