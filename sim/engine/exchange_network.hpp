#pragma once
// What fast mode's priced collectives (sim/engine/pivot_exchange.hpp, sim/engine/swap_roll.hpp) need to know
// of the machine: the routes between the members and the protocol model's corrections.
#include <cstdint>
#include <utility>
#include <vector>

namespace hplsim::sim {

/// What pivot_exchange_completion_s needs to know of the machine.
class ExchangeNetwork {
public:
  struct Route {
    double path_s = 0.0;                               ///< sum of the links' latencies
    std::vector<std::pair<const void*, double>> links; ///< link identity, bandwidth (bytes/s)
    /// Per link: 1 for a node's own link (NIC, shared memory, UPI), 0 for the fabric's.
    std::vector<char> node_link;
    /// Per link: its index among the links of the network's routes, dense
    /// from 0 (the slot of its load counter while exchanges are priced).
    std::vector<std::uint32_t> link_id;
    /// Both ends on one node: a shared-memory message, which a protocol that
    /// leaves intra-node messages alone (ProtocolParams.intra_node) does not correct.
    bool within_node = false;
  };
  virtual ~ExchangeNetwork() = default;
  /// The route from member `from` to member `to`.
  virtual const Route& route(int from, int to) = 0;
  /// A message's latency on a route of `path_s` and the factor applied to the
  /// links' bandwidth, for `bytes` (the protocol model's corrections);
  /// `within_node`: the route's Route::within_node.
  virtual double latency_s(double path_s, std::int64_t bytes, bool within_node) const = 0;
  virtual double bandwidth_factor(std::int64_t bytes, bool within_node) const = 0;
  /// Whether the machine has system noise (models/noise.hpp): a quiet one
  /// skips the two calls below.
  virtual bool noisy() const { return false; }
  /// The rank of `member` (the identity for a network whose members are ranks).
  virtual int rank_of(int member) const { return member; }
  /// How much longer than `work_s` the CPU work of `rank` that starts at
  /// `start_s` on its first `threads` cores takes under system noise. By rank:
  /// a priced collective re-priced later keeps its members' ranks.
  virtual double rank_noise_delay_s(int /*rank*/, int /*threads*/, double /*start_s*/,
                                    double /*work_s*/) const {
    return 0.0;
  }
  /// The CPU time a member spends on one exchange step that sends `send_bytes`
  /// and receives `recv_bytes` (the protocol model's per-message overheads; 0
  /// for an empty direction).
  virtual double message_cpu_s(std::int64_t /*send_bytes*/, std::int64_t /*recv_bytes*/) const { return 0.0; }
};

} // namespace hplsim::sim
