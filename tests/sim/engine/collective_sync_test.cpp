// A collective's completion (traces::Sync, sim/engine/collective_sync.hpp)
// against a point-to-point exchange under a link flap, on a tiny platform,
// against closed forms (docs/faults.md, "Collective versus point-to-point"):
// four ranks do the two rounds of a binary exchange ((0,1) (2,3), then (0,2)
// (1,3)); node 0's NIC cable flaps for 1 s during round 2. Point-to-point,
// only the pair (0,2) waits the retry handler's 4 s; as a collective, every
// member leaves when the last one is done.
#include <gtest/gtest.h>

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

constexpr double kNicBw = 10e9;
constexpr double kBytes = 1e8;                    // 10 ms at the NIC's rate
constexpr double kMessage_s = kBytes / kNicBw;    // plus a few microseconds of latency
constexpr double kFlapStart_s = 1.5 * kMessage_s; // round 2 is in flight

// Two leaves of two nodes each, two spines, one NIC per node.
topo::FatTreeParams four_nodes() {
  topo::FatTreeParams p;
  p.leaf_switches = 2;
  p.spine_switches = 2;
  p.endpoint_ports_per_leaf = 2;
  p.nics_per_node = 1;
  p.link_bandwidth_bytes_per_s = 40e9;
  p.nic_bandwidth_bytes_per_s = kNicBw;
  p.link_latency_s = 1e-6;
  p.switch_latency_s = 0.5e-6;
  return p;
}

// HPL_sdrv with `peer`: receive posted, blocking send, wait.
void send_recv(std::vector<traces::Op>& ops, int peer, std::uint32_t tag) {
  traces::Op recv, send, wait;
  recv.mutable_recv()->set_peer(peer);
  recv.mutable_recv()->set_bytes(static_cast<std::int64_t>(kBytes));
  recv.mutable_recv()->set_phase(traces::PFACT);
  recv.mutable_recv()->set_async_tag(tag);
  send.mutable_send()->set_peer(peer);
  send.mutable_send()->set_bytes(static_cast<std::int64_t>(kBytes));
  send.mutable_send()->set_phase(traces::PFACT);
  wait.mutable_wait()->set_async_tag(tag);
  ops.insert(ops.end(), {recv, send, wait});
}

struct Outcome {
  double makespan_s = 0.0, mean_pfact_s = 0.0;
};

Outcome exchange(bool collective, bool flap, double recovery_s = 0.0) {
  const auto v = run_isolated([&]() {
    auto engine = create_engine();
    const topo::FatTreeTopology tree(four_nodes());
    PlatformSpec spec;
    spec.topology = &tree;
    spec.routing = topo::Routing::Minimal;
    spec.node_map = {0, 1, 2, 3};
    spec.ranks_per_node = 1;
    spec.sockets = 1;
    spec.nics_per_socket = 1;
    spec.shm_bandwidth_bytes_per_s = 20e9;
    spec.rank_row = [](int r) { return r; };
    spec.rank_col = [](int) { return 0; };
    const Platform platform(spec);
    const models::KernelModels kernels(models::KernelCalibration{});
    FaultTimeline t;
    if (flap) {
      FlapEvent f;
      f.link_class = NIC_PORT;
      f.link = 0; // node 0's NIC cable (topologies/fat_tree.cpp lists the NIC links first)
      f.start_s = kFlapStart_s;
      f.duration_s = 1.0;
      t.flaps.push_back(f);
    }
    t.retry_waits_s = kCassiniRetryWaits_s;
    t.collective_recovery_s = recovery_s;
    FaultsRuntime faults(platform, t);
    ReplayOptions ro = one_step_options();
    ro.faults = &faults;
    std::vector<std::vector<traces::Op>> programs(4);
    for (int r = 0; r < 4; ++r) {
      send_recv(programs[static_cast<std::size_t>(r)], r ^ 1, 1);
      send_recv(programs[static_cast<std::size_t>(r)], r ^ 2, 2);
      if (collective) {
        traces::Op sync;
        sync.mutable_sync()->set_base(0);
        sync.mutable_sync()->set_stride(1);
        sync.mutable_sync()->set_size(4);
        sync.mutable_sync()->set_phase(traces::PFACT);
        programs[static_cast<std::size_t>(r)].push_back(sync);
      }
    }
    Replay replay(platform, kernels, nullptr, one_step_source(programs), ro);
    replay.start();
    faults.start();
    engine->run();
    return std::vector<double>{replay.makespan_s(),
                               replay.records().at(0).mean_phase_s[static_cast<std::size_t>(PhaseId::Pfact)]};
  });
  return {v.at(0), v.at(1)};
}

TEST(CollectiveSync, WithoutAFaultTheSyncCostsNothingOnABalancedExchange) {
  // Both rounds take one message time for everybody: 2 x 10 ms either way.
  const Outcome p2p = exchange(false, false), coll = exchange(true, false);
  EXPECT_NEAR(p2p.makespan_s, 2 * kMessage_s, 1e-4);
  EXPECT_NEAR(coll.makespan_s, p2p.makespan_s, 1e-12);
  EXPECT_NEAR(coll.mean_pfact_s, p2p.mean_pfact_s, 1e-12);
}

TEST(CollectiveSync, AFlapDelaysOnlyTheDependentPairPointToPointButEveryMemberOfACollective) {
  // The flap fails the (0,2) messages at 15 ms; the immediate retry fails, the
  // one 4 s later succeeds and resends: ranks 0 and 2 are done at
  // 15 ms + 4 s + 10 ms. Point-to-point, ranks 1 and 3 are done at 20 ms:
  // rank-mean PFACT time (2 x 4.025 + 2 x 0.020) / 4 = 2.0225 s. Collective:
  // all four at 4.025 s.
  const double late_s = kFlapStart_s + 4.0 + kMessage_s;
  const Outcome p2p = exchange(false, true), coll = exchange(true, true);
  EXPECT_NEAR(p2p.makespan_s, late_s, 1e-4);
  EXPECT_NEAR(coll.makespan_s, late_s, 1e-4);
  EXPECT_NEAR(p2p.mean_pfact_s, (2 * late_s + 2 * 2 * kMessage_s) / 4, 1e-4);
  EXPECT_NEAR(coll.mean_pfact_s, late_s, 1e-4);
}

TEST(CollectiveSync, ARecoveryDelayIsPaidByAStalledCollectiveOnly) {
  // faults.retry.collective_recovery_s = 2 s: the collective whose members 0 and 2 had their round-2
  // messages fail leaves 2 s after its last member (all four at 4.025 s + 2 s); the point-to-point
  // exchange has no collective to pay it; without a flap no member is stalled and nothing is added.
  const double late_s = kFlapStart_s + 4.0 + kMessage_s;
  const Outcome coll = exchange(true, true, 2.0), p2p = exchange(false, true, 2.0);
  EXPECT_NEAR(coll.makespan_s, late_s + 2.0, 1e-4);
  EXPECT_NEAR(coll.mean_pfact_s, late_s + 2.0, 1e-4);
  EXPECT_NEAR(p2p.makespan_s, late_s, 1e-4);
  EXPECT_NEAR(exchange(true, false, 2.0).makespan_s, 2 * kMessage_s, 1e-4);
}

} // namespace
} // namespace hplsim::sim
