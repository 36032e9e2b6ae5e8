#include "sim/fast/flap_reach.hpp"

#include <vector>

namespace hplsim::sim {

namespace {

// Every peer an op of a rank program names: messages, and the members of a
// pivot exchange or swap roll (the process column's ranks base + i * stride).
template <typename Visit> void peers_of(const traces::RankProgram& program, const Visit& visit) {
  for (const traces::Op& op : program.ops()) {
    switch (op.kind_case()) {
    case traces::Op::kSend:
      visit(op.send().peer());
      break;
    case traces::Op::kRecv:
      visit(op.recv().peer());
      break;
    case traces::Op::kExchange:
      for (int i = 0; i < op.exchange().size(); ++i)
        visit(op.exchange().base() + i * op.exchange().stride());
      break;
    case traces::Op::kPolledUpdate:
      visit(op.polled_update().peer());
      peers_of(op.polled_update().arrival(), visit);
      peers_of(op.polled_update().swap(), visit);
      break;
    default:
      break;
    }
  }
}

} // namespace

std::set<int> nics_used(const ScheduleSource& source, const Platform& platform, int node, std::int64_t first,
                        std::int64_t last) {
  const int per_node = platform.spec().ranks_per_node;
  std::vector<bool> only(static_cast<std::size_t>(platform.ranks()), false);
  for (int l = 0; l < per_node; ++l)
    only[static_cast<std::size_t>(node * per_node + l)] = true;
  std::set<int> nics;
  traces::StepSchedule step;
  for (std::int64_t k = first; k <= last; ++k) {
    step.Clear();
    source.step(k, step, &only);
    for (const traces::RankProgram& program : step.ranks()) {
      const int rank = program.rank();
      if (platform.node_of(rank) != node) continue;
      peers_of(program, [&](int peer) {
        if (peer >= 0 && peer < platform.ranks() && platform.node_of(peer) != node)
          nics.insert(platform.nic_of(rank, peer));
      });
    }
  }
  return nics;
}

} // namespace hplsim::sim
