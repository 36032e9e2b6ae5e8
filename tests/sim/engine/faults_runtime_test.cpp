// Faults inside the replay (sim/engine/faults_runtime.hpp) on tiny platforms,
// against closed forms: a message caught by a link flap waits the retry
// handler's waits (0, 4, 8, 12 s: HPE's Cassini retry handler) until a retry
// finds the link up; past the last retry the run aborts; adaptive routing
// re-routes the first retry around a flapped fabric link; a degraded GPU runs
// its kernel at the degraded rate from the degradation's time on.
#include <gtest/gtest.h>

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
};

// Rank 0 sends kBytes to rank 1 at t = 0 under `timeline`'s faults; `flap_on_path`
// makes each flap's link the `link_position`-th fabric link of the message's
// route at t = 0 (whichever spine routing picked), else the flap's link as given.
Outcome send_under_faults(FaultTimeline timeline, topo::Routing routing, bool flap_on_path = false) {
  const auto v = run_isolated([&]() {
    auto engine = create_engine();
    const topo::FatTreeTopology tree(two_spines());
    const Platform platform(one_rank_per_node(tree, routing));
    if (flap_on_path) {
      // The leaf0 -> spine link the idle route takes (the second link of its names).
      // Link names are "<kind><topology link id>..." (sim/engine/machine_zone.cpp).
      const std::string name = platform.route_names(0, 1).at(1);
      const auto digit = name.find_first_of("0123456789");
      const int link = std::stoi(name.substr(digit));
      EXPECT_EQ(tree.links().at(static_cast<std::size_t>(link)).kind, topo::LinkKind::Leaf) << name;
      for (auto& f : timeline.flaps)
        f.link = link;
    }
    const models::KernelModels kernels(models::KernelCalibration{});
    FaultsRuntime faults(platform, timeline);
    ReplayOptions ro = one_step_options();
    ro.faults = &faults;
    std::vector<std::vector<traces::Op>> programs(2);
    traces::Op send, recv;
    send.mutable_send()->set_peer(1);
    send.mutable_send()->set_bytes(static_cast<std::int64_t>(kBytes));
    send.mutable_send()->set_phase(traces::BCAST);
    recv.mutable_recv()->set_peer(0);
    recv.mutable_recv()->set_bytes(static_cast<std::int64_t>(kBytes));
    recv.mutable_recv()->set_phase(traces::BCAST);
    programs[0] = {send};
    programs[1] = {recv};
    Replay replay(platform, kernels, nullptr, one_step_source(programs), ro);
    replay.start();
    faults.start();
    engine->run();
    int retries = 0;
    for (const auto& [id, e] : faults.log().by_event)
      retries += e.retries;
    return std::vector<double>{replay.makespan_s(),
                               faults.log().abort_reason ? faults.log().abort_time_s : -1.0, double(retries)};
  });
  return {v.at(0), v.at(1), static_cast<int>(v.at(2))};
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
  return t;
}

TEST(FaultsRuntime, WithoutAFlapTheMessageTakesItsIdleTime) {
  FaultTimeline t = nic_flap(1.0);
  t.flaps.clear();
  const Outcome o = send_under_faults(t, topo::Routing::Minimal);
  EXPECT_NEAR(o.makespan_s, kTransfer_s, 1e-9);
}

// A 1 s flap at 0.05 s: the transfer fails then, the immediate retry fails (the
// link is still down), the retry after 4 s succeeds and resends everything:
// 0.05 + 0 + 4 + transfer.
TEST(FaultsRuntime, AShortNicFlapCostsTheSecondRetryWait) {
  const Outcome o = send_under_faults(nic_flap(1.0), topo::Routing::Minimal);
  EXPECT_NEAR(o.makespan_s, kFlapStart_s + 4.0 + kTransfer_s, 1e-6);
  EXPECT_EQ(o.retries, 2);
  EXPECT_LT(o.abort_s, 0.0);
}

// 5 s: the retries at +0 and +4 s fail, the one at +4 +8 = 12 s succeeds.
TEST(FaultsRuntime, ALongerFlapWaitsForTheRetryThatFindsTheLinkUp) {
  const Outcome o = send_under_faults(nic_flap(5.0), topo::Routing::Minimal);
  EXPECT_NEAR(o.makespan_s, kFlapStart_s + 12.0 + kTransfer_s, 1e-6);
  EXPECT_EQ(o.retries, 3);
}

// Two flaps of the same cable overlap (0.05-1.05 s and 1-5 s): it stays down
// until 5 s, so the retries at +0 and +4 s fail and the one at +12 s succeeds.
TEST(FaultsRuntime, OverlappingFlapsOfOneLinkKeepItDownUntilTheLastEnds) {
  FaultTimeline t = nic_flap(1.0);
  FlapEvent second = t.flaps[0];
  second.id = 1;
  second.start_s = 1.0;
  second.duration_s = 4.0;
  t.flaps.push_back(second);
  const Outcome o = send_under_faults(t, topo::Routing::Minimal);
  EXPECT_NEAR(o.makespan_s, kFlapStart_s + 12.0 + kTransfer_s, 1e-6);
}

// 30 s: the fourth retry (at +0 +4 +8 +12 = 24 s) fails too: the destination
// is declared down and the run aborts then.
TEST(FaultsRuntime, AFlapOutlastingTheRetriesAbortsTheRun) {
  const Outcome o = send_under_faults(nic_flap(30.0), topo::Routing::Minimal);
  EXPECT_NEAR(o.abort_s, kFlapStart_s + 24.0, 1e-9);
}

// A fabric link of the message's route flaps for 1 s: adaptive routing sends
// the immediate retry over the other spine (0 s wait); minimal routing keeps
// the path and waits 4 s like the NIC flap.
TEST(FaultsRuntime, AdaptiveRoutingReroutesTheFirstRetryAroundAFlappedFabricLink) {
  FaultTimeline t = nic_flap(1.0);
  t.flaps[0].link_class = SWITCH_LOCAL;
  const Outcome adaptive = send_under_faults(t, topo::Routing::Adaptive, /*flap_on_path=*/true);
  EXPECT_NEAR(adaptive.makespan_s, kFlapStart_s + kTransfer_s, 1e-6);
  EXPECT_EQ(adaptive.retries, 1);
  const Outcome minimal = send_under_faults(t, topo::Routing::Minimal, /*flap_on_path=*/true);
  EXPECT_NEAR(minimal.makespan_s, kFlapStart_s + 4.0 + kTransfer_s, 1e-6);
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
           models::KernelCalibration cal;
           auto* g = cal.add_kernels();
           g->set_name("gpu.gemm.fp64");
           g->set_peak_flops_per_s(1e12);
           g->set_max_efficiency(1.0);
           g->set_half_efficiency_size(0.0);
           g->set_launch_overhead_s(0.0);
           const models::KernelModels kernels(cal);
           FaultsRuntime faults(platform, t);
           ReplayOptions ro = one_step_options();
           ro.faults = &faults;
           traces::Op gemm;
           auto* c = gemm.mutable_compute();
           c->set_kernel(traces::KERNEL_GEMM);
           c->set_resource(traces::GPU);
           c->set_m(1000);
           c->set_n(1000);
           c->set_k(1000);
           c->set_phase(traces::GEMM);
           const std::vector<std::vector<traces::Op>> programs = {{gemm}, {}};
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
