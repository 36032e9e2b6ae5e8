#pragma once
// One rank's asynchronous ops in the replay: the kernels, messages and copies
// it launched with an async tag and has not waited for yet. Waiting for one
// records its time in the rank's phase accounts (sim/engine/phase_accounts.hpp).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/engine/faults_runtime.hpp"
#include "sim/engine/phase_accounts.hpp"
#include "sim/engine/private_resource.hpp"

namespace hplsim::sim {

enum class OpKind { Exec, Comm, Copy };

class PendingOps {
public:
  /// `faults`: the retry handler for transfers that fail (nullptr: none). `local_s`:
  /// the rank's own clock, which runs ahead of SimGrid's while the rank works on
  /// its private resources (sim/engine/private_resource.hpp); waiting for a SimGrid
  /// activity first sleeps until it, waiting for a private job moves it on.
  PendingOps(int rank, PhaseAccounts& accounts, FaultsRuntime* faults, double& local_s)
      : rank_(rank), accounts_(accounts), faults_(faults), local_s_(local_s) {}

  /// An op launched at `start_s` in step position `pos`, of `phase` (-1: none).
  void launch(std::uint32_t tag, simgrid::s4u::ActivityPtr activity, std::size_t pos, int phase,
              double start_s, OpKind kind) {
    Pending p;
    p.tag = tag;
    p.activity = std::move(activity);
    p.pos = pos;
    p.phase = phase;
    p.start_s = start_s;
    p.kind = kind;
    pending_.push_back(std::move(p));
  }
  /// A job launched on one of the rank's private resources.
  void launch_private(std::uint32_t tag, PrivateResource& resource, std::uint64_t job, std::size_t pos,
                      int phase, double start_s, OpKind kind) {
    launch(tag, nullptr, pos, phase, start_s, kind);
    pending_.back().resource = &resource;
    pending_.back().job = job;
  }
  /// The op launched last: the latency of the further messages an aggregated
  /// receive stands for, waited after it completes.
  void set_last_extra_s(double extra_s) { pending_.back().extra_s = extra_s; }
  /// The op launched last is a send that `reissue` starts again when it fails
  /// (a link flap), through the retry handler; `landed` (may be empty) is
  /// called once a retry has got it through.
  void set_last_retry(std::function<simgrid::s4u::ActivityPtr()> reissue, std::function<void()> landed = {}) {
    pending_.back().reissue = std::move(reissue);
    pending_.back().landed = std::move(landed);
  }
  /// The op launched last is a send under faults: `failed` marks it failed
  /// for its pair's order (FaultsRuntime::mark_failed) when its transfer fails.
  void set_last_failed(std::function<void()> failed) { pending_.back().failed = std::move(failed); }
  /// The send launched last (set_last_retry, set_last_failed), from rank
  /// `from` to `to`, is watched by the retry handler, which resends it on its
  /// own when it may have failed (FaultsRuntime::BackgroundSend).
  void watch_last_send(int from, int to);
  /// The op launched last receives message `seq` of the pair from `peer`
  /// under faults: when its transfer fails the receive stays posted until the
  /// sender's retry has landed the message (FaultsRuntime::await_delivery);
  /// once landed, it is delivered in the pair's order (deliver_in_order).
  void set_last_receive(int peer, std::int64_t seq, std::int64_t bytes) {
    pending_.back().peer = peer;
    pending_.back().seq = seq;
    pending_.back().empty = bytes <= 0;
  }
  /// Message `seq` from `peer` has landed: marks the pending receives of
  /// earlier messages from `peer` whose transfers have failed, then blocks
  /// until every earlier failed message of the pair has landed (head-of-line
  /// blocking). Returns the time.
  double deliver_in_order(int peer, std::int64_t seq);
  /// The op launched last completes no earlier than this (a phantom device message's rate cap).
  void set_last_not_before_s(double time_s) { pending_.back().not_before_s = time_s; }

  /// Waits for the op with `tag` (or takes it as done if it already ran).
  /// Throws std::runtime_error for a tag never launched (a schedule bug).
  void wait_tag(std::uint32_t tag);
  /// Waits for every pending op of a kind (copy/kernel serialisation when
  /// copies may not overlap kernels); their tags are remembered as done.
  void wait_kind(OpKind kind);
  /// Waits for the oldest pending copy when `engines` copies are in flight
  /// (a GPU's copy queues), its tag remembered as done.
  void wait_for_copy_engine(int engines);
  /// Remembers `tag` as done (an async op that ran synchronously).
  void mark_done(std::uint32_t tag) { done_tags_.push_back(tag); }
  /// Waits for all, newest first.
  void finish_all();
  /// Whether an op launched in step position `pos` is still pending.
  bool busy(std::size_t pos) const;

  /// Sleeps until `time_s` when it is in the future.
  static void hold_until(double time_s);
  /// Sleeps until the rank's own clock (SimGrid's clock catches up with it).
  void catch_up() const { hold_until(local_s_); }

private:
  struct Pending {
    std::uint32_t tag = 0;
    simgrid::s4u::ActivityPtr activity;
    PrivateResource* resource = nullptr; // a private job instead of an activity
    std::uint64_t job = 0;
    std::size_t pos = 0;
    int phase = -1;
    double start_s = 0.0;
    OpKind kind = OpKind::Exec;
    double extra_s = 0.0;      // latency of the further messages an aggregated receive stands for
    double not_before_s = 0.0; // a phantom device message's capped completion
    std::function<simgrid::s4u::ActivityPtr()> reissue;        // a send: starts it again
    std::function<void()> landed;                              // a send: its retry got through
    std::function<void()> failed;                              // a send: marks it failed (its pair's order)
    bool empty = false;                                        // a receive of 0 bytes
    int peer = -1;                                             // a receive's sender under faults, else -1
    std::int64_t seq = 0;                                      // its message's number in the pair
    int tries = 0;                                             // retries so far
    std::shared_ptr<FaultsRuntime::BackgroundSend> background; // a send the retry handler watches
  };
  void finish(std::size_t i);

  int rank_;
  PhaseAccounts& accounts_;
  FaultsRuntime* faults_;
  double& local_s_;
  std::vector<Pending> pending_;
  std::vector<std::uint32_t> done_tags_; // async ops that ran synchronously
};

} // namespace hplsim::sim
