// The selection table (machine.mpi): which algorithm a call runs, node-aware
// calls in stages, the table's validation and the names outputs use.
#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string>
#include <utility>

#include "traces/grid.hpp"
#include "traces/mpi_collectives.hpp"

namespace hplsim::mpi {

namespace {

// A stage of a node-aware call: a sub-communicator's call (members mapped to
// the call's by `member`), its algorithm from the table.
template <typename Map>
void stage(const CollCall& c, Collective coll, int size, int root, std::int64_t bytes, int me_in_stage,
           Map member, CollProgram& out) {
  CollCall s;
  s.collective = coll;
  s.size = size;
  s.root = root;
  s.bytes = bytes;
  s.ppn = size == c.ppn ? size : 1; // the node's communicator, or one member per node
  if (!select_algorithm(*c.table, s))
    throw std::invalid_argument("node-aware " + collective_name(c.collective) +
                                ": the table selects nothing for its " + collective_name(coll) +
                                " stage of " + std::to_string(bytes) + " bytes on " + std::to_string(size) +
                                " processes");
  for (CollStep step : collective_program(s, me_in_stage)) {
    for (CollMsg& m : step.sends)
      m.peer = member(m.peer);
    for (CollMsg& m : step.recvs)
      m.peer = member(m.peer);
    out.push_back(std::move(step));
  }
}

// MPICH's node-aware collectives (MPIR_Allreduce_intra_smp and the like):
// within the node to its first member, among the first members, within the
// node again.
} // namespace

CollProgram node_aware_program(const CollCall& c, int me) {
  const int ppn = c.ppn, nodes = c.size / ppn;
  const int node = me / ppn, local = me % ppn;
  const auto in_node = [&](int m) { return node * ppn + m; };
  const auto leader = [&](int n) { return n * ppn; };
  const int root_node = c.root / ppn, root_local = c.root % ppn;
  CollProgram out;
  // The root's hand-over to or from its node's first member.
  const auto hop = [&out](bool send, int peer, std::int64_t bytes) {
    CollStep s;
    (send ? s.sends : s.recvs).push_back({peer, bytes});
    out.push_back(std::move(s));
  };
  switch (c.collective) {
  case ALLREDUCE:
    stage(c, REDUCE, ppn, 0, c.bytes, local, in_node, out);
    if (local == 0) stage(c, ALLREDUCE, nodes, 0, c.bytes, node, leader, out);
    stage(c, BCAST, ppn, 0, c.bytes, local, in_node, out);
    break;
  case BCAST:
    if (root_local != 0 && me == c.root) hop(true, leader(root_node), c.bytes);
    if (root_local != 0 && me == leader(root_node)) hop(false, c.root, c.bytes);
    if (local == 0) stage(c, BCAST, nodes, root_node, c.bytes, node, leader, out);
    stage(c, BCAST, ppn, 0, c.bytes, local, in_node, out);
    break;
  case REDUCE:
    stage(c, REDUCE, ppn, 0, c.bytes, local, in_node, out);
    if (local == 0) stage(c, REDUCE, nodes, root_node, c.bytes, node, leader, out);
    if (root_local != 0 && me == leader(root_node)) hop(true, c.root, c.bytes);
    if (root_local != 0 && me == c.root) hop(false, leader(root_node), c.bytes);
    break;
  default: // BARRIER: the node's barrier, the nodes' barrier, a one-byte release within the node
    stage(c, BARRIER, ppn, 0, 0, local, in_node, out);
    if (local == 0) stage(c, BARRIER, nodes, 0, 0, node, leader, out);
    stage(c, BCAST, ppn, 0, 1, local, in_node, out);
    break;
  }
  return out;
}

std::string describe(const CollCall& c) {
  if (!c.node_aware || c.table == nullptr) return algorithm_name(c.algorithm);
  const int nodes = c.size / c.ppn;
  const auto one = [&](Collective coll, int size, std::int64_t bytes) {
    CollCall s;
    s.collective = coll;
    s.size = size;
    s.bytes = bytes;
    s.ppn = size == c.ppn ? size : 1;
    return collective_name(coll) + " " + (select_algorithm(*c.table, s) ? describe(s) : "none");
  };
  std::string stages;
  switch (c.collective) {
  case ALLREDUCE:
    stages = one(REDUCE, c.ppn, c.bytes) + ", " + one(ALLREDUCE, nodes, c.bytes) + ", " +
             one(BCAST, c.ppn, c.bytes);
    break;
  case BCAST:
    stages = one(BCAST, nodes, c.bytes) + ", " + one(BCAST, c.ppn, c.bytes);
    break;
  case REDUCE:
    stages = one(REDUCE, c.ppn, c.bytes) + ", " + one(REDUCE, nodes, c.bytes);
    break;
  default:
    stages = one(BARRIER, c.ppn, 0) + ", " + one(BARRIER, nodes, 0) + ", " + one(BCAST, c.ppn, 1);
  }
  return "node_aware(" + stages + ")";
}

bool select_algorithm(const MpiCollectives& mpi, CollCall& call) {
  const std::int64_t bytes = selection_bytes(call);
  const bool pow2 = traces::floor_pow2(call.size) == call.size;
  const int ppn = call.ppn;
  const bool spans_nodes = ppn > 1 && call.size > ppn && call.size % ppn == 0;
  for (const CollectiveSelection& sel : mpi.selections()) {
    if (sel.collective() != call.collective) continue;
    for (const CollectiveRule& r : sel.rules()) {
      if (r.has_below_bytes() && bytes >= r.below_bytes()) continue;
      if (r.has_min_procs() && call.size < r.min_procs()) continue;
      if (r.has_below_procs() && call.size >= r.below_procs()) continue;
      if (r.has_power_of_two() && r.power_of_two() != pow2) continue;
      if (r.has_min_ppn() && ppn < r.min_ppn()) continue;
      if (r.has_below_ppn() && ppn >= r.below_ppn()) continue;
      if (r.node_aware() && !spans_nodes) continue;
      call.node_aware = r.node_aware();
      call.table = &mpi;
      call.algorithm = r.algorithm();
      if (r.has_radix()) call.radix = r.radix();
      if (r.has_throttle()) call.throttle = r.throttle();
      return true;
    }
  }
  return false;
}

void validate_collectives(const MpiCollectives& mpi) {
  if (mpi.has_reduce_bytes_per_s() && !(mpi.reduce_bytes_per_s() > 0))
    throw std::invalid_argument("reduce_bytes_per_s: must be > 0");
  for (int i = 0; i < mpi.selections_size(); ++i) {
    const CollectiveSelection& sel = mpi.selections(i);
    const std::string at = "selections[" + std::to_string(i) + "]";
    if (sel.collective() == COLLECTIVE_UNSET) throw std::invalid_argument(at + ".collective: must be set");
    for (int j = 0; j < sel.rules_size(); ++j) {
      const CollectiveRule& r = sel.rules(j);
      const std::string rat = at + ".rules[" + std::to_string(j) + "]";
      if (r.node_aware()) {
        const Collective c = sel.collective();
        if (c != ALLREDUCE && c != BCAST && c != REDUCE && c != BARRIER)
          throw std::invalid_argument(
              rat + ".node_aware: only allreduce, bcast, reduce and barrier run node-aware");
        if (r.has_algorithm())
          throw std::invalid_argument(rat + ".algorithm: a node_aware rule leaves it to its stages' rules");
        continue;
      }
      if (!implements(r.algorithm(), sel.collective()))
        throw std::invalid_argument(rat + ".algorithm: " + algorithm_name(r.algorithm()) +
                                    " does not implement " + collective_name(sel.collective()));
      if (r.has_below_bytes() && r.below_bytes() <= 0)
        throw std::invalid_argument(rat + ".below_bytes: must be > 0");
      if ((r.has_min_procs() && r.min_procs() < 1) || (r.has_below_procs() && r.below_procs() < 1))
        throw std::invalid_argument(rat + ": min_procs and below_procs must be >= 1");
      if ((r.has_min_ppn() && r.min_ppn() < 1) || (r.has_below_ppn() && r.below_ppn() < 1))
        throw std::invalid_argument(rat + ": min_ppn and below_ppn must be >= 1");
      if (r.has_radix() && r.radix() < 2) throw std::invalid_argument(rat + ".radix: must be >= 2");
      if (r.has_throttle() && r.throttle() < 1) throw std::invalid_argument(rat + ".throttle: must be >= 1");
    }
  }
}

std::string collective_name(Collective c) {
  std::string s = Collective_Name(c);
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return s;
}

std::string algorithm_name(CollectiveAlgorithm a) {
  std::string s = CollectiveAlgorithm_Name(a);
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return s;
}

} // namespace hplsim::mpi
