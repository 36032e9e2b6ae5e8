// Faults inside the replay (sim/engine/faults_runtime.hpp) on tiny platforms,
// against closed forms: a message caught by a link flap is found lost after
// the packet timeout T (Cassini-1's SPT timeout, 2^30 ns), then waits the
// retry handler's next wait (0, 4, 8, 12 s: HPE's Cassini retry handler) and
// is sent again, so its retries leave at T, 2T + 4, 3T + 12 and 4T + 24 s
// after the loss and the last is cancelled at 5T + 24 s (the run aborts);
// adaptive routing re-routes the first retry around a flapped fabric link; a
// later message of the pair is delivered only after the failed one (head-of-
// line blocking); a degraded GPU runs its kernel at the degraded rate from the
// degradation's time on.
#include <gtest/gtest.h>

#include <functional>
#include <memory>

#include "models/kernel_model.hpp"
#include "sim/engine/engine_setup.hpp"
#include "sim/engine/faults_runtime.hpp"
#include "sim/engine/platform.hpp"
#include "sim/engine/replay.hpp"
#include "tests/sim/engine/isolated.hpp"
#include "tests/sim/engine/one_step.hpp"
#include "topologies/fat_tree.hpp"

namespace hplsim::sim {
namespace {

// Two leaves, two spines, one node per leaf, one NIC: node 0 -> node 1 crosses
// its NIC, leaf0 -> spine s, spine s -> leaf1, node 1's NIC (two minimal paths).
constexpr double kLatency_s = 1e-6;
constexpr double kSwitch_s = 0.5e-6;
constexpr double kNicBw = 10e9;
constexpr double kBytes = 1e9;                                                   // 0.1 s at the NIC's rate
constexpr double kTransfer_s = 4 * kLatency_s + 3 * kSwitch_s + kBytes / kNicBw; // idle path
constexpr double kFlapStart_s = 0.05;                                            // the message is in flight
constexpr double kT = kCassiniSptTimeout_s;                                      // 1.073741824 s

topo::FatTreeParams two_spines() {
  topo::FatTreeParams p;
  p.leaf_switches = 2;
  p.spine_switches = 2;
  p.endpoint_ports_per_leaf = 1;
  p.nics_per_node = 1;
  p.link_bandwidth_bytes_per_s = 40e9;
  p.nic_bandwidth_bytes_per_s = kNicBw;
  p.link_latency_s = kLatency_s;
  p.switch_latency_s = kSwitch_s;
  return p;
}

// Ranks 0 and 1 on the tree's two nodes, one rank and one NIC each.
PlatformSpec one_rank_per_node(const topo::FatTreeTopology& tree, topo::Routing routing) {
  PlatformSpec spec;
  spec.topology = &tree;
  spec.routing = routing;
  spec.node_map = {0, 1};
  spec.ranks_per_node = 1;
  spec.sockets = 1;
  spec.nics_per_socket = 1;
  spec.shm_bandwidth_bytes_per_s = 20e9;
  spec.rank_row = [](int) { return 0; };
  spec.rank_col = [](int r) { return r; };
  return spec;
}

struct Outcome {
  double makespan_s = 0.0, abort_s = -1.0;
  int retries = 0;
  bool ended_unfelt = false;
  double end_s = 0.0; // the simulated time at the end
};

traces::Op message_op(bool send, int peer, double bytes, std::uint32_t tag = 0) {
  traces::Op op;
  auto fill = [&](auto* m) {
    m->set_peer(peer);
    m->set_bytes(static_cast<std::int64_t>(bytes));
    m->set_phase(traces::BCAST);
    if (tag != 0) m->set_async_tag(tag);
  };
  if (send)
    fill(op.mutable_send());
  else
    fill(op.mutable_recv());
  return op;
}

// A GEMM of 2 m^3 flops on the rank's GPU, at the 1e12 flop/s of gpu_kernels().
traces::Op gpu_gemm(std::int64_t m) {
  traces::Op op;
  auto* c = op.mutable_compute();
  c->set_kernel(traces::KERNEL_GEMM);
  c->set_resource(traces::GPU);
  c->set_m(m);
  c->set_n(m);
  c->set_k(m);
  c->set_phase(traces::GEMM);
  return op;
}

traces::Op wait_op(std::uint32_t tag) {
  traces::Op op;
  op.mutable_wait()->set_async_tag(tag);
  return op;
}

models::KernelCalibration gpu_kernels() {
  models::KernelCalibration cal;
  auto* g = cal.add_kernels();
  g->set_name("gpu.gemm.fp64");
  g->set_peak_flops_per_s(1e12);
  g->set_max_efficiency(1.0);
  g->set_half_efficiency_size(0.0);
  g->set_launch_overhead_s(0.0);
  return cal;
}

// Replays `programs` (step 0) and then `step1` (when not empty) on the two
// nodes under `timeline`'s faults; `flap_on_path` makes each flap's link the
// leaf -> spine link of the idle route from rank 0 to rank 1 at t = 0
// (whichever spine routing picked), else the flap's link as given.
// `setup` (when set) configures the FaultsRuntime before it starts.
Outcome replay_under_faults(FaultTimeline timeline, topo::Routing routing, bool flap_on_path,
                            const std::vector<std::vector<traces::Op>>& programs,
                            const std::vector<std::vector<traces::Op>>& step1 = {},
                            const std::function<void(FaultsRuntime&)>& setup = {}) {
  const auto v = run_isolated([&]() {
    auto engine = create_engine();
    const topo::FatTreeTopology tree(two_spines());
    PlatformSpec spec = one_rank_per_node(tree, routing);
    spec.gpus_per_rank = 1;
    spec.pcie_bandwidth_bytes_per_s = 50e9;
    const Platform platform(spec);
    if (flap_on_path) {
      // Link names are "<kind><topology link id>..." (sim/engine/machine_zone.cpp).
      const std::string name = platform.route_names(0, 1).at(1);
      const auto digit = name.find_first_of("0123456789");
      const int link = std::stoi(name.substr(digit));
      EXPECT_EQ(tree.links().at(static_cast<std::size_t>(link)).kind, topo::LinkKind::Leaf) << name;
      for (auto& f : timeline.flaps)
        f.link = link;
    }
    const models::KernelModels kernels(gpu_kernels());
    FaultsRuntime faults(platform, timeline);
    if (setup) setup(faults);
    ReplayOptions ro = one_step_options();
    if (!step1.empty()) {
      ro.steps = 2;
      ro.step_list = {0, 1};
    }
    ro.faults = &faults;
    const StepSource source = [&](std::int64_t k, traces::StepSchedule& out) {
      out.set_step(k);
      for (std::size_t r = 0; r < programs.size(); ++r) {
        auto* p = out.add_ranks();
        p->set_rank(static_cast<int>(r));
        for (const auto& op : (k == 0 ? programs : step1)[r])
          *p->add_ops() = op;
      }
    };
    Replay replay(platform, kernels, nullptr, source, ro);
    replay.start();
    faults.start();
    engine->run();
    int retries = 0;
    for (const auto& [id, e] : faults.log().by_event)
      retries += e.retries;
    return std::vector<double>{replay.makespan_s(),
                               faults.log().abort_reason ? faults.log().abort_time_s : -1.0, double(retries),
                               faults.ended_unfelt() ? 1.0 : 0.0, sg4::Engine::get_clock()};
  });
  return {v.at(0), v.at(1), static_cast<int>(v.at(2)), v.at(3) != 0.0, v.at(4)};
}

// Replays two steps (`step0`, then `step1`) on the two nodes under
// `timeline`'s faults, minimal routing: the makespan.
double two_steps_under_faults(const FaultTimeline& timeline,
                              const std::vector<std::vector<traces::Op>>& step0,
                              const std::vector<std::vector<traces::Op>>& step1) {
  return replay_under_faults(timeline, topo::Routing::Minimal, false, step0, step1).makespan_s;
}

// Rank 0 sends kBytes to rank 1 at t = 0 under `timeline`'s faults.
Outcome send_under_faults(FaultTimeline timeline, topo::Routing routing, bool flap_on_path = false) {
  return replay_under_faults(std::move(timeline), routing, flap_on_path,
                             {{message_op(true, 1, kBytes)}, {message_op(false, 0, kBytes)}});
}

FaultTimeline nic_flap(double duration_s) {
  FaultTimeline t;
  FlapEvent f;
  f.id = 0;
  f.link_class = NIC_PORT;
  f.link = 0; // node 0's NIC cable (topologies/fat_tree.cpp lists the NIC links first)
  f.start_s = kFlapStart_s;
  f.duration_s = duration_s;
  t.flaps.push_back(f);
  t.retry_waits_s = kCassiniRetryWaits_s;
  t.retry_timeout_s = kT;
  return t;
}

// A flap timed from the end of step 0 (a fast-mode fault window's) counts
// from when the ranks it names are done with it. Step 0: rank 0 sends kBytes
// to rank 1, which then runs a 2 s GEMM (2 x 10^12 flops at 10^12 flop/s), so
// rank 0 is done with step 0 at kTransfer_s and rank 1 at kTransfer_s + 2.
// Step 1: the same message, which starts when rank 1 posts its receive, at
// kTransfer_s + 2. A 1 s flap of node 0's NIC 0.05 s after rank 0's end of
// step 0 is over by then and costs nothing; the same flap timed from the last
// rank's end of step 0 catches the message at its start and costs the packet
// timeout T.
TEST(FaultsRuntime, AFlapTimedFromTheStepOfSomeRanksStartsWhenTheyAreDoneWithIt) {
  const std::vector<std::vector<traces::Op>> step0 = {{message_op(true, 1, kBytes)},
                                                      {message_op(false, 0, kBytes), gpu_gemm(10000)}};
  const std::vector<std::vector<traces::Op>> step1 = {{message_op(true, 1, kBytes)},
                                                      {message_op(false, 0, kBytes)}};
  FaultTimeline t = nic_flap(1.0);
  t.flaps[0].after_step = 0;
  const double gemm_s = 2.0;
  EXPECT_NEAR(two_steps_under_faults(t, step0, step1), kTransfer_s + gemm_s + kFlapStart_s + kT + kTransfer_s,
              1e-6);
  t.flaps[0].after_ranks = {0};
  EXPECT_NEAR(two_steps_under_faults(t, step0, step1), kTransfer_s + gemm_s + kTransfer_s, 1e-6);
  t.flaps[0].after_ranks = {0, 1}; // the later of the two: as the last rank
  EXPECT_NEAR(two_steps_under_faults(t, step0, step1), kTransfer_s + gemm_s + kFlapStart_s + kT + kTransfer_s,
              1e-6);
}

// The NIC resends a failed asynchronous send on its own, whatever its
// sender does meanwhile. Rank 0 starts an asynchronous send of kBytes to rank
// 1, then blocks receiving a 1-byte reply that rank 1 sends only once it has
// the kBytes, and waits for its send last. A 1 s flap at 0.05 s fails the
// send; its retry leaves 0.05 + T later and lands kTransfer_s after, then the
// reply crosses the idle path. Resending only when rank 0 waited for its send
// would never resend it: rank 0 waits for the reply first (a deadlock).
TEST(FaultsRuntime, AFailedAsynchronousSendIsResentWhileItsSenderWaitsForItsPeer) {
  const std::vector<std::vector<traces::Op>> programs = {
      {message_op(true, 1, kBytes, 1), message_op(false, 1, 1.0), wait_op(1)},
      {message_op(false, 0, kBytes), message_op(true, 0, 1.0)}};
  const Outcome o = replay_under_faults(nic_flap(1.0), topo::Routing::Minimal, false, programs);
  const double reply_s = 4 * kLatency_s + 3 * kSwitch_s + 1.0 / kNicBw; // idle path, 1 byte
  EXPECT_NEAR(o.makespan_s, kFlapStart_s + kT + kTransfer_s + reply_s, 1e-6);
  EXPECT_EQ(o.retries, 1);
  EXPECT_LT(o.abort_s, 0.0);
}

// A fault window asks only whether its flap failed a transfer
// (end_when_unfelt). Rank 0 runs a 2 s GEMM, then sends kBytes to rank 1: a
// 1 s flap of its NIC at 0.05 s meets no transfer, and the replay stops as
// the link comes back up at 1.05 s. The same flap over the send at t = 0
// fails it, and the replay runs to its end.
TEST(FaultsRuntime, AFlapThatFailedNothingEndsTheReplayWhenItsLinkIsBack) {
  const auto end_when_unfelt = [](FaultsRuntime& f) { f.end_when_unfelt(true); };
  const std::vector<std::vector<traces::Op>> gemm_then_send = {{gpu_gemm(10000), message_op(true, 1, kBytes)},
                                                               {message_op(false, 0, kBytes)}};
  const Outcome unfelt =
      replay_under_faults(nic_flap(1.0), topo::Routing::Minimal, false, gemm_then_send, {}, end_when_unfelt);
  EXPECT_TRUE(unfelt.ended_unfelt);
  EXPECT_NEAR(unfelt.end_s, kFlapStart_s + 1.0, 1e-9);
  const Outcome whole = replay_under_faults(nic_flap(1.0), topo::Routing::Minimal, false, gemm_then_send);
  EXPECT_FALSE(whole.ended_unfelt);
  EXPECT_NEAR(whole.makespan_s, 2.0 + kTransfer_s, 1e-6); // the 2 s GEMM (2 x 10^12 flops at 10^12 flop/s)
  const Outcome felt = replay_under_faults(nic_flap(1.0), topo::Routing::Minimal, false,
                                           {{message_op(true, 1, kBytes)}, {message_op(false, 0, kBytes)}},
                                           {}, end_when_unfelt);
  EXPECT_FALSE(felt.ended_unfelt);
  EXPECT_NEAR(felt.makespan_s, kFlapStart_s + kT + kTransfer_s, 1e-6); // AShortNicFlapCostsThePacketTimeout's
  EXPECT_EQ(felt.retries, 1);
}

// A flap whose before_flap hook says no leaves its link up: the send at t = 0
// takes its idle time, as a fault window's baseline copy runs it (the same
// flap without the hook costs the packet timeout:
// AShortNicFlapCostsThePacketTimeout). The replay runs in a process of its
// own (run_isolated): what the hook sees comes back in the outcome.
TEST(FaultsRuntime, AFlapItsHookTurnsDownLeavesTheLinkUp) {
  const Outcome o = replay_under_faults(
      nic_flap(1.0), topo::Routing::Minimal, false,
      {{message_op(true, 1, kBytes)}, {message_op(false, 0, kBytes)}}, {},
      [](FaultsRuntime& f) { f.before_flap([](const FlapEvent& flap) { return flap.id != 0; }); });
  EXPECT_NEAR(o.makespan_s, kTransfer_s, 1e-9);
  EXPECT_EQ(o.retries, 0);
}

TEST(FaultsRuntime, WithoutAFlapTheMessageTakesItsIdleTime) {
  FaultTimeline t = nic_flap(1.0);
  t.flaps.clear();
  const Outcome o = send_under_faults(t, topo::Routing::Minimal);
  EXPECT_NEAR(o.makespan_s, kTransfer_s, 1e-9);
}

// A 1 s flap at 0.05 s: the transfer fails then; the NIC finds the loss at
// 0.05 + T (T > 1 s, so the link is up again) and the first retry, after a
// 0 s wait, resends everything: 0.05 + T + transfer.
TEST(FaultsRuntime, AShortNicFlapCostsThePacketTimeout) {
  const Outcome o = send_under_faults(nic_flap(1.0), topo::Routing::Minimal);
  EXPECT_NEAR(o.makespan_s, kFlapStart_s + kT + kTransfer_s, 1e-6);
  EXPECT_EQ(o.retries, 1);
  EXPECT_LT(o.abort_s, 0.0);
}

// 5 s (down until 5.05 s): the retry at 0.05 + T fails at once (its route is
// down), is found lost T later and waits 4 s: the retry at 0.05 + 2T + 4 =
// 6.20 s finds the link up.
TEST(FaultsRuntime, ALongerFlapWaitsForTheRetryThatFindsTheLinkUp) {
  const Outcome o = send_under_faults(nic_flap(5.0), topo::Routing::Minimal);
  EXPECT_NEAR(o.makespan_s, kFlapStart_s + 2 * kT + 4.0 + kTransfer_s, 1e-6);
  EXPECT_EQ(o.retries, 2);
}

// Without the packet timeout (timeout_s 0: a loss seen at once) the waits
// alone: the retries at +0 and +4 s fail, the one at +12 s succeeds.
TEST(FaultsRuntime, WithoutThePacketTimeoutTheWaitsAlonePaceTheRetries) {
  FaultTimeline t = nic_flap(5.0);
  t.retry_timeout_s = 0.0;
  const Outcome o = send_under_faults(t, topo::Routing::Minimal);
  EXPECT_NEAR(o.makespan_s, kFlapStart_s + 12.0 + kTransfer_s, 1e-6);
  EXPECT_EQ(o.retries, 3);
}

// Two flaps of the same cable overlap (0.05-1.05 s and 1-5 s): it stays down
// until 5 s, so the retry at 0.05 + T fails and the one at 0.05 + 2T + 4 s
// succeeds.
TEST(FaultsRuntime, OverlappingFlapsOfOneLinkKeepItDownUntilTheLastEnds) {
  FaultTimeline t = nic_flap(1.0);
  FlapEvent second = t.flaps[0];
  second.id = 1;
  second.start_s = 1.0;
  second.duration_s = 4.0;
  t.flaps.push_back(second);
  const Outcome o = send_under_faults(t, topo::Routing::Minimal);
  EXPECT_NEAR(o.makespan_s, kFlapStart_s + 2 * kT + 4.0 + kTransfer_s, 1e-6);
}

// 30 s: the retries at T, 2T + 4, 3T + 12 and 4T + 24 s (28.35 s after the
// loss) fail; the last is found lost T later, the destination is declared
// undeliverable and the run aborts at 0.05 + 5T + 24 = 29.42 s (libcxi
// retry_handler: cancelled after max_spt_retries).
TEST(FaultsRuntime, AFlapOutlastingTheRetriesAbortsTheRunWhenTheLastRetryTimesOut) {
  const Outcome o = send_under_faults(nic_flap(30.0), topo::Routing::Minimal);
  EXPECT_NEAR(o.abort_s, kFlapStart_s + 5 * kT + 24.0, 1e-9);
}

// A fabric link of the message's route flaps for 3 s: adaptive routing sends
// the first retry (at 0.05 + T) over the other spine; minimal routing keeps
// the path, so that retry fails and the next, at 0.05 + 2T + 4 s, succeeds.
// The packet timeout is paid either way: a re-routed flap is not free.
TEST(FaultsRuntime, AdaptiveRoutingReroutesTheFirstRetryAroundAFlappedFabricLink) {
  FaultTimeline t = nic_flap(3.0);
  t.flaps[0].link_class = SWITCH_LOCAL;
  const Outcome adaptive = send_under_faults(t, topo::Routing::Adaptive, /*flap_on_path=*/true);
  EXPECT_NEAR(adaptive.makespan_s, kFlapStart_s + kT + kTransfer_s, 1e-6);
  EXPECT_EQ(adaptive.retries, 1);
  const Outcome minimal = send_under_faults(t, topo::Routing::Minimal, /*flap_on_path=*/true);
  EXPECT_NEAR(minimal.makespan_s, kFlapStart_s + 2 * kT + 4.0 + kTransfer_s, 1e-6);
}

// Head-of-line blocking. Rank 0 sends A asynchronously, computes 0.2 s, then
// sends B; rank 1 receives A asynchronously, then B, then computes 2 s, then
// waits for A. A 3 s flap of A's fabric link at 0.05 s fails A; B leaves at
// 0.2 s and adaptive routing takes it over the other spine, so it is through at
// 0.2 + transfer. But the pair's traffic is ordered (Cassini's retry handler
// resends the whole chain to a destination, libcxi retry_handler/ordered.c):
// B is delivered only once A's retry (sent at 0.05 + T) has landed, and rank
// 1's 2 s start then: 0.05 + T + transfer + 2. Without the order it would
// end at 0.2 + transfer + 2.
TEST(FaultsRuntime, ALaterMessageOfThePairWaitsForTheFailedOne) {
  FaultTimeline t = nic_flap(3.0);
  t.flaps[0].link_class = SWITCH_LOCAL;
  const std::int64_t m_02 = 4642; // 2 m^3 / 1e12 = 0.2000 s
  const std::int64_t m_2 = 10000; // 2.000 s
  const double gemm_02_s = 2.0 * double(m_02) * double(m_02) * double(m_02) / 1e12;
  const std::vector<std::vector<traces::Op>> programs = {
      {message_op(true, 1, kBytes, 1), gpu_gemm(m_02), message_op(true, 1, kBytes), wait_op(1)},
      {message_op(false, 0, kBytes, 1), message_op(false, 0, kBytes), gpu_gemm(m_2), wait_op(1)}};
  const Outcome o = replay_under_faults(t, topo::Routing::Adaptive, /*flap_on_path=*/true, programs);
  EXPECT_NEAR(o.makespan_s, kFlapStart_s + kT + kTransfer_s + 2.0, 1e-6);
  EXPECT_GT(o.makespan_s, gemm_02_s + kTransfer_s + 2.0 + 0.5); // not the unordered end
  EXPECT_EQ(o.retries, 1);
  // Without the flap: B at 0.2 + transfer (A is through by then), then 2 s.
  FaultTimeline calm = t;
  calm.flaps.clear();
  const Outcome c = replay_under_faults(calm, topo::Routing::Adaptive, false, programs);
  EXPECT_NEAR(c.makespan_s, gemm_02_s + kTransfer_s + 2.0, 1e-3);
}

// The retry handler's parking (libcxi retry_handler/main.c, nid_tree_inc: a
// destination is parked after down_nid_pkt_count = 2 packets cancelled
// UNDELIVERABLE, and traffic to it is then cancelled at its first timeout)
// is fed by cancels only, and the first cancel ends an HPL job. Two messages
// of the pair are lost in a 40 s flap of the NIC cable (A at 0.05 s, B at
// 0.2 s): parking would cancel B early only after A's cancel, and A's cancel
// at 0.05 + 5T + 24 s is the abort. So the run ends there: not at B's first
// timeout (what parking on timeouts would give), not at B's own cancel
// (0.2 + 5T + 24).
TEST(FaultsRuntime, TheFirstCancelEndsTheRunBeforeParkingCanAct) {
  const std::int64_t m_02 = 4642; // 2 m^3 / 1e12 = 0.2000 s
  const std::vector<std::vector<traces::Op>> programs = {
      {message_op(true, 1, kBytes, 1), gpu_gemm(m_02), message_op(true, 1, kBytes), wait_op(1)},
      {message_op(false, 0, kBytes, 1), message_op(false, 0, kBytes), wait_op(1)}};
  const Outcome o = replay_under_faults(nic_flap(40.0), topo::Routing::Minimal, false, programs);
  EXPECT_NEAR(o.abort_s, kFlapStart_s + 5 * kT + 24.0, 1e-9);
}

// One GPU GEMM of 2 x 1000^3 flops at 1e12 flop/s (2 ms) on node 0 under a
// degradation of its GPU to `factor` from `from_s`.
double degraded_gemm_s(double factor, double from_s) {
  return run_isolated([&]() {
           auto engine = create_engine();
           const topo::FatTreeTopology tree(two_spines());
           PlatformSpec spec = one_rank_per_node(tree, topo::Routing::Minimal);
           spec.gpus_per_rank = 1;
           spec.pcie_bandwidth_bytes_per_s = 50e9;
           FaultTimeline t;
           t.degradations.push_back({0, /*node=*/0, /*gpu=*/0, factor, from_s});
           spec.degradations = t.degradations;
           const Platform platform(spec);
           const models::KernelModels kernels(gpu_kernels());
           FaultsRuntime faults(platform, t);
           ReplayOptions ro = one_step_options();
           ro.faults = &faults;
           const std::vector<std::vector<traces::Op>> programs = {{gpu_gemm(1000)}, {}};
           Replay replay(platform, kernels, nullptr, one_step_source(programs), ro);
           replay.start();
           faults.start();
           engine->run();
           return std::vector<double>{replay.makespan_s()};
         })
      .at(0);
}

TEST(FaultsRuntime, AGpuDegradedFromTheStartRunsItsKernelAtTheDegradedRate) {
  // 2 ms of work at half speed: 4 ms.
  EXPECT_NEAR(degraded_gemm_s(0.5, 0.0), 4e-3, 1e-9);
}

TEST(FaultsRuntime, AGpuDegradedDuringAKernelSlowsItsRemainingWork) {
  // Full speed to 1 ms (half the work done), the other half at half speed: 1 + 2 = 3 ms.
  EXPECT_NEAR(degraded_gemm_s(0.5, 1e-3), 3e-3, 1e-9);
  // A degradation after the kernel's end changes nothing.
  EXPECT_NEAR(degraded_gemm_s(0.5, 1.0), 2e-3, 1e-9);
}

// A rank waiting for a retried message when a node fails is killed with the
// others; it must unwind like them, destroying what its frames hold. Before the
// fix its unwinding stopped at the wait's unlock (a simcall a dying actor may
// not make) and its stack was freed with its objects alive: LeakSanitizer
// reported the ranks' state leaked by the flap-abort CLI test.
TEST(FaultsRuntime, ARankKilledWhileAwaitingARedeliveryUnwinds) {
  const auto v = run_isolated([&]() {
    auto engine = create_engine();
    const topo::FatTreeTopology tree(two_spines());
    const Platform platform(one_rank_per_node(tree, topo::Routing::Minimal));
    FaultTimeline timeline;
    NodeFailureEvent failure;
    failure.node = 0;
    failure.time_s = 1.0;
    failure.cause = "listed";
    timeline.node_failures.push_back(failure);
    timeline.retry_waits_s = kCassiniRetryWaits_s;
    FaultsRuntime faults(platform, timeline);
    auto destroyed = std::make_shared<int>(0);
    struct Sentinel {
      std::shared_ptr<int> count;
      ~Sentinel() { ++*count; }
    };
    simgrid::s4u::Actor::create("waiter", platform.cpu(1), [&faults, destroyed]() {
      const Sentinel held{destroyed};
      faults.await_delivery(0, 1, 0); // never delivered: the failure at 1 s kills it
    });
    faults.start();
    engine->run();
    return std::vector<double>{double(*destroyed),
                               faults.log().abort_reason ? faults.log().abort_time_s : -1.0};
  });
  EXPECT_EQ(v.at(0), 1.0);          // the waiter's frame was unwound
  EXPECT_NEAR(v.at(1), 1.0, 1e-12); // the run aborted at the failure
}

} // namespace
} // namespace hplsim::sim
