#pragma once
// Faults inside a replay (docs/faults.md): what the transport does when a
// message meets a downed link, the injector actors that take links and nodes
// down at their times, and the log of what the faults did.
//
// Transport (docs/faults.md, "Transport semantics of a flap"): SimGrid fails
// every communication that crosses a link while it is off
// (NetworkFailureException on both ends; one started on such a route fails at
// once). The sender's NIC finds the loss when its packet timeout expires
// (Cassini's SPT timeout), then its retry handler waits the next of its waits
// (0, 4, 8, 12 s) and sends again, re-routed by adaptive routing when another
// path exists (the zone avoids links that are off), else over the same path.
// The receive stays posted, as MPI's receive does under the NIC's retries: the
// receiver waits until the retried message has landed (redelivery). Traffic of
// a pair of ranks is ordered: a later message of the pair is delivered only
// after every earlier one that failed has landed (head-of-line blocking). When
// the packet sent after the last wait times out too, the destination is
// undeliverable and the run aborts (completed: false), as MPI's default error
// handler does.
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/engine/platform.hpp"
#include "sim/faults/timeline.hpp"

namespace hplsim::sim {

/// Thrown inside a rank's actor when the run has aborted (a node failure, or
/// a message whose retries are exhausted): the actor unwinds and ends.
struct RunAborted {};

/// What the faults did, event by event (faults.csv) and in total.
struct FaultLog {
  struct Entry {
    int event = -1;            // FaultTimeline id; -1: none matched
    int messages_failed = 0;   // transfers that failed at least once because of it
    int retries = 0;           // retries they took
    double retry_wait_s = 0.0; // time they spent waiting for retries (summed over messages)
    double first_s = std::numeric_limits<double>::infinity(); // first failure it caused
    double last_s = 0.0;                                      // last message it delayed completed
    std::optional<double> delay_s; // what it added to the run (fast mode: its window against the baseline)
  };
  std::map<int, Entry> by_event;
  std::map<int, double> flap_start_s;      // when each flap took its link down
  std::optional<std::string> abort_reason; // set when the run aborted
  double abort_time_s = 0.0;
  int abort_event = -1; // the timeline event that ended the run
  /// False when the node failures were not simulated (fast mode): their
  /// outcome is then computed from the run's steps (record_faults).
  bool node_failures_simulated = true;
};

/// The faults of one replay: injector actors and the retry handler the rank
/// actors use. Created before the replay starts; outlives it.
class FaultsRuntime {
public:
  FaultsRuntime(const Platform& platform, const FaultTimeline& timeline);

  /// Starts the daemon actors that take links down and up and fail nodes at
  /// their times. Call once, before Engine::run().
  void start();

  /// A message, for the ordering of its pair: `seq` counts the messages from
  /// `from` to `to`.
  struct MessageId {
    int from = -1, to = -1;
    std::int64_t seq = 0;
  };

  /// Runs `attempt` (start a transfer from the calling rank and wait for it)
  /// until it succeeds. On a network failure (seen when it happens: the rank
  /// was waiting) the sender waits for the packet timeout, then the next retry
  /// wait, and tries again; the receiver (`sender` false) tries again at once.
  /// When the retries are exhausted the run aborts: throws RunAborted. `id`,
  /// when given, marks the message failed for its pair's ordering.
  void with_retries(bool sender, const std::function<void()>& attempt, const MessageId* id = nullptr);
  /// The retry of an asynchronous transfer started at `attempt_s` that failed
  /// and was found failed when waited for: `reissue` starts it again, at the
  /// failure's time plus the packet timeout plus the next retry wait, or at
  /// once when that time has passed (sender); at once for a receiver. `tries`
  /// counts the retries this transfer had so far (in/out).
  simgrid::s4u::ActivityPtr retry_async(bool sender, int& tries, double attempt_s,
                                        const std::function<simgrid::s4u::ActivityPtr()>& reissue,
                                        const MessageId* id = nullptr);

  /// An asynchronous send the sender waits for later (PendingOps): the
  /// NIC's retry handler resends it at its times whatever the sender does
  /// meanwhile. Waiting for it at the sender's next wait would not do: a
  /// sender that blocks on its peer while the peer waits for the message
  /// (await_delivery) would never resend it (a deadlock). So when the send
  /// may have failed, an actor on the sender's host takes it over (`actor`):
  /// it waits for the transfer and resends it at the retry handler's times;
  /// the sender's wait then joins that actor.
  struct BackgroundSend {
    int from = -1, to = -1;
    simgrid::s4u::Host* host = nullptr; // the sender's
    simgrid::s4u::ActivityPtr activity; // the transfer (after retries: the one that got through)
    std::function<simgrid::s4u::ActivityPtr()> reissue;
    std::function<void()> failed, landed; // mark it failed (its pair's order); it got through
    double start_s = 0.0;                 // its launch
    simgrid::s4u::ActorPtr actor;         // the retrying actor, once taken over
    bool sender_waits = false;            // the sender waits for it itself: it retries it
    bool aborted = false;                 // its retries ran out: the run aborted
  };
  /// Waits for the send `activity` (launched at `launch_s`, `tries` retries
  /// so far) and, each time its transfer fails, marks it (`failed`, may be
  /// empty) and resends it through retry_async; `activity` ends as the
  /// transfer that got through. Returns whether it was resent; throws
  /// RunAborted when the retries run out.
  bool resend_until_through(simgrid::s4u::ActivityPtr& activity, int& tries, double launch_s,
                            const std::function<simgrid::s4u::ActivityPtr()>& reissue,
                            const std::function<void()>& failed);
  /// Watches `send` from its launch until its sender waits for it (or the
  /// object goes): taken over at once when a NIC cable its pair crosses is
  /// down, or when a link goes down while it is pending.
  void watch_send(const std::shared_ptr<BackgroundSend>& send);

  /// A transfer that started at `attempt_s` and has failed by now: when it
  /// failed (the last link that went down since it started, else its start,
  /// when its route was already down).
  double failure_time_s(double attempt_s) const;

  /// The message `id` failed: until it lands, the later messages of its pair
  /// wait for it (head-of-line blocking). Idempotent.
  void mark_failed(const MessageId& id);
  /// Blocks until every earlier message of `id`'s pair that failed has landed;
  /// returns the time (now when none is outstanding).
  double await_in_order(const MessageId& id);

  /// The message `seq` (counted per ordered pair of ranks) from `from` to `to`
  /// has landed after a retry: its receiver, waiting in await_delivery or
  /// coming to it later, goes on.
  void delivered(int from, int to, std::int64_t seq);
  /// Called by the receiver of a message whose transfer failed: blocks until
  /// the sender's retry has landed it; returns that time.
  double await_delivery(int from, int to, std::int64_t seq);

  /// An abort kills these actors (the replay's ranks) instead of every actor:
  /// a fast-mode window's controller must live on to report it.
  void kill_on_abort(std::vector<simgrid::s4u::ActorPtr> actors) { victims_ = std::move(actors); }

  /// For a replay that only asks whether its one flap failed a transfer (a
  /// fast-mode fault window: one that failed none costs nothing, whatever
  /// the replay does after it): when the flap's link comes back up and no
  /// transfer has failed, the ranks stop there (kill_on_abort's, else every
  /// actor) and ended_unfelt() says so. Set before start(); ignored unless
  /// the timeline is one flap.
  void end_when_unfelt(bool on) { end_when_unfelt_ = on; }
  /// The replay stopped as end_when_unfelt says: its flap failed nothing.
  bool ended_unfelt() const { return ended_unfelt_; }
  /// Called as a flap is due, before it takes its link down: returning false
  /// leaves the link up, as if the timeline had no such flap (a fast-mode
  /// fault window's copy that goes on as its baseline). Set before start().
  void before_flap(std::function<bool(const FlapEvent&)> hook) { before_flap_ = std::move(hook); }

  /// The replay's last active rank is done with `step`: a flap timed from its
  /// end (FlapEvent::after_step) starts counting.
  void step_done(std::int64_t step);
  /// `rank` is done with `step`: a flap timed from the end of `step` on its
  /// ranks (FlapEvent::after_ranks) starts counting once all of them are.
  void rank_step_done(int rank, std::int64_t step);

  /// Throws RunAborted when the run has aborted (checked between ops).
  void check_aborted() const {
    if (log_.abort_reason) throw RunAborted{};
  }
  const FaultLog& log() const { return log_; }
  /// Transfers of `rank` that failed so far, as sender or receiver (its actor noted them).
  int failures_of(int rank) const { return failures_[static_cast<std::size_t>(rank)]; }
  /// faults.retry.collective_recovery_s: what a collective with a stalled member adds (collective_sync.hpp).
  double collective_recovery_s() const { return timeline_.collective_recovery_s; }
  const FaultTimeline& timeline() const { return timeline_; }

private:
  /// A flap's actor: waits for its start, takes its link down and up
  /// (FlapEvent), and ends the replay there when `may_end_unfelt` and nothing
  /// failed (end_when_unfelt).
  void run_flap(const FlapEvent& flap, bool may_end_unfelt);
  void abort(const std::string& reason, int event);
  /// Kills the ranks (kill_on_abort's, else every actor).
  void stop_ranks();
  /// No transfer has failed so far (end_when_unfelt).
  bool nothing_failed() const;
  /// Transfers failed as `link` went down at `down_s` (flap `flap`): when
  /// their retries must take the same link (a NIC cable, or any link under
  /// non-adaptive routing) and it is still down at every resend, their chain
  /// is cancelled 5 T + 24 s after the loss and the run aborts then, whatever
  /// its ranks are doing (the retry handler acts on its own; a rank learns of
  /// a failed asynchronous send only when it waits for it).
  void watch_cancel(int link, double down_s, int flap);
  void note_failure(bool sender, double wait_s, bool first, int event, double failed_s);
  /// The flap a transfer that failed at `failed_s` met: the last to take a link down by then.
  int flap_at(double failed_s) const;
  /// The sender's side of a failure at `failed_s` after `tries` retries:
  /// waits until the retry's time, or aborts at the cancel's.
  void sender_retry(std::size_t tries, double failed_s, const MessageId* id);
  int active_flap() const;

  const Platform& platform_;
  const FaultTimeline& timeline_;
  FaultLog log_;
  std::unordered_map<const simgrid::s4u::Host*, int> rank_of_host_; // a rank's CPU host
  std::vector<int> failures_;                                       // by rank
  std::vector<int> down_;    // flap ids currently down, in the order they went down
  std::map<int, int> holds_; // topology link -> flaps holding it down
  using MessageKey = std::tuple<int, int, std::int64_t>; // from, to, seq
  std::map<MessageKey, double> landed_;                  // retried messages landed, not yet awaited
  std::map<std::pair<int, int>, std::set<std::int64_t>> outstanding_; // per pair: failed, not landed
  struct LinkDown {
    double at_s = 0.0; // when a link went down
    int flap = -1;     // the flap that took it down
  };
  std::vector<LinkDown> downs_; // in time order
  /// The last link to go down at or before `t_s` (null: none).
  const LinkDown* last_down(double t_s) const;
  std::vector<simgrid::s4u::ActorPtr> victims_; // empty: an abort kills every actor
  bool end_when_unfelt_ = false, ended_unfelt_ = false;
  std::function<bool(const FlapEvent&)> before_flap_;
  int failed_in_flight_ = 0; // transfers the flaps failed as their links went off
  /// Whether the pair of `send` crosses the NIC cable a flap of class NIC_PORT holds down.
  bool crosses_down_nic(const BackgroundSend& send) const;
  /// Hands `send` to an actor of its own (BackgroundSend).
  void take_over(const std::shared_ptr<BackgroundSend>& send);
  std::vector<std::weak_ptr<BackgroundSend>> watched_sends_;        // pending sends, not taken over
  std::size_t watched_pruned_ = 0;                                  // their count at the last pruning
  std::map<std::int64_t, double> step_done_s_;                      // steps done, when
  std::vector<char> watched_;                                       // by rank: in some flap's after_ranks
  std::map<std::pair<int, std::int64_t>, double> rank_step_done_s_; // (watched rank, step) done, when
  simgrid::s4u::ConditionVariablePtr step_cv_;
  simgrid::s4u::MutexPtr mutex_;
  simgrid::s4u::ConditionVariablePtr landed_cv_;
};

/// Waits for the transfer `comm`; with `faults`, a network failure (a link
/// flap) sends it again through the retry handler, `retry` starting each new
/// attempt. Without faults exactly comm->wait(). Returns true when it retried.
template <typename Retry>
bool wait_with_retries(FaultsRuntime* faults, simgrid::s4u::CommPtr& comm, const Retry& retry,
                       const FaultsRuntime::MessageId* id = nullptr) {
  if (faults == nullptr) {
    comm->wait();
    return false;
  }
  bool retried = false;
  faults->with_retries(
      true,
      [&]() {
        if (!comm) {
          comm = retry();
          retried = true;
        }
        try {
          comm->wait();
        } catch (const simgrid::NetworkFailureException&) {
          comm = nullptr;
          throw;
        }
      },
      id);
  return retried;
}

} // namespace hplsim::sim
