// Pipelined ring broadcasts replayed on idle links: chunk by chunk (reference)
// and aggregated as first chunk + bulk + last chunk (fast mode) take the
// pipeline's time, (chunks + hops - 1) chunk times (traces/comm_pattern.hpp).
#include <gtest/gtest.h>

#include "tests/sim/engine/one_step.hpp"
#include "topologies/dragonfly.hpp"
#include "traces/comm_pattern.hpp"
#include "traces/program_builder.hpp"

namespace hplsim::sim {
namespace {

constexpr double kBw = 10e9;
constexpr std::int64_t kChunk = 1'000'000; // 100 us per chunk at kBw
constexpr int kChunks = 16;
constexpr int kMembers = 4; // 3 hops

// One switch, 4 nodes, no latency anywhere: hop r -> r + 1 uses node r's
// uplink and node r + 1's downlink, so no two hops share a link.
topo::DragonflyParams star() {
  topo::DragonflyParams p;
  p.groups = 1;
  p.switches_per_group = 1;
  p.endpoint_ports_per_switch = kMembers;
  p.global_links_per_group_pair = 0;
  p.nics_per_node = 1;
  p.local_link_bandwidth_bytes_per_s = kBw;
  p.global_link_bandwidth_bytes_per_s = kBw;
  p.nic_bandwidth_bytes_per_s = kBw;
  return p;
}

double ring_makespan(bool aggregated) {
  // The 1-ring pattern: member 0 sends to 1, r receives from r - 1 and sends to r + 1.
  std::vector<std::vector<traces::Op>> programs(kMembers);
  const traces::Communicator comm{0, 1, kMembers};
  for (int r = 0; r < kMembers; ++r) {
    traces::Pattern pattern;
    if (r > 0) traces::add_recv(pattern, r - 1, kChunks * kChunk);
    if (r + 1 < kMembers) traces::add_send(pattern, r + 1, kChunks * kChunk);
    traces::RankProgram program;
    program.set_rank(r);
    traces::ProgramBuilder b(&program);
    traces::emit_bcast(b, comm, pattern, kChunk, traces::BCAST, aggregated);
    programs[static_cast<std::size_t>(r)].assign(program.ops().begin(), program.ops().end());
  }
  const topo::DragonflyTopology df(star());
  return one_rank_per_node_makespan(df, topo::Routing::Minimal, programs);
}

// (16 chunks + 3 hops - 1) x 100 us = 1.8 ms, exactly: no latency, idle links.
constexpr double kPipeline_s = (kChunks + kMembers - 2) * kChunk / kBw;

TEST(RingBroadcast, ChunkByChunkTakesThePipelineTime) {
  EXPECT_NEAR(ring_makespan(false), kPipeline_s, 1e-9);
}

TEST(RingBroadcast, AggregatedHopsTakeTheSamePipelineTime) {
  EXPECT_NEAR(ring_makespan(true), kPipeline_s, 1e-9);
}

} // namespace
} // namespace hplsim::sim
