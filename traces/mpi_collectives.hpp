#pragma once
// MPI collectives as an MPI library runs them: a call (collective, algorithm,
// communicator size, root, bytes) becomes every member's list of steps, each
// step a set of point-to-point messages posted together (non-blocking) and
// waited for together, then a local reduction of what arrived. The algorithms
// follow Thakur, Rabenseifner & Gropp, "Optimization of collective
// communication operations in MPICH", IJHPCA 19(1), 2005 (recursive doubling
// and halving, Rabenseifner, Bruck, ring, pairwise, binomial trees, the van
// de Geijn broadcast) and Hensgen, Finkel & Manber, "Two algorithms for
// barrier synchronization", IJPP 17(1), 1988 (dissemination); docs/collectives.md.
//
// Sizes follow the OSU microbenchmarks' meaning of "size": the whole vector
// for allreduce, bcast and reduce; one member's block for allgather,
// alltoall, gather and scatter. Member indices are positions in the
// communicator (0 .. size - 1).
#include <cstdint>
#include <string>
#include <vector>

#include "traces/collectives.pb.h"

namespace hplsim::mpi {

struct CollMsg {
  int peer;
  std::int64_t bytes;
};

struct CollStep {
  std::vector<CollMsg> sends; ///< posted together with the receives
  std::vector<CollMsg> recvs;
  std::int64_t reduce_bytes = 0; ///< combined locally once the step's messages are done
};

using CollProgram = std::vector<CollStep>;

struct CollCall {
  Collective collective = ALLREDUCE;
  CollectiveAlgorithm algorithm = RECURSIVE_DOUBLING;
  int size = 1;           ///< communicator size
  int root = 0;           ///< bcast, reduce, gather, scatter
  std::int64_t bytes = 0; ///< OSU's size (see above)
  int radix = 4;          ///< KNOMIAL
  int throttle = 32;      ///< SCATTERED
  /// Members per node, placed node by node (member m on node m / ppn); the
  /// communicator spans size / ppn nodes.
  int ppn = 1;
  /// In stages within and across nodes (CollectiveRule.node_aware), each
  /// stage's algorithm from `table`, which must then be set.
  bool node_aware = false;
  const MpiCollectives* table = nullptr;
  /// A stage of a node-aware call: node-aware rules do not apply to it.
  bool stage = false;
};

/// Member `me`'s steps of the call. Throws std::invalid_argument when the
/// algorithm does not implement the collective (the message names both), or
/// when a node-aware call's table selects nothing for one of its stages.
CollProgram collective_program(const CollCall& call, int me);

/// A node-aware call's steps (collective_program's stages; traces/mpi_selection.cpp).
CollProgram node_aware_program(const CollCall& call, int me);

/// Whether `algorithm` implements `collective`.
bool implements(CollectiveAlgorithm algorithm, Collective collective);

/// The size a selection rule's below_bytes is compared with, as MPICH
/// compares its thresholds: the gathered total for allgather (block x
/// size), the call's bytes (OSU's size, as above) for the others.
inline std::int64_t selection_bytes(const CollCall& call) {
  return call.collective == ALLGATHER ? call.bytes * call.size : call.bytes;
}

/// The first rule of `selections` for the call's collective that matches
/// (size, ppn, selection_bytes); fills the call's algorithm, radix,
/// throttle and node_aware (table = &mpi). Returns false when no rule matches.
bool select_algorithm(const MpiCollectives& mpi, CollCall& call);

/// Validates a selection table: every rule's algorithm implements its
/// collective, thresholds are positive, radix >= 2, throttle >= 1. Throws
/// std::invalid_argument naming the field (selections[i].rules[j].algorithm).
void validate_collectives(const MpiCollectives& mpi);

/// What runs for a selected call: its algorithm's name, or for a node-aware
/// call "node_aware(" and its stages' algorithms, e.g.
/// "node_aware(reduce binomial, allreduce recursive_doubling, bcast binomial)".
std::string describe(const CollCall& call);

/// Lower-case names as the CLI and outputs use them ("allreduce",
/// "recursive_doubling").
std::string collective_name(Collective c);
std::string algorithm_name(CollectiveAlgorithm a);

} // namespace hplsim::mpi
