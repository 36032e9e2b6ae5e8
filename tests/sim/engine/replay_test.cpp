// Replay of hand-written schedules on tiny platforms, against closed forms.
// SimGrid allows one engine per process, so every simulation runs in a forked
// child (tests/sim/engine/isolated.hpp) and reports its numbers back.
#include <gtest/gtest.h>

#include <functional>

#include "models/kernel_model.hpp"
#include "models/random_draws.hpp"
#include "models/random_streams.hpp"
#include "sim/engine/platform.hpp"
#include "sim/engine/replay.hpp"
#include "sim/run/simulate.hpp"
#include "tests/sim/engine/isolated.hpp"
#include "tests/sim/engine/one_step.hpp"
#include "topologies/fat_tree.hpp"

namespace hplsim::sim {
namespace {

// Two leaves, one spine, one node per leaf, 2 NICs per node: node 0 -> node 1
// crosses NIC up, leaf0->spine, spine->leaf1, NIC down (4 links, 3 switches).
constexpr double kLinkLatency = 1e-6;
constexpr double kSwitchLatency = 0.5e-6;
constexpr double kNicBw = 10e9;
constexpr double kFabricBw = 40e9;

topo::FatTreeParams tiny_tree() {
  topo::FatTreeParams p;
  p.leaf_switches = 2;
  p.spine_switches = 1;
  p.endpoint_ports_per_leaf = 2;
  p.nics_per_node = 2;
  p.link_bandwidth_bytes_per_s = kFabricBw;
  p.nic_bandwidth_bytes_per_s = kNicBw;
  p.link_latency_s = kLinkLatency;
  p.switch_latency_s = kSwitchLatency;
  return p;
}

PlatformSpec tiny_spec(const topo::Topology& t, int ranks_per_node, int gpus_per_rank) {
  PlatformSpec s;
  s.topology = &t;
  s.node_map = {0, 1};
  s.ranks_per_node = ranks_per_node;
  s.gpus_per_rank = gpus_per_rank;
  s.sockets = 1;
  s.nics_per_socket = 2;
  s.pcie_bandwidth_bytes_per_s = 50e9;
  s.pcie_latency_s = 2e-6;
  s.shm_bandwidth_bytes_per_s = 20e9;
  s.shm_latency_s = 0.3e-6;
  // A 1 x R grid: every peer is a row peer.
  s.rank_row = [](int) { return 0; };
  s.rank_col = [](int r) { return r; };
  return s;
}

models::KernelCalibration ideal_gpu() {
  models::KernelCalibration c;
  auto* g = c.add_kernels();
  g->set_name("gpu.gemm.fp64");
  g->set_peak_flops_per_s(1e12);
  g->set_max_efficiency(1.0);
  g->set_half_efficiency_size(0.0);
  g->set_launch_overhead_s(0.0);
  auto* cpu = c.add_kernels();
  cpu->set_name("cpu.gemm.fp64");
  cpu->set_peak_flops_per_s(1e10);
  cpu->set_max_efficiency(1.0);
  cpu->set_half_efficiency_size(0.0);
  cpu->set_launch_overhead_s(0.0);
  return c;
}

traces::Op op_send(int peer, std::int64_t bytes, std::uint32_t tag = 0) {
  traces::Op op;
  auto* s = op.mutable_send();
  s->set_peer(peer);
  s->set_bytes(bytes);
  s->set_phase(traces::BCAST);
  if (tag) s->set_async_tag(tag);
  return op;
}
traces::Op op_recv(int peer, std::int64_t bytes, std::uint32_t tag = 0) {
  traces::Op op;
  auto* r = op.mutable_recv();
  r->set_peer(peer);
  r->set_bytes(bytes);
  r->set_phase(traces::BCAST);
  if (tag) r->set_async_tag(tag);
  return op;
}
traces::Op op_gemm(traces::Resource res, std::int64_t m, std::int64_t n, std::int64_t k,
                   std::uint32_t tag = 0) {
  traces::Op op;
  auto* c = op.mutable_compute();
  c->set_kernel(traces::KERNEL_GEMM);
  c->set_resource(res);
  c->set_m(m);
  c->set_n(n);
  c->set_k(k);
  c->set_phase(traces::GEMM);
  if (tag) c->set_async_tag(tag);
  return op;
}
traces::Op op_wait(std::uint32_t tag) {
  traces::Op op;
  op.mutable_wait()->set_async_tag(tag);
  return op;
}
traces::Op op_copy(traces::Copy::Direction d, std::int64_t bytes) {
  traces::Op op;
  op.mutable_copy()->set_direction(d);
  op.mutable_copy()->set_bytes(bytes);
  op.mutable_copy()->set_phase(traces::SWAP);
  return op;
}

// Runs one step whose programs are given per rank; returns the makespan, the
// step's phase times (kPhaseCount, the max over ranks), the number of ranks
// that finished, then the rank-mean phase times (kPhaseCount).
std::vector<double> run_programs(int ranks_per_node, int gpus_per_rank,
                                 const std::vector<std::vector<traces::Op>>& programs,
                                 const std::function<void(PlatformSpec&)>& tweak = nullptr,
                                 const std::function<void(ReplayOptions&)>& tweak_options = nullptr) {
  return run_isolated([&]() {
    auto engine = create_engine();
    ReplayOptions options = one_step_options();
    if (tweak_options) tweak_options(options);
    allow_flow_rate_caps(options.device_message_rate_bytes_per_s);
    const topo::FatTreeTopology tree(tiny_tree());
    PlatformSpec spec = tiny_spec(tree, ranks_per_node, gpus_per_rank);
    if (tweak) tweak(spec);
    Platform platform(spec);
    const models::KernelModels kernels(ideal_gpu());
    Replay replay(platform, kernels, nullptr, one_step_source(programs), options);
    replay.start();
    engine->run();
    std::vector<double> out = {replay.makespan_s()};
    for (double p : replay.records().at(0).phase_s)
      out.push_back(p);
    out.push_back(static_cast<double>(replay.finished_ranks()));
    for (double p : replay.records().at(0).mean_phase_s)
      out.push_back(p);
    return out;
  });
}

TEST(Replay, OneMessageTakesLatencyPlusSizeOverBottleneck) {
  // 4 links x 1 us + 3 switches x 0.5 us = 5.5 us, then 1e6 B / 10 GB/s (NIC
  // bottleneck) = 100 us: 105.5 us.
  const auto r = run_programs(1, 0, {{op_send(1, 1'000'000)}, {op_recv(0, 1'000'000)}});
  EXPECT_NEAR(r[0], 105.5e-6, 1e-9);
}

TEST(Replay, GpuGemmTakesTheKernelModelTime) {
  // 2 x 1000 x 1000 x 1000 flops at 1e12 flop/s = 2 ms.
  const auto r = run_programs(1, 1, {{op_gemm(traces::GPU, 1000, 1000, 1000)}, {}});
  EXPECT_NEAR(r[0], 2e-3, 1e-9);
  EXPECT_NEAR(r[1 + static_cast<int>(PhaseId::Gemm)], 2e-3, 1e-9);
}

TEST(Replay, ConcurrentKernelsShareTheGpu) {
  // Two async 2 ms GEMMs on one GPU share it: both end at 4 ms.
  const auto r = run_programs(1, 1,
                              {{op_gemm(traces::GPU, 1000, 1000, 1000, 1),
                                op_gemm(traces::GPU, 1000, 1000, 1000, 2), op_wait(1), op_wait(2)},
                               {}});
  EXPECT_NEAR(r[0], 4e-3, 1e-9);
}

TEST(Replay, OverlappingKernelsOnSeveralGpusCountTheirUnionOnce) {
  // One rank, 3 GPUs (HPL-MxP's rank driving 3 GPUs): three async 2 ms GEMMs,
  // one per GPU, run side by side and end at 2 ms. The GEMM phase is the 2 ms
  // the rank spent in it, not 3 x 2 ms.
  traces::Op g0 = op_gemm(traces::GPU, 1000, 1000, 1000, 1), g1 = op_gemm(traces::GPU, 1000, 1000, 1000, 2),
             g2 = op_gemm(traces::GPU, 1000, 1000, 1000, 3);
  g1.mutable_compute()->set_device(1);
  g2.mutable_compute()->set_device(2);
  const auto r = run_programs(1, 3, {{g0, g1, g2, op_wait(1), op_wait(2), op_wait(3)}, {}});
  EXPECT_NEAR(r[0], 2e-3, 1e-9);
  EXPECT_NEAR(r[1 + static_cast<int>(PhaseId::Gemm)], 2e-3, 1e-9);
}

TEST(Replay, RepeatedReceiveChargesTheFurtherMessagesLatencies) {
  // Fast mode's aggregated pivot exchange: a receive standing for 3 messages of
  // 1,000 B. One transfer of 3,000 B (5.5 us latency + 3000 B / 10 GB/s = 0.3 us)
  // plus 2 further latencies of the route (2 x 5.5 us): 16.8 us.
  traces::Op r = op_recv(0, 3000);
  r.mutable_recv()->set_repeat(3);
  const auto out = run_programs(1, 0, {{op_send(1, 3000)}, {r}});
  EXPECT_NEAR(out[0], 16.8e-6, 1e-9);
  // repeat = 1 is an ordinary message: 5.8 us.
  r.mutable_recv()->set_repeat(1);
  EXPECT_NEAR(run_programs(1, 0, {{op_send(1, 3000)}, {r}})[0], 5.8e-6, 1e-9);
}

TEST(Replay, DeviceBufferMessagesPayTheGpuAwarePath) {
  // GPU-aware MPI's device path: 2 us of sender overhead, then the message at
  // most at 1 GB/s. 1e6 B: 2 us + 5.5 us route latency + 1e6 B / 1e9 B/s =
  // 1007.5 us, against 105.5 us for the same message from host memory
  // (OneMessageTakesLatencyPlusSizeOverBottleneck). A cap above the NIC's
  // 10 GB/s leaves the NIC the bottleneck: 2 + 105.5 us.
  auto device = [](traces::Op op) {
    if (op.has_send()) op.mutable_send()->set_device(true);
    if (op.has_recv()) op.mutable_recv()->set_device(true);
    return op;
  };
  const std::vector<std::vector<traces::Op>> dev = {{device(op_send(1, 1'000'000))},
                                                    {device(op_recv(0, 1'000'000))}};
  const std::vector<std::vector<traces::Op>> host = {{op_send(1, 1'000'000)}, {op_recv(0, 1'000'000)}};
  auto path = [](double rate) {
    return [rate](ReplayOptions& o) {
      o.device_message_overhead_s = 2e-6;
      o.device_message_rate_bytes_per_s = rate;
    };
  };
  EXPECT_NEAR(run_programs(1, 0, dev, nullptr, path(1e9))[0], 1007.5e-6, 1e-9);
  EXPECT_NEAR(run_programs(1, 0, host, nullptr, path(1e9))[0], 105.5e-6, 1e-9);
  EXPECT_NEAR(run_programs(1, 0, dev, nullptr, path(100e9))[0], 107.5e-6, 1e-9);
  // The same to a folded-away rank (fast mode's phantom transfer): the same
  // 1007.5 us. SimGrid 3.32 takes no rate on a host-to-host comm (set_rate
  // aborted there), so the replay holds the capped completion itself.
  const std::vector<bool> only_rank0 = {true, false};
  const auto phantom = [&](ReplayOptions& o) {
    path(1e9)(o);
    o.active_ranks = &only_rank0;
  };
  EXPECT_NEAR(run_programs(1, 0, dev, nullptr, phantom)[0], 1007.5e-6, 1e-9);
}

TEST(Replay, RankMeanPhaseTimesStandForTheFoldedRanks) {
  // Rank 0 factors (a PFACT-phase CPU kernel); ranks 1-3 update with CPU GEMMs
  // of 1, 2 and 3 units (2 m n k flops at the ideal CPU rate: 1, 2, 3 ms).
  // All four ranks simulated: the means are the plain averages over 4 ranks,
  // pfact / 4 and (1 + 2 + 3) / 4 = 1.5 units. With ranks 2 and 3 folded away
  // the factoring rank is still counted exactly and rank 1 stands for the
  // three non-factoring ranks: gemm 3 x 1 / 4 = 0.75 units.
  auto pfact = [](traces::Op op) {
    op.mutable_compute()->set_phase(traces::PFACT);
    return op;
  };
  const std::vector<std::vector<traces::Op>> programs = {{pfact(op_gemm(traces::CPU, 100, 100, 500))},
                                                         {op_gemm(traces::CPU, 100, 100, 500)},
                                                         {op_gemm(traces::CPU, 100, 100, 1000)},
                                                         {op_gemm(traces::CPU, 100, 100, 1500)}};
  constexpr std::size_t kMean = 2 + kPhaseCount; // makespan, phases, finished ranks, then the means
  const auto pf = static_cast<std::size_t>(PhaseId::Pfact), gm = static_cast<std::size_t>(PhaseId::Gemm);
  const auto all = run_programs(2, 0, programs);
  const double unit_s = all[1 + pf];
  ASSERT_GT(unit_s, 0.0);
  EXPECT_NEAR(all[1 + gm], 3.0 * unit_s, 1e-12); // the max over ranks: rank 3
  EXPECT_NEAR(all[kMean + pf], unit_s / 4.0, 1e-12);
  EXPECT_NEAR(all[kMean + gm], 1.5 * unit_s, 1e-12);
  const std::vector<bool> first_node = {true, true, false, false};
  const auto folded =
      run_programs(2, 0, programs, nullptr, [&](ReplayOptions& o) { o.active_ranks = &first_node; });
  EXPECT_NEAR(folded[kMean + pf], unit_s / 4.0, 1e-12);
  EXPECT_NEAR(folded[kMean + gm], 0.75 * unit_s, 1e-12);
}

TEST(Replay, NodeGpuStepFactorIsSharedByTheNodesRanks) {
  // Four ranks, two per node, each a 2 ms GPU GEMM and a CPU PFACT kernel in
  // steps 5 and 6 (replayed alone, at positions 0 and 1). With
  // node_gpu_step_cv, a rank's GPU time in step k is 2 ms x the keyed factor
  // of (seed, its node, k): equal on one node, different across nodes; CPU
  // kernels keep their time.
  auto pfact = [](traces::Op op) {
    op.mutable_compute()->set_phase(traces::PFACT);
    return op;
  };
  const std::vector<traces::Op> program = {op_gemm(traces::GPU, 1000, 1000, 1000),
                                           pfact(op_gemm(traces::CPU, 100, 100, 500))};
  const std::vector<std::vector<traces::Op>> programs(4, program);
  constexpr std::uint64_t kSeed = 7;
  constexpr double kCv = 0.3;
  const auto kernel_s = run_isolated([&]() {
    auto engine = create_engine();
    ReplayOptions options;
    options.steps = 7;
    options.n = 7;
    options.nb = 1;
    options.step_list = {5, 6};
    options.seed = kSeed;
    options.node_gpu_step_cv = kCv;
    const topo::FatTreeTopology tree(tiny_tree());
    Platform platform(tiny_spec(tree, 2, 1));
    const models::KernelModels kernels(ideal_gpu());
    Replay replay(platform, kernels, nullptr, steps_source(programs, {5, 6}), options);
    replay.start();
    engine->run();
    std::vector<double> out;
    for (const RankPhases& r : replay.rank_kernel_totals_s()) {
      out.push_back(r[static_cast<std::size_t>(PhaseId::Gemm)]);
      out.push_back(r[static_cast<std::size_t>(PhaseId::Pfact)]);
    }
    return out;
  });
  ASSERT_EQ(kernel_s.size(), 8U);
  for (int rank = 0; rank < 4; ++rank) {
    const auto factor = [&](std::int64_t step) {
      return models::keyed_lognormal_mean1(models::RandomStreams::node_step_key(kSeed, rank / 2, step), kCv);
    };
    EXPECT_NEAR(kernel_s[2 * rank], 2e-3 * (factor(5) + factor(6)), 1e-15) << "rank " << rank;
    // 2 x 100 x 100 x 500 flops at the ideal CPU's 1e10 flop/s: 1 ms a step, no factor.
    EXPECT_NEAR(kernel_s[2 * rank + 1], 2e-3, 1e-15) << "rank " << rank;
  }
  EXPECT_EQ(kernel_s[0], kernel_s[2]);
  EXPECT_EQ(kernel_s[4], kernel_s[6]);
  EXPECT_NE(kernel_s[0], kernel_s[4]);
}

TEST(Replay, CpuWorkOverlapsAnAsyncGpuKernel) {
  // GPU GEMM 2 ms async while the CPU runs 2e7 flops at 1e10 = 2 ms: 2 ms total.
  const auto r = run_programs(
      1, 1,
      {{op_gemm(traces::GPU, 1000, 1000, 1000, 1), op_gemm(traces::CPU, 100, 100, 1000), op_wait(1)}, {}});
  EXPECT_NEAR(r[0], 2e-3, 1e-9);
}

// HPL_pdupdateTT's probed broadcast (traces::PolledUpdate), CPU at 1e10 flop/s:
// rank 1 updates n = 500 columns in chunks of 100 (each a TRSM 100^2 x 100 =
// 1e6 flops and a GEMM 2 x 1000 x 100 x 100 = 2e7: 2.1 ms) and probes for rank
// 0's 1 MB panel on entry and after each chunk; rank 0 sends it (blocking) at
// `send_at_s` and then runs a 20 ms GEMM; rank 1 starts the update at `update_at_s`. The transfer takes 1e6 B
// / 10 GB/s (the NIC) plus ~6 us of link and switch latency.
double polled_makespan(double send_at_s, double update_at_s = 0.0) {
  traces::Op polled;
  traces::PolledUpdate* u = polled.mutable_polled_update();
  u->set_peer(0);
  *u->mutable_arrival()->add_ops() = op_recv(0, 1000000);
  u->set_m(1000);
  u->set_n(500);
  u->set_jb(100);
  u->set_chunk(100);
  std::vector<traces::Op> root;
  if (send_at_s > 0.0)
    root.push_back(op_gemm(traces::CPU, 1000, 1000, static_cast<std::int64_t>(send_at_s * 5e3)));
  root.push_back(op_send(1, 1000000));
  root.push_back(op_gemm(traces::CPU, 1000, 1000, 100)); // 2e8 flops: 20 ms
  std::vector<traces::Op> waiting;
  if (update_at_s > 0.0)
    waiting.push_back(op_gemm(traces::CPU, 1000, 1000, static_cast<std::int64_t>(update_at_s * 5e3)));
  waiting.push_back(polled);
  const std::vector<std::vector<traces::Op>> programs = {root, waiting};
  return run_isolated([&]() {
           auto engine = create_engine();
           const topo::FatTreeTopology tree(tiny_tree());
           Platform platform(tiny_spec(tree, 1, 0));
           models::KernelCalibration calibration = ideal_gpu();
           models::KernelParams trsm = calibration.kernels(1); // cpu.gemm.fp64's rate
           trsm.set_name("cpu.trsm.fp64");
           *calibration.add_kernels() = trsm;
           const models::KernelModels kernels(calibration);
           Replay replay(platform, kernels, nullptr, one_step_source(programs), one_step_options());
           replay.start();
           engine->run();
           return std::vector<double>{replay.makespan_s(), static_cast<double>(replay.finished_ranks())};
         })
      .at(0);
}

TEST(Replay, ProbedPanelMovesAtTheFirstProbeAfterItIsPosted) {
  const double transfer_s = 1e6 / kNicBw;
  // Posted at 1 ms, found by the probe after the first chunk (2.1 ms): the
  // root's blocking send ends then, and its 20 ms GEMM after it. Had the
  // receive been posted from the start, the root would finish 1.1 ms earlier.
  EXPECT_NEAR(polled_makespan(1e-3), 2.1e-3 + transfer_s + 20e-3, 1e-5);
  // Posted before the update starts (at 1 ms): found by the probe on entry.
  EXPECT_NEAR(polled_makespan(0.0, 1e-3), 1e-3 + transfer_s + 20e-3, 1e-5);
}

TEST(Replay, ProbedPanelAfterTheLastChunkIsWaitedFor) {
  // Posted at 30 ms, after all five chunks (10.5 ms): rank 1 waits for it
  // (HPL keeps probing), so the root's send ends at 30 ms + the transfer.
  EXPECT_NEAR(polled_makespan(30e-3), 30e-3 + 1e6 / kNicBw + 20e-3, 1e-5);
}

TEST(Replay, TwoFlowsShareTheNic) {
  // Ranks 0 and 1 on node 0 (2 ranks per node) both send 1e6 B to ranks 2 and 3.
  // With a 1 x 4 grid all peers are row peers: phase-specific mapping hashes
  // each pair over NIC 1 of the single socket (nics_per_socket 2: NIC0 is for
  // column traffic), so both flows share one 10 GB/s NIC: 2e6 B / 10 GB/s =
  // 200 us + 5.5 us latency.
  const auto r = run_programs(
      2, 0,
      {{op_send(2, 1'000'000)}, {op_send(3, 1'000'000)}, {op_recv(0, 1'000'000)}, {op_recv(1, 1'000'000)}});
  EXPECT_NEAR(r[0], 205.5e-6, 1e-9);
}

TEST(Replay, CopiesCrossPcie) {
  // D2H of 1e6 B over a 50 GB/s, 2 us PCIe link: 2 us + 20 us.
  const auto r = run_programs(1, 1, {{op_copy(traces::Copy::D2H, 1'000'000)}, {}});
  EXPECT_NEAR(r[0], 22e-6, 1e-9);
}

TEST(Replay, MisplacedRanksCopyAcrossTheUpi) {
  // Two sockets; the UPI (10 GB/s, 0.1 us) is slower than PCIe (50 GB/s, 2 us).
  // ALIGNED: a 1 MB D2H copy costs 2 us + 1e6 / 50e9 = 22 us. MISPLACED (rank
  // and memory opposite the GPU): the copy also crosses the UPI, which becomes
  // the bottleneck: 2.1 us + 1e6 / 10e9 = 102.1 us.
  const auto two_sockets = [](Affinity affinity) {
    return [affinity](PlatformSpec& s) {
      s.sockets = 2;
      s.nics_per_socket = 1;
      s.upi_bandwidth_bytes_per_s = 10e9;
      s.upi_latency_s = 0.1e-6;
      s.affinity = affinity;
    };
  };
  const std::vector<std::vector<traces::Op>> copy = {{op_copy(traces::Copy::D2H, 1'000'000)}, {}};
  EXPECT_NEAR(run_programs(1, 1, copy, two_sockets(Affinity::Aligned))[0], 22e-6, 1e-9);
  EXPECT_NEAR(run_programs(1, 1, copy, two_sockets(Affinity::Misplaced))[0], 102.1e-6, 1e-9);
}

TEST(Replay, IntraNodeMessagesUseSharedMemory) {
  // Same node: 0.3 us + 1e6 B / 20 GB/s = 50.3 us.
  const auto r = run_programs(2, 0, {{op_send(1, 1'000'000)}, {op_recv(0, 1'000'000)}, {}, {}});
  EXPECT_NEAR(r[0], 50.3e-6, 1e-9);
}

TEST(Replay, AsyncExchangeDoesNotDeadlock) {
  // HPL_sdrv pattern on both sides: Irecv, blocking send, wait. Both messages
  // travel at once over full-duplex links: 105.5 us.
  const auto r = run_programs(1, 0,
                              {{op_recv(1, 1'000'000, 1), op_send(1, 1'000'000), op_wait(1)},
                               {op_recv(0, 1'000'000, 1), op_send(0, 1'000'000), op_wait(1)}});
  EXPECT_NEAR(r[0], 105.5e-6, 1e-9);
  EXPECT_EQ(r[1 + kPhaseCount], 2.0);
  // The receive in flight and the blocking send overlap: the exchange is
  // 105.5 us of BCAST, not their sum (211 us, counted before the phase time
  // became the union of the ops' intervals).
  EXPECT_NEAR(r[1 + static_cast<int>(PhaseId::Bcast)], 105.5e-6, 1e-9);
}

TEST(Replay, UnmatchedReceiveIsReportedAsUnfinished) {
  // Rank 1 waits for a message nobody sends: the replay ends with one rank unfinished.
  const auto r = run_programs(1, 0, {{}, {op_recv(0, 8)}});
  EXPECT_EQ(r[1 + kPhaseCount], 1.0);
}

} // namespace
} // namespace hplsim::sim

namespace hplsim::sim {
namespace {

TEST(Replay, NoiseStretchesCpuKernelsAndNotGpuKernels) {
  // Rank 0: 1 ms of CPU work from t = 0; rank 1: a 2 ms GPU GEMM. With the
  // detours the CPU kernel ends where the noise model says 1 ms of work on
  // node 0's core 0 from 0 ends (about 1 ms / (1 - 1/3)); the GPU kernel keeps its time.
  const std::vector<std::vector<traces::Op>> programs = {{op_gemm(traces::CPU, 100, 100, 500)},
                                                         {op_gemm(traces::GPU, 1000, 1000, 1000)}};
  const auto noise = periodic_core_noise(3e-4, 1e-4); // 0.1 ms every 0.3 ms
  const auto quiet = run_programs(1, 1, programs);
  const auto noisy = run_programs(1, 1, programs, nullptr, [&](ReplayOptions& o) { o.noise = noise; });
  const auto gm = static_cast<std::size_t>(PhaseId::Gemm);
  const models::NoiseModel model(noise, one_step_options().seed);
  const double expected_s = model.finish_s(0, 0, 0.0, 1e-3);
  EXPECT_GT(expected_s, 1.3e-3); // three or four detours inside
  EXPECT_NEAR(quiet[0], 2e-3, 1e-9);
  EXPECT_NEAR(noisy[0], std::max(expected_s, 2e-3), 1e-9);
  // The slowest rank's GEMM phase: rank 1's 2 ms GPU GEMM or rank 0's stretched CPU one.
  EXPECT_NEAR(noisy[1 + gm], std::max(expected_s, 2e-3), 1e-9);
  // Same seed, same detours: the run repeats to the bit.
  const auto again = run_programs(1, 1, programs, nullptr, [&](ReplayOptions& o) { o.noise = noise; });
  EXPECT_EQ(noisy, again);
}

} // namespace
} // namespace hplsim::sim
