#include "sim/bench/osu_node_flows.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#include "sim/engine/engine_setup.hpp"

namespace hplsim::sim {

namespace sg4 = simgrid::s4u;

bool node_flows_apply(const mpi::CollCall& call) {
  if (call.node_aware) return false;
  return call.collective == mpi::ALLTOALL &&
         (call.algorithm == mpi::BRUCK || call.algorithm == mpi::PAIRWISE ||
          call.algorithm == mpi::SCATTERED);
}

NodeFlows::NodeFlows(const Platform& platform, int nodes, int ppn)
    : platform_(platform), nodes_(nodes), ppn_(ppn), state_(static_cast<std::size_t>(nodes)) {}

std::vector<NodeFlows::Flow> NodeFlows::inter_node_flows(const std::vector<Message>& messages) const {
  std::map<std::tuple<int, int, std::int64_t>, std::vector<const Message*>> groups;
  for (const Message& m : messages)
    groups[{socket_of(m.from), socket_of(m.to), m.bytes}].push_back(&m);
  std::vector<Flow> flows;
  for (const auto& [key, group] : groups) {
    const auto n = static_cast<int>(group.size());
    const int parts = std::min(n, kFlowsPerGroup);
    for (int part = 0; part < parts; ++part) {
      // Contiguous runs, the first parts one message longer when n does not divide.
      const int begin = part * (n / parts) + std::min(part, n % parts);
      const int end = begin + n / parts + (part < n % parts ? 1 : 0);
      const Message& first = *group[static_cast<std::size_t>(begin)];
      Flow f;
      f.src = platform_.cpu(first.from);
      f.dst = platform_.cpu(first.to);
      f.message_bytes = std::get<2>(key);
      f.messages = end - begin;
      f.bytes = f.message_bytes * f.messages;
      flows.push_back(f);
    }
  }
  return flows;
}

void NodeFlows::start(const std::vector<Flow>& flows, NodeState& a, NodeState* b) {
  for (const Flow& f : flows) {
    // An empty message crosses as one byte (a zero-byte host-to-host comm
    // leaks in SimGrid 3.32: sim/bench/osu_collectives.cpp).
    const std::int64_t bytes = std::max<std::int64_t>(f.bytes, 1);
    if (f.messages > 1)
      announce_aggregate_flow(f.src, f.dst, static_cast<double>(bytes),
                              static_cast<double>(std::max<std::int64_t>(f.message_bytes, 1)));
    sg4::CommPtr comm = sg4::Comm::sendto_async(f.src, f.dst, static_cast<std::uint64_t>(bytes));
    a.comms.push_back(comm);
    if (b != nullptr) b->comms.push_back(comm);
  }
}

void NodeFlows::post(int from_node, int to_node, bool is_send, Posted posted) {
  const std::uint64_t key = static_cast<std::uint64_t>(from_node) * static_cast<std::uint64_t>(nodes_) +
                            static_cast<std::uint64_t>(to_node);
  Queues& q = pairs_[key];
  std::deque<Posted>& other = is_send ? q.recvs : q.sends;
  const int owner = posted.owner;
  if (other.empty()) {
    (is_send ? q.sends : q.recvs).push_back(std::move(posted));
    ++state_[static_cast<std::size_t>(owner)].missing;
    return;
  }
  Posted match = std::move(other.front());
  other.pop_front();
  if (q.sends.empty() && q.recvs.empty()) pairs_.erase(key);
  // The two sides of a step must agree, as MPI's matching would check each message.
  const Posted& send = is_send ? posted : match;
  const Posted& recv = is_send ? match : posted;
  if (send.messages != recv.messages || send.bytes != recv.bytes)
    throw std::logic_error("node-level flows: node " + std::to_string(from_node) + " sends node " +
                           std::to_string(to_node) + " " + std::to_string(send.messages) + " messages of " +
                           std::to_string(send.bytes) + " bytes in all, which expects " +
                           std::to_string(recv.messages) + " of " + std::to_string(recv.bytes) +
                           " (steps out of line)");
  NodeState& me = state_[static_cast<std::size_t>(owner)];
  NodeState& partner = state_[static_cast<std::size_t>(match.owner)];
  start(send.flows, me, &partner);
  partner.one_started();
}

void NodeFlows::run(int node, const mpi::CollCall& call, double reduce_bytes_per_s) {
  const int first = node * ppn_;
  std::vector<mpi::CollProgram> programs;
  programs.reserve(static_cast<std::size_t>(ppn_));
  for (int r = first; r < first + ppn_; ++r)
    programs.push_back(mpi::collective_program(call, r));
  const std::size_t steps = programs.front().size();
  for (const mpi::CollProgram& p : programs)
    if (p.size() != steps)
      throw std::logic_error("node-level flows: the ranks of node " + std::to_string(node) +
                             " have different step counts for " + mpi::describe(call));
  std::map<int, std::vector<Message>> out;        // by destination node
  std::map<int, std::pair<int, std::int64_t>> in; // by source node: messages, bytes
  // Copies within the node: one flow per sender, receiving socket and size (a copy's route is the sender's).
  std::map<std::tuple<int, int, std::int64_t>, Flow> local;
  for (std::size_t s = 0; s < steps; ++s) {
    out.clear();
    in.clear();
    local.clear();
    std::int64_t reduce_bytes = 0;
    for (int i = 0; i < ppn_; ++i) {
      const int rank = first + i;
      const mpi::CollStep& step = programs[static_cast<std::size_t>(i)][s];
      for (const mpi::CollMsg& m : step.sends) {
        if (node_of(m.peer) == node) {
          Flow& f = local[{rank, socket_of(m.peer), m.bytes}];
          if (f.messages++ == 0) {
            f.src = platform_.cpu(rank);
            f.dst = platform_.cpu(m.peer);
            f.message_bytes = m.bytes;
          }
          f.bytes += m.bytes;
        } else
          out[node_of(m.peer)].push_back({rank, m.peer, m.bytes});
      }
      for (const mpi::CollMsg& m : step.recvs)
        if (node_of(m.peer) != node) {
          auto& [messages, bytes] = in[node_of(m.peer)];
          ++messages;
          bytes += m.bytes;
        }
      reduce_bytes = std::max(reduce_bytes, step.reduce_bytes);
    }
    for (auto& [to, messages] : out) {
      std::sort(messages.begin(), messages.end(), [](const Message& a, const Message& b) {
        return std::tie(a.from, a.to) < std::tie(b.from, b.to);
      });
      Posted send{node, inter_node_flows(messages), static_cast<int>(messages.size()), 0};
      for (const Message& m : messages)
        send.bytes += m.bytes;
      post(node, to, true, std::move(send));
    }
    for (const auto& [from, expected] : in)
      post(from, node, false, Posted{node, {}, expected.first, expected.second});
    std::vector<Flow> copies;
    copies.reserve(local.size());
    for (const auto& [key, f] : local)
      copies.push_back(f);
    start(copies, state_[static_cast<std::size_t>(node)], nullptr);
    state_[static_cast<std::size_t>(node)].wait_all();
    if (reduce_bytes > 0 && reduce_bytes_per_s > 0)
      sg4::this_actor::sleep_for(static_cast<double>(reduce_bytes) / reduce_bytes_per_s);
  }
}

} // namespace hplsim::sim
