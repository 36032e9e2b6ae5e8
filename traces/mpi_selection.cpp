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
// The call of one stage: `within_node` (the node's ranks) or the nodes' first
// ranks (one per node); node-aware rules do not apply to it.
CollCall stage_call(const CollCall& c, Collective coll, bool within_node, int root, std::int64_t bytes) {
  CollCall s;
  s.collective = coll;
  s.size = within_node ? c.ppn : c.size / c.ppn;
  s.ppn = within_node ? c.ppn : 1;
  s.root = root;
  s.bytes = bytes;
  s.stage = true;
  return s;
}

template <typename Map>
void stage(const CollCall& c, Collective coll, bool within_node, int root, std::int64_t bytes,
           int me_in_stage, Map member, CollProgram& out) {
  CollCall s = stage_call(c, coll, within_node, root, bytes);
  const int size = s.size;
  if (size <= 1) return;
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
  const int ppn = c.ppn;
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
    stage(c, REDUCE, true, 0, c.bytes, local, in_node, out);
    if (local == 0) stage(c, ALLREDUCE, false, 0, c.bytes, node, leader, out);
    stage(c, BCAST, true, 0, c.bytes, local, in_node, out);
    break;
  case BCAST:
    if (root_local != 0 && me == c.root) hop(true, leader(root_node), c.bytes);
    if (root_local != 0 && me == leader(root_node)) hop(false, c.root, c.bytes);
    if (local == 0) stage(c, BCAST, false, root_node, c.bytes, node, leader, out);
    stage(c, BCAST, true, 0, c.bytes, local, in_node, out);
    break;
  case REDUCE:
    stage(c, REDUCE, true, 0, c.bytes, local, in_node, out);
    if (local == 0) stage(c, REDUCE, false, root_node, c.bytes, node, leader, out);
    if (root_local != 0 && me == leader(root_node)) hop(true, c.root, c.bytes);
    if (root_local != 0 && me == c.root) hop(false, leader(root_node), c.bytes);
    break;
  default: // BARRIER: the node's barrier, the nodes' barrier, a one-byte release within the node
    stage(c, BARRIER, true, 0, 0, local, in_node, out);
    if (local == 0) stage(c, BARRIER, false, 0, 0, node, leader, out);
    stage(c, BCAST, true, 0, 1, local, in_node, out);
    break;
  }
  return out;
}

std::string describe(const CollCall& c) {
  if (!c.node_aware || c.table == nullptr) {
    // What runs: the algorithms that fall back on a count that is not a power of two say so.
    const bool pow2 = traces::floor_pow2(c.size) == c.size;
    if (!pow2 && c.collective == ALLGATHER && c.algorithm == RECURSIVE_DOUBLING) return algorithm_name(BRUCK);
    if (!pow2 && c.collective == BCAST && c.algorithm == SCATTER_RECURSIVE_DOUBLING_ALLGATHER)
      return algorithm_name(SCATTER_RING_ALLGATHER);
    return algorithm_name(c.algorithm);
  }
  const auto one = [&](Collective coll, bool within_node, std::int64_t bytes) {
    CollCall s = stage_call(c, coll, within_node, 0, bytes);
    if (s.size <= 1) return collective_name(coll) + " none";
    return collective_name(coll) + " " + (select_algorithm(*c.table, s) ? describe(s) : "unselected");
  };
  std::string stages;
  switch (c.collective) {
  case ALLREDUCE:
    stages =
        one(REDUCE, true, c.bytes) + ", " + one(ALLREDUCE, false, c.bytes) + ", " + one(BCAST, true, c.bytes);
    break;
  case BCAST:
    stages = one(BCAST, false, c.bytes) + ", " + one(BCAST, true, c.bytes);
    break;
  case REDUCE:
    stages = one(REDUCE, true, c.bytes) + ", " + one(REDUCE, false, c.bytes);
    break;
  default:
    stages = one(BARRIER, true, 0) + ", " + one(BARRIER, false, 0) + ", " + one(BCAST, true, 1);
  }
  return "node_aware(" + stages + ")";
}

bool select_algorithm(const MpiCollectives& mpi, CollCall& call) {
  const std::int64_t bytes = selection_bytes(call);
  const bool pow2 = traces::floor_pow2(call.size) == call.size;
  const int ppn = call.ppn;
  // MPICH builds its node hierarchy for any communicator with several ranks
  // on a node (MPIR_Comm_commit), one node included; a stage is never split again.
  const bool node_aware_ok = !call.stage && ppn > 1 && call.size >= ppn && call.size % ppn == 0;
  for (const CollectiveSelection& sel : mpi.selections()) {
    if (sel.collective() != call.collective) continue;
    for (const CollectiveRule& r : sel.rules()) {
      if (r.has_below_bytes() && bytes >= r.below_bytes()) continue;
      if (r.has_min_procs() && call.size < r.min_procs()) continue;
      if (r.has_below_procs() && call.size >= r.below_procs()) continue;
      if (r.has_power_of_two() && r.power_of_two() != pow2) continue;
      if (r.has_min_ppn() && ppn < r.min_ppn()) continue;
      if (r.has_below_ppn() && ppn >= r.below_ppn()) continue;
      if (r.node_aware() && !node_aware_ok) continue;
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
      if (r.has_below_bytes() && r.below_bytes() <= 0)
        throw std::invalid_argument(rat + ".below_bytes: must be > 0");
      if ((r.has_min_procs() && r.min_procs() < 1) || (r.has_below_procs() && r.below_procs() < 1))
        throw std::invalid_argument(rat + ": min_procs and below_procs must be >= 1");
      if ((r.has_min_ppn() && r.min_ppn() < 1) || (r.has_below_ppn() && r.below_ppn() < 1))
        throw std::invalid_argument(rat + ": min_ppn and below_ppn must be >= 1");
      if (r.has_radix() && (r.radix() < 2 || r.radix() > 64))
        throw std::invalid_argument(rat + ".radix: must be in [2, 64]");
      if (r.has_throttle() && r.throttle() < 1) throw std::invalid_argument(rat + ".throttle: must be >= 1");
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
