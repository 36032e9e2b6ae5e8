#pragma once
// The OSU point-to-point microbenchmarks (OMB 5.x: osu_latency, osu_bw,
// osu_bibw) simulated between two nodes of a scenario's machine:
//   osu_latency: ping-pong, latency = round trip / 2.
//   osu_bw:      a window of back-to-back non-blocking sends, then a 4-byte
//                reply; bandwidth = window * size / time.
//   osu_bibw:    both sides send a window to each other at once.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/scenario/scenario_defaults.hpp"

namespace hplsim::sim {

struct OsuBench {
  std::string kind;                 // latency | bw | bibw
  std::int64_t max_bytes = 4 << 20; // OMB default maximum message size (4 MiB)
  int window = 64;                  // OMB default window for osu_bw / osu_bibw
  int iterations = 10;
  int node_a = 0, node_b = 1;
};

struct OsuResult {
  std::vector<std::int64_t> sizes_bytes;
  std::vector<double> values; // latency in microseconds, or bandwidth in MB/s (OSU's units)
};

/// Runs the benchmark in this process's SimGrid engine (once per process).
/// Throws InputError when the nodes are not two distinct nodes of the machine.
OsuResult simulate_osu(const ResolvedScenario& scenario, const OsuBench& bench);

} // namespace hplsim::sim
