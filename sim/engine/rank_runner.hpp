#pragma once
// One rank's interpreter of its programs in the replay (sim/engine/replay.hpp),
// run inside the rank's SimGrid actor. rank_runner.cpp: the steps, the ops, the
// messages and collectives; rank_kernels.cpp: the kernels and copies on the
// rank's own CPU, GPUs and GPU link, priced there as private resources where
// nothing else uses them (sim/engine/private_resource.hpp).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/engine/pending_ops.hpp"
#include "sim/engine/phase_accounts.hpp"
#include "sim/engine/private_copy_link.hpp"
#include "sim/engine/private_resource.hpp"
#include "sim/engine/rank_peers.hpp"
#include "sim/engine/replay_state.hpp"
#include "traces/hpl_pfact.hpp"
#include "traces/schedule.pb.h"

namespace hplsim::sim {

class RankRunner {
public:
  RankRunner(ReplayState& st, int rank);
  /// Runs the rank's programs, step by step, to the end.
  void operator()();

private:
  // rank_runner.cpp: the steps, the ops, the messages and collectives.
  int first_active_rank() const;
  // A step's accounts are final once no async op launched in it is pending
  // and the rank is two steps further (look-ahead depth <= 1).
  void close_steps(std::size_t current);
  // The step's rank-mean phase times, once its last active rank has closed it.
  void add_to_mean(std::size_t pos, const RankPhases& rank_phase_s);
  // The rank's time: SimGrid's clock, or later while the rank's own clock runs
  // ahead on its private resources (local_s_).
  double now() const;
  void run_op(const traces::Op& op, std::size_t pos);
  // HPL_pdupdateTT with the next panel still to come (traces::PolledUpdate):
  // probe on entry and after each swap op, then DTRSM + DGEMM chunks with a
  // probe after each until the panel is in, then the columns left in one go.
  void polled_update(const traces::PolledUpdate& u, std::size_t pos);
  void update_columns(const traces::PolledUpdate& u, std::int64_t cols, std::size_t pos);
  // Whether `peer`'s next message to this rank is posted (MPI_Iprobe). A
  // folded-away peer is taken to be ready when this rank is (phantom_transfer).
  bool message_posted(int peer);
  // Fast mode's collective pivot exchange (traces::Exchange, sim/engine/pivot_exchange.hpp).
  void exchange(const traces::Exchange& x, std::size_t pos, double t0);
  // The completion of a collective (traces::Sync, sim/engine/collective_sync.hpp):
  // the wait for the communicator's last member counts in the op's phase.
  void sync(const traces::Sync& x, std::size_t pos, double t0);
  // A message's software overhead on this rank's main core, stretched by the detours there:
  // the time the message waits for it beyond the overhead the protocol model already prices.
  void message_noise(std::int64_t bytes, bool send) const;
  bool is_phantom(int peer) const;
  // A message with a folded-away (phantom) peer: the phantom is taken to be ready when this rank
  // is (the ranks folded away are symmetric to the active ones), so the transfer starts now and
  // crosses the real route between the two ranks' hosts, loading its links (docs/fast-mode.md, "folding").
  void phantom_transfer(int from, int to, std::int64_t bytes, std::uint32_t tag, std::size_t pos, int phase,
                        double t0, bool device);
  // GPU-aware MPI (docs/aurora.md): a device-buffer message's extra
  // software time on its sender, and its rate cap once it starts.
  void device_overhead(bool device) const;
  void start_comm(const sg4::CommPtr& comm, bool device) const;
  void send(const traces::Send& s, std::size_t pos, double t0);
  void recv(const traces::Recv& r, std::size_t pos, double t0);

  // rank_kernels.cpp: the kernels and copies on the rank's own CPU, GPUs and GPU link.
  // Fast mode's collective panel factorization: this rank's part (PanelPart), its kernels priced
  // as compute() prices them (kernel model, panel threading, jitter drawn in the same order, the
  // rank's core speed or its node's GPU factor), its flag copies as copy() prices them alone.
  const PanelPart& panel_part(const traces::Exchange& x, std::size_t pos);
  // The node's GPU factor in the step at `pos` (ReplayOptions::node_gpu_step_cv).
  double node_gpu_step_factor(std::size_t pos);
  void compute(const traces::Compute& c, std::size_t pos, double t0);
  // How much the detours of this rank's first `threads` cores stretch `work_s`
  // seconds of CPU work that start now (0 without noise).
  double noise_delay_s(int threads, double work_s) const;
  void copy(const traces::Copy& c, std::size_t pos, double t0);
  bool gpu_is_private(int device) const;
  // The rank's GPU `device` as a private resource, made on first use.
  PrivateResource& private_gpu(int device);
  PrivateCopyLink& private_copy_link(bool d2h);

  ReplayState& st_;
  int rank_;
  std::mt19937_64 rng_;
  std::size_t node_factor_pos_ = std::numeric_limits<std::size_t>::max(); // step of node_factor_
  double node_factor_ = 1.0;
  PhaseAccounts accounts_;
  double local_s_ = 0.0; // the rank's own clock (now())
  PendingOps pending_{rank_, accounts_, st_.options.faults, local_s_};
  std::vector<std::unique_ptr<PrivateResource>> gpus_;
  // Per GPU: gpu_is_private's answer once asked (-1: not yet). A host's pstate
  // count is fixed when the platform is built, and it was read for every op.
  mutable std::vector<signed char> gpu_private_;
  PrivateCopyLink h2d_, d2h_;
  RankPeers peers_{st_.platform, rank_};
  // Messages sent to and received from each peer, counted under faults only
  // (a retried message is matched to its receive by this number).
  std::unordered_map<int, std::int64_t> sent_to_, received_from_;
  int* recv_slot_ = nullptr;
  std::size_t exchange_pos_ = std::numeric_limits<std::size_t>::max(); // step of the exchanges counted
  int exchange_seq_ = 0;
  std::size_t sync_pos_ = std::numeric_limits<std::size_t>::max(); // step of the syncs counted
  std::map<std::tuple<int, int, int>, int> sync_seq_;              // by communicator
  int failures_seen_ = 0;          // FaultsRuntime::failures_of at the last computation or collective
  std::vector<std::int64_t> rows_; // panel_part's scratch
  PanelPart part_;
  traces::Compute chunk_op_; // PolledUpdate's DTRSM and DGEMM chunks
};

} // namespace hplsim::sim
