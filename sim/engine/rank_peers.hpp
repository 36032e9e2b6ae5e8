#pragma once
// What one rank of the replay caches about its peers: the mailboxes it sends
// and receives on, and the idle path latency from each peer to it.
#include <string>
#include <utility>
#include <vector>

#include <simgrid/s4u.hpp>

#include "models/protocol_model.hpp"
#include "sim/engine/platform.hpp"

namespace hplsim::sim {

class RankPeers {
public:
  RankPeers(const Platform& platform, int rank) : platform_(platform), rank_(rank) {}

  /// The mailbox of messages from `from` to `to` (one of them this rank).
  simgrid::s4u::Mailbox* mailbox(int from, int to) {
    auto& cache = from == rank_ ? out_ : in_;
    const int peer = from == rank_ ? to : from;
    for (auto& [p, mb] : cache)
      if (p == peer) return mb;
    simgrid::s4u::Mailbox* mb =
        simgrid::s4u::Mailbox::by_name(std::to_string(from) + ">" + std::to_string(to));
    cache.emplace_back(peer, mb);
    return mb;
  }

  /// One message's latency from `from` to this rank for `bytes`, as the network
  /// model charges it: the route's link latencies, scaled and augmented by the
  /// protocol model when there is one (sim/engine/engine_setup.cpp, install_protocol).
  double message_latency_s(int from, double bytes, const models::ProtocolModel* protocol) {
    auto it = latency_.begin();
    for (; it != latency_.end() && it->first != from; ++it) {
    }
    if (it == latency_.end()) {
      std::vector<simgrid::s4u::Link*> links;
      latency_.emplace_back(from, platform_.query_route(from, rank_, links));
      it = latency_.end() - 1;
    }
    const bool shm = protocol != nullptr && !protocol->prices_intra_node() &&
                     platform_.node_of(from) == platform_.node_of(rank_);
    return protocol == nullptr || shm ? it->second : protocol->message_latency_s(it->second, bytes);
  }

private:
  const Platform& platform_;
  int rank_;
  std::vector<std::pair<int, simgrid::s4u::Mailbox*>> out_, in_;
  std::vector<std::pair<int, double>> latency_; // peer, path latency to this rank
};

} // namespace hplsim::sim
