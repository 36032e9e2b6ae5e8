#pragma once
// Node-level flows for the OSU collective benchmarks (sim/bench/osu_collectives.hpp): a node's ranks take
// each step of their programs together, and the messages of a step that leave the node for the same node
// (from one socket to one socket) travel as a few flows of their summed bytes instead of one flow each;
// the protocol model prices each flow as one of its messages (engine_setup.hpp, announce_aggregate_flow).
// Messages that stay on the node travel as one flow per sender and destination socket (the route of a
// shared-memory copy is the sender's copy link, the node's memory link and the UPI across sockets, whoever
// the receiver). What it is for and what it costs in accuracy: docs/collectives.md, "Node-level flows".
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/bench/comm_waiter.hpp"
#include "sim/engine/platform.hpp"
#include "traces/mpi_collectives.hpp"

namespace hplsim::sim {

/// Whether node-level flows can run the call: every member has the same
/// number of steps (they can go in step), which holds for the alltoall's
/// algorithms (Bruck, pairwise, scattered).
bool node_flows_apply(const mpi::CollCall& call);

/// The node-level executor of one benchmark: `nodes` nodes of `ppn` ranks,
/// rank r on node r / ppn. One actor per node calls run().
class NodeFlows {
public:
  /// A node's inter-node messages of one step to one node and socket pair
  /// travel as at most this many flows (contiguous runs of its messages,
  /// each routed as its first message): adaptive or hashed routing spreads
  /// a node's messages over several paths, and a single flow would not.
  static constexpr int kFlowsPerGroup = 4;

  NodeFlows(const Platform& platform, int nodes, int ppn);

  /// Node `node` runs the call's programs of its ranks, step by step; each
  /// step ends when every message of its ranks, sent and received, is over,
  /// then the ranks combine what they received (`reduce_bytes_per_s`, 0:
  /// instantly). From the node's actor; returns when the node is done.
  void run(int node, const mpi::CollCall& call, double reduce_bytes_per_s);

private:
  struct Flow {
    simgrid::s4u::Host *src = nullptr, *dst = nullptr;
    std::int64_t bytes = 0, message_bytes = 0;
    int messages = 0;
  };
  using NodeState = CommWaiter;
  struct Posted {
    int owner = 0;           // the node that waits for it
    std::vector<Flow> flows; // a send's flows (a receive has none)
    int messages = 0;        // what the flows carry (a receive: what it expects)
    std::int64_t bytes = 0;
  };
  struct Queues {
    std::deque<Posted> sends, recvs;
  };
  struct Message {
    int from = 0, to = 0;
    std::int64_t bytes = 0;
  };

  int node_of(int rank) const { return platform_.node_of(rank); }
  int socket_of(int rank) const { return platform_.spec().socket_of(rank); }
  /// The flows of a run of one node's messages to one node: grouped by
  /// (sender socket, receiver socket, bytes), each group in at most
  /// kFlowsPerGroup flows. `messages` is sorted by (from, to).
  std::vector<Flow> inter_node_flows(const std::vector<Message>& messages) const;
  void post(int from_node, int to_node, bool is_send, Posted posted);
  void start(const std::vector<Flow>& flows, NodeState& a, NodeState* b);

  const Platform& platform_;
  int nodes_, ppn_;
  std::vector<NodeState> state_;
  std::unordered_map<std::uint64_t, Queues> pairs_; // by (from node, to node)
};

} // namespace hplsim::sim
